"""The shared test kit: the checks of checks.py over every registered game.

A game gets all of this by registering a GameSpec with a ``kit`` (see
analyser.testing.kit); tests/conftest.py registers the toy game, so the kit
always runs over at least two games unlike each other.
"""
import pytest

from analyser.engine.registry import game_names, get_game
from tests.kit import checks

GAMES = game_names()


def kit_of(name):
    game = get_game(name)
    return game, game.kit()


def cases_of(name):
    game, kit = kit_of(name)
    return [pytest.param(name, players, rules, id=f"{name}-{players}p-{rules or 'default'}")
            for players, rules in kit.cases(game)]


ALL_CASES = [case for name in GAMES for case in cases_of(name)]
SOME_CASES = [case for name in GAMES for case in {c.id: c for c in (cases_of(name)[0], cases_of(name)[-1])}.values()]


def test_the_registry_holds_palace_and_the_toy_game():
    assert {"palace", "highcard"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_offers_a_kit(name):
    assert get_game(name).kit is not None, f"{name} has no test kit hooks (GameSpec.kit)"


@pytest.mark.parametrize("name,players,rules", ALL_CASES)
def test_cards_are_conserved_and_units_end_within_the_cap(name, players, rules):
    game, kit = kit_of(name)
    assert checks.check_playouts(game, kit, players, rules, units=3) > 0


@pytest.mark.parametrize("name,players,rules", ALL_CASES)
def test_the_trace_of_unit_i_is_record_i(name, players, rules):
    checks.check_trace_is_record(get_game(name), players, rules, units=4)


@pytest.mark.parametrize("name", GAMES)
def test_compiled_equals_uncompiled(name, tmp_path):
    game, kit = kit_of(name)
    cases = kit.cases(game)
    checks.check_jit_equals_no_jit(game, [cases[0], cases[-1]] if len(cases) > 1 else cases, 4, tmp_path)


@pytest.mark.parametrize("name", GAMES)
def test_records_do_not_depend_on_threads_or_chunks(name):
    game, kit = kit_of(name)
    players, rules = kit.cases(game)[-1]
    checks.check_threads_and_chunks(game, players, rules, 60)


@pytest.mark.parametrize("name", GAMES)
def test_a_hand_of_a_match_traced_alone(name):
    game, kit = kit_of(name)
    if game.sub_unit is None:
        pytest.skip(f"a {game.unit} of {name} has no {game.sub_unit or 'sub-units'}")
    players, rules = kit.cases(game)[0]
    assert checks.check_hands_alone(game, kit, players, rules) >= 2


@pytest.mark.parametrize("name", GAMES)
def test_random_streams_follow_the_stream_ids(name):
    game, kit = kit_of(name)
    players, rules = kit.cases(game)[-1]
    checks.check_streams_follow_policies(game, kit, players, rules)


@pytest.mark.parametrize("name,players,rules", ALL_CASES)
def test_outcome_block(name, players, rules):
    checks.check_outcomes(get_game(name), players, rules, 200)


@pytest.mark.parametrize("name", GAMES)
def test_outcome_block_of_aborted_units(name):
    game, kit = kit_of(name)
    if kit.aborting_rules() is None:
        pytest.skip(f"{name} names no rules that abort units")
    players, rules = max(kit.cases(game), key=lambda case: case[0])   # a unit can abort with seats out
    rec = checks.check_outcomes(game, players, {**rules, **kit.aborting_rules()}, 60)
    assert rec["aborted"].any()


@pytest.mark.parametrize("name,players,rules", SOME_CASES)
def test_decisions_ignore_what_the_seat_cannot_see(name, players, rules):
    game, kit = kit_of(name)
    checked, changed = checks.check_hidden_information(game, kit, list(game.policies), players, rules)
    assert checked >= 20 and changed >= checked // 2


@pytest.mark.parametrize("name", GAMES)
def test_a_redeal_keeps_the_policy_memory(name):
    game, kit = kit_of(name)
    players, rules = kit.cases(game)[0]
    assert checks.check_redeal_keeps_memory(game, kit, players, rules) > 0


def test_a_peeking_policy_fails_the_hidden_information_check():
    from tests.toygame.policies import peek_policy

    game, kit = kit_of("highcard")
    with pytest.raises(AssertionError, match="peek_policy chose"):
        checks.check_hidden_information(game, kit, [peek_policy], 4, {})
    # the honest policies of the same game pass the same check
    checks.check_hidden_information(game, kit, list(game.policies), 4, {})
