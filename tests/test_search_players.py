"""The compiled search players (pimc, ismcts) in every game that has them: honest, reproducible,
no search for a forced move, and bad parameters refused in one line; their open (cheating) variants
see the table, only as the engine shows it, and say so in their label.

Each game's own tests (tests/games/<game>/test_search.py) check its world sampler against the
Python one and that an action that wins at once is chosen."""
from __future__ import annotations

import numba
import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.cli.main import app
from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.games.policy_specs import as_seat_policy
from analyser.games.registry import game_names, get_game
from analyser.kernels.search_row import SEARCHED, WORLDS_DRAWN
from analyser.testing.checks import check_hidden_information, fresh

GAMES = [g for g in game_names() if "pimc" in get_game(g).policy_map]
SEARCHES = {"pimc": "pimc:worlds=3", "ismcts": "ismcts:iterations=12"}
OPEN = {"pimc": "pimc:worlds=3,open=1", "ismcts": "ismcts:iterations=12,open=1"}   # the cheating variants
# a Spite & Malice match to 50 points has some 2,000 decisions: one short round instead
RULES = {"spite_and_malice": {"payoff_size": 5, "rounds": 1}}


def lineup(game, search):
    others = [game.default_policy] * (game.default_players - 1)
    return [search, *others]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_with_a_search_has_both(name):
    game = get_game(name)
    assert {"pimc", "ismcts"} <= set(game.policy_map)
    assert {"pimc", "ismcts"}.isdisjoint(p.name for p in game.heuristics)


@pytest.mark.parametrize("search", [*SEARCHES, "pimc-open"])
@pytest.mark.parametrize("name", GAMES)
def test_one_thread_and_two_give_the_same_records(name, search):
    game = get_game(name)
    seat = OPEN["pimc"] if search == "pimc-open" else SEARCHES[search]     # the open one: the engine reveals
    runner = ChunkRunner(RunConfig.build(game, players=game.default_players, policies=lineup(game, seat),
                                         deals=4, seed=7, rules=RULES.get(name)))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = runner.run(0, 4)
        numba.set_num_threads(2)
        two = runner.run(0, 4)
    finally:
        numba.set_num_threads(before)
    for field in one.dtype.names:
        assert np.array_equal(one[field], two[field]), field


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("name", GAMES)
def test_a_forced_move_costs_no_search_and_a_choice_does(name, search):
    game = get_game(name)
    kit = game.kit()
    runner = ChunkRunner(RunConfig.build(game, players=game.default_players, policies=[game.default_policy],
                                         deals=1, seed=3, rules=RULES.get(name)))
    policy = game.policy_map[search].bind()
    row = policy.engine_row(game, runner.settings, game.default_players)
    forced = chosen = 0
    for unit in range(6):
        for position in kit.play(3, unit, game.default_players, runner.settings, runner.fns, runner.params,
                                 runner.streams):
            decision = position.decision(forced=True)
            if decision is None:
                continue
            args = fresh(decision[1])
            n = len(kit.legal_actions(args))
            before = args[1]["memory"].copy(), int(args[1]["rng"][0])
            action = policy.spec.function(*args, row)
            assert action in kit.legal_actions(args)
            if n == 1:
                forced += 1
                assert args[1]["memory"][SEARCHED] == before[0][SEARCHED]
                assert int(args[1]["rng"][0]) == before[1], "a forced move drew from the stream"
            elif chosen < 3:
                chosen += 1
                assert args[1]["memory"][SEARCHED] == before[0][SEARCHED] + 1
                assert args[1]["memory"][WORLDS_DRAWN] > before[0][WORLDS_DRAWN]
            if forced and chosen == 3:
                return
    assert chosen, "no decision with a choice"
    if not forced:
        pytest.skip(f"{name}: the engine asks no policy to play a forced move")


@pytest.mark.parametrize("name", GAMES)
def test_the_search_players_are_honest_in_the_line_up(name):
    game = get_game(name)
    players = game.default_players
    seats = [SEARCHES["pimc"], SEARCHES["ismcts"]] + [game.default_policy] * (players - 2)
    checked, changed = check_hidden_information(game, game.kit(), ["pimc:worlds=2", "ismcts:iterations=6"],
                                                players, RULES.get(name, {}), units=2, lineup=seats)
    assert checked >= 20 and changed >= checked // 2


@pytest.mark.parametrize("search", OPEN)
@pytest.mark.parametrize("name", GAMES)
def test_the_open_variant_sees_what_its_seat_cannot(name, search):
    # asked as the engine asks it (the table revealed in its row), its choice changes when the cards its
    # seat cannot see are re-dealt: the check that every honest policy passes catches it
    game = get_game(name)
    seat = OPEN[search].replace("=12,", "=100,")          # at 12 iterations its counts tie often: then it keeps
    with pytest.raises(AssertionError, match="cannot see was re-dealt"):    # its rollout heuristic's choice
        check_hidden_information(game, game.kit(), [seat], game.default_players, RULES.get(name, {}), units=2)


def test_the_open_variant_is_labelled_as_cheating_and_its_label_reads_back():
    game = get_game(GAMES[0])
    for text in ("pimc:open=1", "pimc:worlds=8,open=yes", "ismcts:open=1"):
        seat = as_seat_policy(text, game.policy_map)
        assert seat.cheating and seat.label().endswith(" (cheating)")
        again = as_seat_policy(seat.label(), game.policy_map)
        assert again == seat
    honest = as_seat_policy("pimc:worlds=8", game.policy_map)
    assert not honest.cheating and "cheating" not in honest.label()
    assert not any(p.cheating for p in (s.bind() for s in game.policies))


def test_an_open_seat_asked_without_its_table_plays_an_illegal_action():
    # only the engine shows an open seat the table, at each of its decisions; asked without it, it does
    # not quietly play on an empty table: -1, which the engine reports as an illegal action
    game = get_game(GAMES[0])
    kit = game.kit()
    runner = ChunkRunner(RunConfig.build(game, players=game.default_players, policies=[game.default_policy],
                                         deals=1, seed=3, rules=RULES.get(GAMES[0])))
    policy = as_seat_policy(OPEN["pimc"], game.policy_map)
    for position in kit.play(3, 0, game.default_players, runner.settings, runner.fns, runner.params, runner.streams):
        decision = position.decision()
        if decision is not None and len(kit.legal_actions(fresh(decision[1]))) > 1:
            row = policy.engine_row(game, runner.settings, game.default_players)
            assert policy.spec.function(*fresh(decision[1]), row) == -1
            return
    raise AssertionError("no decision with a choice")


BAD = [
    ("pimc:worlds=0", "pimc:worlds=0 is out of range 1..100000"),
    ("pimc:worlds=2.5", "pimc:worlds takes a whole number"),
    ("pimc:rollout=nosuch", "pimc:rollout is one of"),
    ("pimc:rollout=pimc", "pimc:rollout is one of"),
    ("ismcts:rollout=ismcts", "ismcts:rollout is one of"),
    ("ismcts:iterations=0", "ismcts:iterations=0 is out of range"),
    ("ismcts:c=-1", "ismcts:c=-1 is out of range"),
    ("pimc:depth=3", "unknown parameter 'depth' for policy 'pimc'"),
    ("pimc:open=2", "pimc:open is one of"),
]


@pytest.mark.parametrize(("spec", "message"), BAD)
def test_bad_search_parameters_get_one_line_and_exit_2(spec, message):
    result = CliRunner().invoke(app, ["simulate", GAMES[0], "--policy", spec, "-n", "2", "--no-progress"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], result.output


def test_policies_lists_the_search_players_and_their_parameters():
    result = CliRunner().invoke(app, ["policies", GAMES[0]], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for word in ("pimc", "ismcts", "worlds", "iterations", "rollout"):
        assert word in result.output
