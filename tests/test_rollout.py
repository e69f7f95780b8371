"""Position rollouts (analyser rollout): the best action known by construction comes first, the
trials extend and repeat, the intervals cover, bad positions get one line."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from analyser.analyses.rollout import position_at, rollout
from analyser.cli.main import app
from analyser.engine.config import RunConfig
from analyser.errors import UserError
from analyser.games.palace.constants import ACTION


def winning_position(players=2, seeds=range(300)):
    """(seed, step, action): a position where one play empties the seat's last cards (so it wins
    at once) while picking up the pile is also legal and the other seat is nearly out (so a
    pickup can lose)."""
    for seed in seeds:
        history, _, _ = position_at(RunConfig.build("palace", players=players, deals=1, seed=seed), None)
        for step, position in enumerate(history):
            decision = position.decision()
            if decision is None:
                continue
            seat, (pb, pv, legal) = decision
            if pb["face_up_len"][seat] or pb["face_down_len"][seat] or pb["draw_len"] or not legal[ACTION.PICKUP]:
                continue
            other = 1 - seat
            if pb["hand_len"][other] + pb["face_up_len"][other] + pb["face_down_len"][other] > 2:
                continue
            counts = pv["counts"]
            if np.count_nonzero(counts) == 1:
                rank = int(np.flatnonzero(counts)[0])
                action = rank * 4 + int(counts[rank]) - 1
                if legal[action]:
                    return seed, step, action
    raise AssertionError("no such position in the seeds searched")


def test_the_action_that_wins_at_once_is_ranked_first():
    seed, step, action = winning_position()
    r = rollout("palace", players=2, seed=seed, step=step, trials=200)
    assert r.table.iloc[0]["win"] == 1.0
    winner = r.table[r.table["id"] == action].iloc[0]
    assert winner["win"] == 1.0 and winner["win_se"] == 0 and winner["diff"] == 0
    pickup = r.table[r.table["id"] == ACTION.PICKUP].iloc[0]
    assert pickup["win"] < 1.0 and pickup["diff_ci_high"] < 0


def test_more_trials_extend_a_rollout_and_the_same_trial_repeats():
    few = rollout("palace", seed=1, step=19, trials=300)
    more = rollout("palace", seed=1, step=19, trials=2100)        # past one batch of worlds
    assert np.array_equal(more.wins[:300], few.wins)
    assert not np.array_equal(rollout("palace", seed=1, step=19, trials=300, rollout_seed=1).wins, few.wins)
    assert np.array_equal(rollout("palace", seed=1, step=19, trials=300, threads=1).wins, few.wins)


def test_actions_are_compared_on_common_worlds():
    """Two actions that are the same play (the same rank twice over the sorted legal list) cannot
    be told apart; here: an action's paired difference with itself is exactly zero, and the paired
    interval of close actions is narrower than the independent one on as many worlds (the difference is
    measured on the odd half of them)."""
    r = rollout("palace", seed=1, step=19, trials=600)
    best = r.table.iloc[0]
    assert best["diff"] == best["diff_ci_low"] == best["diff_ci_high"] == 0 and best["best"]
    second = r.table.iloc[1]
    assert second["diff_trials"] == 300
    independent = 1.96 * np.hypot(best["win_se"], second["win_se"]) * np.sqrt(600 / 300)
    assert (second["diff_ci_high"] - second["diff_ci_low"]) / 2 < independent


def test_the_intervals_cover_the_value_about_95_percent_of_the_time():
    """24 rollouts of 150 worlds (world seeds 0..23) of a 2-seat position with 7 actions near a half
    win share: 168 checks, nearly independent (the variance of a rollout's misses is 1.03 times the
    binomial one). Each rollout's truth is the pooled mean of the other 23 (3,450 worlds, independent
    of it; its own error adds 150 / 3,450 to the variance, so a 95% interval covers it about 94.5% of
    the time; the exact coverage of these intervals at 150 is 95.6%). Misses are about
    binomial(168, 0.05): 8.4, sd 2.8; coverage outside 0.88 .. 0.99 (21 misses or more, or 1 or
    none) has under 0.2% chance each side, while intervals 1.5 times too wide (0.45 misses expected)
    fail 92% of the time and 1.5 times too narrow (81% coverage, 32 misses) always."""
    runs = [rollout("palace", players=2, seed=1, step=4, trials=150, rollout_seed=s) for s in range(24)]
    wins = np.stack([r.wins for r in runs])                       # rollout, world, action
    total = wins.sum(axis=(0, 1))
    covered = checks = 0
    for r, w in zip(runs, wins, strict=True):
        truth = pd.Series((total - w.sum(axis=0)) / (wins.shape[1] * (len(runs) - 1)), index=r.actions)
        t = r.table.set_index("id")
        inside = (t["win_ci_low"] <= truth.loc[t.index]) & (truth.loc[t.index] <= t["win_ci_high"])
        covered += int(inside.sum())
        checks += len(t)
    assert checks == 168 and 0.88 <= covered / checks <= 0.99, covered / checks


runner = CliRunner()


@pytest.mark.parametrize("args, words", [
    (["--step", "5000"], "game 0 of seed 1 ends at step 84 (after 84 turns), so there is no step 5000"),
    (["--step", "19", "--seat", "2"], "seat 2 is not to move at step 19; seat 0 is"),
    (["--step", "19", "--seat", "7"], "the seat must be from 0 to 3, not 7"),
    (["--step", "-1"], "the step must be from 0"),
    (["--step", "19", "--trials", "0"], "the trials must be from 1"),
])
def test_bad_positions_get_one_line_and_exit_2(args, words):
    r = runner.invoke(app, ["rollout", "palace", "--seed", "1", *args])
    assert r.exit_code == 2 and words in r.output and r.output.count("\n") == 1, r.output


def test_a_forced_move_reports_one_action_and_the_end_is_refused():
    history, kit, _ = position_at(RunConfig.build("palace", players=4, deals=1, seed=1), None)
    forced = next(k for k, p in enumerate(history) if p.decision() is None and p.decision(forced=True))
    r = rollout("palace", seed=1, step=forced, trials=50)
    assert len(r.table) == 1 and r.table.iloc[0]["played"] and "forced move" in r.meta["forced"]
    cli = runner.invoke(app, ["rollout", "palace", "--seed", "1", "--step", str(forced), "--trials", "20"])
    assert cli.exit_code == 0 and "a forced move" in cli.output
    with pytest.raises(UserError, match="no seat is to move at step 84: the game is over"):
        rollout("palace", seed=1, step=len(history) - 1, trials=10)


def test_the_cli_prints_the_table_and_what_the_played_action_cost():
    r = runner.invoke(app, ["rollout", "palace", "--seed", "1", "--step", "19", "--trials", "300"])
    assert r.exit_code == 0, r.output
    assert "pick up the pile" in r.output and "played" in r.output
    assert "The seat's policy chose 'play one Jack'" in r.output


def test_the_stopping_rules_do_what_they_say():
    dropped = rollout("palace", seed=1, step=19, trials=2248, drop=True)          # a second batch of 200
    assert dropped.table.iloc[0]["dropped_at"] == 0 and dropped.table.iloc[0]["trials"] == 2248
    pickup = dropped.table[dropped.table["action"] == "pick up the pile"].iloc[0]
    assert pickup["dropped_at"] == 2048 and pickup["trials"] == 2048 and pickup["diff_ci_high"] < 0
    assert "3 standard errors" in dropped.meta["stopping"]
    precise = rollout("palace", seed=1, step=19, precision=0.02)
    half = 1.959963984540054 * precise.table["win_se"]
    assert (half <= 0.02).all() and precise.meta["trials"] % 2048 == 0
    assert "half-width of 0.02" in precise.meta["stopping"]
    top = rollout("palace", seed=1, step=19, trials=2148, top=2)
    assert (top.table["trials"] == 2148).sum() == 2 and (top.table["dropped_at"] == 2048).sum() == 2


def fake(wins: np.ndarray, played: int):
    """A RolloutResult of a made-up wins matrix (actions 0..k-1, ``played`` the played one)."""
    from analyser.analyses.rollout import RolloutResult

    k = wins.shape[1]
    table = pd.DataFrame({"id": np.arange(k), "action": [f"a{i}" for i in range(k)], "played": np.arange(k) == played})
    return RolloutResult(table, {}, wins.astype(float), np.arange(k))


def test_a_decisions_cost_is_not_inflated_by_picking_the_best_among_noisy_means():
    """Ten equal actions: the cost of playing any of them is zero. Picking the best and measuring it on the
    same worlds would report a cost of several points every time; measured on other worlds it averages 0."""
    from analyser.analyses.review import decision_cost

    rng = np.random.default_rng(5)
    costs = [decision_cost(fake(rng.random((400, 10)) < 0.5, played=3))["cost"] for _ in range(300)]
    assert abs(np.mean(costs)) < 3 * np.std(costs) / np.sqrt(len(costs))
    worse = rng.random((4000, 2)) < np.array([0.6, 0.5])
    c = decision_cost(fake(worse, played=1))
    assert c["best"] == "a0" and c["cost_ci_low"] < 0.1 < c["cost_ci_high"]
    same = np.repeat(rng.random((400, 1)) < 0.5, 2, axis=1)
    assert decision_cost(fake(same, played=1))["cost"] == 0


def test_a_review_rolls_out_each_decision_as_rollout_does():
    from analyser.analyses.review import review

    r = review("palace", seed=1, seat=0, trials=50)
    assert r.meta["decisions"] == len(r.table) == len(r.rollouts) > 3
    assert list(r.table["cost"]) == sorted(r.table["cost"], reverse=True)
    step = int(r.table.iloc[0]["step"])
    alone = rollout("palace", seed=1, step=step, trials=50)
    same_step, = (x for x in r.rollouts if x.meta["step"] == step)
    assert np.array_equal(same_step.wins, alone.wins)
    cli = runner.invoke(app, ["review", "palace", "--seed", "1", "--seat", "0", "--trials", "20"])
    assert cli.exit_code == 0 and "Mean cost per decision" in cli.output


def test_rollouts_and_reviews_are_results_files(tmp_path):
    from analyser.analyses.show import load

    r = rollout("palace", seed=1, step=19, trials=200)
    back = load(r.save(tmp_path / "r.parquet"))
    assert back.table.equals(r.table) and back.meta["step"] == 19 and back.wins is None
    shown = runner.invoke(app, ["show", str(tmp_path / "r.parquet")])
    assert shown.exit_code == 0 and "pick up the pile" in shown.output
    drawn = runner.invoke(app, ["plot", str(tmp_path / "r.parquet"), "--out", str(tmp_path / "r.png")])
    assert drawn.exit_code == 0 and (tmp_path / "r.png").stat().st_size > 1000
    cli = runner.invoke(app, ["review", "palace", "--seed", "1", "--seat", "0", "--trials", "20", "--out",
                              str(tmp_path / "v.parquet"), "--format", "json"])
    assert cli.exit_code == 0 and '"mean_cost"' in cli.stdout
    again = runner.invoke(app, ["show", str(tmp_path / "v.parquet")])
    assert again.exit_code == 0 and "Mean cost per decision" in again.output


def test_the_next_draw_is_spread_evenly_over_the_trials():
    """Each card the seat cannot place is the draw pile's top once in every block of as many trials."""
    from collections import Counter

    from analyser.analyses.rollout import first_draws, knowledge_of
    from analyser.games.worlds import WorldSampler

    history, kit, runner = position_at(RunConfig.build("palace", players=4, deals=1, seed=1), 19)
    _, _, knowledge = knowledge_of(history, 0, kit, runner)
    spread = first_draws(WorldSampler(history[-1], knowledge), kit, 0, 20)
    name, index, _ = spread(0)
    cards = [spread(t)[2] for t in range(3 * 52)]
    pool = len(set(cards))
    assert name == "draw" and index == history[-1].pub[0]["draw_len"] - 1
    for block in range(3):
        assert Counter(cards[block * pool: (block + 1) * pool]) == Counter(set(cards))
    assert cards[:pool] != cards[pool: 2 * pool]          # a new order each block


def test_the_list_gives_each_decisions_step_and_trace_points_to_it():
    from analyser.analyses.rollout import decisions

    frame = decisions("palace", seed=1)
    row = frame.set_index("step").loc[19]
    assert row["seat"] == 0 and row["choices"] == 4 and row["played"] == "play one Jack"
    listed = runner.invoke(app, ["rollout", "palace", "--seed", "1", "--list", "--format", "csv"])
    assert listed.exit_code == 0 and "19,0,4,play one Jack" in listed.stdout
    traced = runner.invoke(app, ["trace", "palace", "--seed", "1"])
    assert "analyser rollout palace --seed 1 --deal 0 --list" in traced.stdout
    assert "   20. seat 0 " in traced.stdout and "plays JH" in traced.stdout.split("   20. ")[1].splitlines()[0]


def test_open_cards_plays_the_true_position_and_says_it_overstates():
    honest = rollout("palace", seed=1, step=19, trials=200)
    seen = rollout("palace", seed=1, step=19, trials=200, open_cards=True)
    assert "OPEN CARDS" in seen.meta["sampler"] and "overstates" in seen.meta["sampler"]
    assert "OPEN CARDS" not in honest.meta["sampler"]
    assert seen.wins.std(axis=0).max() == 0        # saver draws nothing: the true position plays the same way
    cli = runner.invoke(app, ["rollout", "palace", "--seed", "1", "--step", "19", "--trials", "50", "--open-cards"])
    assert cli.exit_code == 0 and "OPEN CARDS" in cli.output


def test_aborted_play_outs_are_counted_as_lost_and_said():
    """Play-outs cut at the action cap count as no win for the seat, and above 1% a warning says so
    (in Python one a rollout, in the CLI one line for the command)."""
    from analyser.errors import AbortedUnits

    with pytest.warns(AbortedUnits, match="play-outs .* each counts as no win"):
        r = rollout("palace", seed=1, step=19, trials=50, rules={"max_actions": 60})
    assert (r.table["win"] == 0).all()
    result = runner.invoke(app, ["rollout", "palace", "--seed", "1", "--step", "19", "--trials", "50",
                                 "--rule", "max_actions=60"])
    assert result.exit_code == 0
    assert [line for line in result.stderr.splitlines() if line.startswith("warning:")] == [
        "warning: 200 of 200 play-outs (100.0%) aborted at the action cap; each counts as no win and no score "
        "for the seat"]


class _Kit:
    """Enough of a kit for the rollout table: an action's text."""

    @staticmethod
    def action_text(a: int) -> str:
        return f"a{a}"


def test_the_difference_from_the_best_is_not_biased_by_picking_the_best():
    """Twelve equal actions (fair coins over 300 worlds, 100 rollouts): every true difference is 0. Picking
    the best and measuring the differences from it on the same worlds gives about -5 points and covers 0 in
    84% of the rows (main's code); picked on the even worlds and measured on the odd, the rows average 0 and cover
    it about 95% of the time (1,100 rows; 0.93 .. 0.975 is about 3 binomial sd either side)."""
    from analyser.analyses.rollout import _table

    rng = np.random.default_rng(29)
    k, legal = 12, np.arange(12)
    diffs, covered = [], []
    for _ in range(100):
        wins = (rng.random((300, k)) < 0.5).astype(float)
        t = _table(wins, wins, legal, 0, _Kit, np.zeros(k, np.int64))
        assert t.iloc[0]["best"] and t["best"].sum() == 1 and t.iloc[0]["diff_ci_high"] == 0
        rest = t.iloc[1:]
        diffs += list(rest["diff"])
        covered += list((rest["diff_ci_low"] <= 0) & (0 <= rest["diff_ci_high"]))
    assert abs(np.mean(diffs)) < 3 * np.std(diffs) / np.sqrt(len(diffs) / 11)     # rows of a rollout correlate
    assert 0.93 <= np.mean(covered) <= 0.975


def test_top_and_drop_choose_on_the_even_worlds_only():
    """Action 0 wins every even world and action 1 every odd one and half of each even one (0.75 on all the
    worlds against 0.5, but 0.5 against 1 on the even ones): the odd worlds measure the differences, so
    ``top`` 1 and the pick judge on the even ones and keep action 0 (main kept action 1)."""
    from analyser.analyses.rollout import BATCH, Stopping, WorldPlay, _table

    wins = np.zeros((BATCH, 3))
    wins[0::2, 0], wins[0::2, 1], wins[1::2, 1] = 1.0, 0.5, 1.0
    play = object.__new__(WorldPlay)
    play.rule, play.done, play.wins, play.batches = Stopping.of(BATCH + 10, None, False, 1), BATCH, wins, 0
    play.legal, play.active, play.dropped_at = np.arange(3), np.ones(3, bool), np.zeros(3, np.int64)
    play.flush()
    assert play.active.tolist() == [True, False, False] and play.dropped_at.tolist() == [0, BATCH, BATCH]
    t = _table(wins, wins, np.arange(3), 0, _Kit, play.dropped_at)
    assert t.iloc[0]["action"] == "a0" and t.iloc[0]["best"]
