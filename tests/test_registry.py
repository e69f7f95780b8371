"""The game contract: choice settings, and the spec that simulates single hands (no numba here)."""
from dataclasses import replace

import pytest

from analyser.errors import UserError
from analyser.games.registry import SettingSpec, get_game

LEADER = SettingSpec("next_leader", 0, "who leads the next trick", kind="choice", options=("winner", "lowest"))


def test_a_choice_setting_is_its_options_index_and_shows_its_name():
    assert LEADER.parse("winner") == 0 and LEADER.parse(" Lowest ") == 1
    assert LEADER.show(1) == "lowest" and LEADER.show(LEADER.default) == "winner"
    with pytest.raises(UserError) as err:
        LEADER.parse("x")
    assert str(err.value) == "rule next_leader is one of winner, lowest, not 'x'"
    with pytest.raises(UserError, match="one of winner, lowest, not '1'"):
        LEADER.parse(1)                 # users name the option, never its index


@pytest.mark.parametrize("bad", [replace(LEADER, default=2), replace(LEADER, options=())])
def test_check_refuses_a_choice_without_options_or_with_its_default_outside_them(bad):
    with pytest.raises(ValueError, match="choice setting next_leader"):
        replace(get_game("highcard"), settings=(bad,)).check()


def test_check_allows_the_units_and_a_single_that_names_settings():
    game = get_game("highcard")
    assert replace(game, unit="round").check()
    with pytest.raises(ValueError, match="unit is 'game', 'match', 'hand' or 'round', not 'set'"):
        replace(game, unit="set").check()
    with pytest.raises(ValueError, match="single needs a sub_unit"):
        replace(game, single={"rounds": 1}).check()
    with pytest.raises(ValueError, match="single needs a sub_unit"):
        replace(game, sub_unit=None).check()


def test_one_sub_unit_holds_the_single_settings_fixed():
    match = get_game("highcard")
    hand = match.one_sub_unit()
    assert (hand.unit, hand.sub_unit, hand.single, hand.units) == ("hand", None, None, ("hand",))
    assert hand.simulate is match.simulate and hand.record_dtype == match.record_dtype
    assert hand.parse_settings(None) == {"hands": 1, "max_actions": 1000}
    assert hand.parse_settings({"hands": "1", "max_actions": 50}) == {"hands": 1, "max_actions": 50}
    with pytest.raises(UserError) as err:
        hand.parse_settings({"hands": 3})
    assert str(err.value) == "rule hands is fixed at 1 when simulating single hands"
    assert match.parse_settings({"hands": 3})["hands"] == 3          # the game itself is untouched


def test_for_unit_names_what_a_game_simulates():
    match, palace = get_game("highcard"), get_game("palace")
    assert match.for_unit(None) is match and match.for_unit("match") is match
    assert match.for_unit("hand").unit == "hand" and palace.for_unit("game") is palace
    with pytest.raises(UserError, match=r"^highcard simulates a match or a hand, not 'round'$"):
        match.for_unit("round")
    with pytest.raises(UserError, match=r"^palace simulates only whole games, not 'hand'$"):
        palace.for_unit("hand")
    with pytest.raises(UserError, match=r"^highcard simulates only whole matches, not 'hand'$"):
        replace(match, single=None).for_unit("hand")


def test_a_run_carries_a_choice_as_its_index_and_names_it_in_the_metadata():
    from analyser.engine.config import RunConfig

    game = get_game("highcard")
    game = replace(game, settings=game.settings + (LEADER,))
    config = RunConfig.build(game, rules={"next_leader": "LOWEST"})
    assert config.settings["next_leader"] == 1 and list(game.settings_row(config.settings)) == [3, 1000, 1]
    assert config.metadata()["settings"] == {"hands": 3, "max_actions": 1000, "next_leader": "lowest"}
