"""One count and one numbering of a unit's steps in trace, replay and rollout, and a rollout that
shows its position in words (issue 34, section 3)."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from analyser.analyses.position_text import game_view
from analyser.analyses.replay import replay, rollout_values
from analyser.analyses.rollout import position_at, rollout, steps
from analyser.analyses.trace import trace
from analyser.cli.main import app
from analyser.engine.config import RunConfig
from analyser.errors import UserError, counted

runner = CliRunner()
SMALL_MATCH = {"spite_and_malice": {"payoff_size": 5, "target": 8}, "enemy_anemone": {"hands": 1},
               "olenon": {"rounds": 1}}


def test_palace_seed_1_deal_17_has_one_count_in_trace_replay_and_rollout():
    """The trace used to end "101 actions" (the swap's 4 exchanges counted) while replay and rollout
    said 97: the count is the unit's steps, in the kit's word for them, everywhere."""
    text = trace("palace", seed=1, deal=17).text()
    assert "after 97 turns (101 actions with the swap's 4 exchanges)" in text.splitlines()[-1]
    page = replay("palace", seed=1, deal=17)
    assert len(page.data["steps"]) == 98 and page.data["length"] == "97 turns"
    with pytest.raises(UserError, match=r"ends at step 97 \(after 97 turns\), so there is no step 98"):
        rollout("palace", seed=1, deal=17, step=98, trials=10)


@pytest.mark.parametrize("game", ["enemy_anemone", "olenon", "spite_and_malice"])
def test_every_game_s_trace_ends_with_the_count_its_steps_have(game):
    config = RunConfig.build(game, deals=1, seed=1, rules=SMALL_MATCH[game])
    history, kit, _ = position_at(config, None)
    text = trace(game, seed=1, rules=SMALL_MATCH[game]).text()
    assert steps(kit, len(history) - 1) in text.split("Result")[-1], text.splitlines()[-3:]


def test_a_rollout_at_step_k_is_the_replay_s_step_k():
    """Step K is the position after K steps (0 the start) in both: the page showed a rollout of
    `--step 20` at its step 19."""
    r = rollout("palace", seed=1, step=19, trials=20)
    config = RunConfig.build("palace", deals=1, seed=1)
    history, kit, runner_ = position_at(config, None)
    from analyser.analyses.replay import _decision

    decisions = [_decision(p, kit, runner_) for p in history]
    assert list(rollout_values([r], config, decisions)) == [19]
    assert decisions[19]["seat"] == r.meta["seat"] == 0 and r.meta["steps"] == "19 turns"
    assert r.meta["position"][0] == "seat 0 (to move): hand 2H JH QS | face up 10C 10H AD | face down 3 cards"


def test_the_trace_s_hint_carries_the_whole_line_up():
    args = ["--seed", "1", "--deal", "3", "--players", "2", "--policy", "pickup:max_pile=5", "--policy", "lowest",
            "--rule", "short_game=on"]
    traced = runner.invoke(app, ["trace", "palace", *args])
    assert traced.exit_code == 0, traced.output
    hint = f"`analyser rollout palace {' '.join(args)} --list`"
    assert hint in traced.stdout
    listed = runner.invoke(app, ["rollout", "palace", *args, "--list", "--format", "csv"])
    first = listed.stdout.splitlines()[1].split(",")
    assert listed.exit_code == 0 and "the position after K turns: its decision makes turn K + 1" in traced.stdout
    line = next(t for t in traced.stdout.splitlines() if t.startswith(f"  {int(first[0]) + 1:>4}. seat {first[1]} "))
    assert "plays" in line or "picks up" in line


def test_a_rollout_prints_its_position_and_its_actions_in_words():
    r = runner.invoke(app, ["rollout", "palace", "--seed", "1", "--step", "19", "--trials", "20"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert "step 19 (after 19 turns): seat 0 to move" in out
    assert out.index("seat 0 (to move): hand 2H JH QS") < out.index("win %")
    assert "pile (top last): 4H 4S 6C 9C 5C 5D 5S" in out and "draw pile (top first): 1 card" in out
    assert "play one Queen" in out and "play one 2" in out and " x " not in out.split("win %")[1].split("*")[0]
    assert "The seat's policy chose 'play one Jack'" in out and "played play" not in out


def test_palace_actions_are_said_in_words():
    from analyser.games.palace.kit import PalaceKit

    kit = PalaceKit()
    assert [kit.action_text(a) for a in (0, 1, 48, 49, 50, 36, 39)] == [
        "play one 2", "play two 2s", "play one Ace", "play two Aces", "play three Aces", "play one Jack",
        "play four Jacks"]


def test_the_draw_pile_reads_top_first_as_the_trace_lists_it():
    page = replay("palace", seed=1, deal=17)
    d = page.data
    draw = d["places"].index("draw")
    assert d["labels"][draw] == "draw pile (top first)"
    dealt = trace("palace", seed=1, deal=17).events[0]["draw_pile"]
    shown = [d["cards"][str(c)] for c in d["views"]["all"]["snapshots"][0][draw]]
    assert shown == dealt[-len(shown):] and shown[0] == dealt[-len(shown)]     # the swap drew none: all of it
    assert len(shown) == len(dealt)


@pytest.mark.parametrize("game", ["palace", "enemy_anemone", "olenon", "spite_and_malice"])
def test_the_last_step_names_no_seat_to_move(game):
    config = RunConfig.build(game, deals=1, seed=1, rules=SMALL_MATCH.get(game))
    history, _, _ = position_at(config, None)
    view = game_view(config.game)
    last, before = view.status(history[-1])["info"], view.status(history[-2])["info"]
    assert " to play" in before or " to act" in before
    assert " to play" not in last and " to act" not in last, last


def test_counts_say_one_thing_in_the_singular():
    assert [counted(1, "legal action"), counted(2, "test"), counted(1, "pair"), counted(3, "match"),
            counted(1, "policy"), counted(4, "policy"), counted(1_000, "game")] == [
        "1 legal action", "2 tests", "1 pair", "3 matches", "1 policy", "4 policies", "1,000 games"]
