"""The bounds over all deals when some plays aborted (stats.paired.abort_bounds), checked against a
hand computation on four deals in every place that keeps them: compare's PairedTally, the tournament's
PairTally and OrderTally, sweep's Plays and vary's EffectTally.

The four deals of two seats, AB then BA (x = A's win share - B's, per arrangement):
  deal 0: AB  A wins (x = +1);  BA  A wins (x = +1)     -> a = 1, completed
  deal 1: AB  B wins (x = -1);  BA  aborted             -> dropped
  deal 2: AB  aborted;          BA  aborted             -> dropped
  deal 3: AB  B wins (x = -1);  BA  A wins (x = +1)     -> a = 0, completed
Headline over the completed deals: (1 + 0) / 2 = +0.5.
All aborts lost by A (x = -1 for an aborted play): 1, (-1 - 1)/2, (-1 - 1)/2, 0 -> mean -1/4.
All aborts won by A (x = +1):                       1, (-1 + 1)/2, (1 + 1)/2, 0  -> mean +1/2.
"""
import numpy as np
import pandas as pd
import pytest

from analyser.kernels.outcome import outcome_fields
from analyser.stats.effects import EffectTally, effect_table
from analyser.stats.intervals import differences_ci
from analyser.stats.orders import OrderTally
from analyser.stats.paired import PairedTally, abort_bounds, summary_frame
from analyser.stats.pairs import PairTally, pair_frame

DTYPE = np.dtype(outcome_fields(2))
LOST, WON = [1.0, -1.0, -1.0, 0.0], [1.0, 0.0, 1.0, 0.0]


def records(wins, aborted):
    """Records of one arrangement: seat 0's win share per deal (seat 1 gets the rest), aborted flags."""
    rec = np.zeros(len(wins), DTYPE)
    rec["win"][:, 0] = wins
    rec["win"][:, 1] = 1 - np.asarray(wins)
    rec["score"] = rec["win"]
    rec["rank"] = np.where(rec["win"] > 0.5, 1, 2)
    rec["aborted"] = aborted
    rec["win"][rec["aborted"]] = 0.0          # what an aborted record carries must not matter: the bounds set it
    rec["score"][rec["aborted"]] = 0.0
    return rec


AB = records([1, 0, 0, 0], [False, False, True, False])     # seat 0 is A
BA = records([0, 0, 0, 0], [False, True, True, False])      # seat 1 is A: A wins deal 0 and deal 3


def paired(score_bounds=None):
    t = PairedTally(2, score_bounds=score_bounds)
    return t.add(np.arange(4), [AB, BA], [[0], [1]], [[1], [0]])


def test_compare_bounds_match_the_hand_computation():
    t = paired()
    row = summary_frame(t).set_index("quantity").loc["win share difference"]
    assert row["estimate"] == 0.5 and row["deals"] == 2
    assert row["aborted_deals"] == 2 and row["aborted_share"] == 0.5
    assert row["aborts_lost"] == -0.25 and row["aborts_won"] == 0.5
    for side, values in (("lost", LOST), ("won", WON)):
        ci = differences_ci(values, 1.0)
        assert (row[f"aborts_{side}_ci_low"], row[f"aborts_{side}_ci_high"]) == pytest.approx((ci["low"], ci["high"]))
        assert row[f"aborts_{side}_ci_low"] < row[f"aborts_{side}"] < row[f"aborts_{side}_ci_high"]


def test_score_bounds_use_the_games_declared_range():
    # scores of seats in [-2, 3]: an aborted play is x = -5 (lost) or +5 (won)
    row = summary_frame(paired((-2.0, 3.0))).set_index("quantity").loc["score difference"]
    assert row["aborts_lost"] == (1 + (-1 - 5) / 2 - 5 + 0) / 4        # -1.75
    assert row["aborts_won"] == (1 + (-1 + 5) / 2 + 5 + 0) / 4         # +2.0


def test_bounds_survive_a_results_file():
    t = paired()
    back = PairedTally.from_frame(t.frame(), t.state())
    assert back.bounds("win") == t.bounds("win")


def test_no_aborted_deal_no_bounds_and_few_not_shown():
    b = abort_bounds([0.0, 1.0], [0.0, 1.0], [False, False], 1.0)
    assert b["aborted"] == 0 and np.isnan(b["lost"]["mean"]) and not b["shown"]
    few = abort_bounds(np.zeros(200), np.r_[np.zeros(199), 1.0], np.r_[np.zeros(199, bool), True], 1.0)
    assert few["aborted"] == 1 and not few["shown"]            # 0.5% of the deals: below ABORT_LIMIT
    more = abort_bounds(np.zeros(200), np.r_[np.zeros(197), np.ones(3)], np.r_[np.zeros(197, bool), [True] * 3], 1.0)
    assert more["shown"] and more["won"]["mean"] == 0.015


def test_tournament_pair_bounds_match():
    t = PairTally(1, 2)
    t.add(0, np.arange(4), [AB, BA], [[0], [1]], [[1], [0]])
    row = pair_frame(t, [("a", "b")]).iloc[0]
    assert row["win_diff"] == 0.5 and row["aborts_lost"] == -0.25 and row["aborts_won"] == 0.5
    back = PairTally.from_frame(t.frame(), t.state())
    assert pair_frame(back, [("a", "b")]).iloc[0]["aborts_lost"] == -0.25


def test_mixed_tables_bounds_match():
    # one table of policies 0 and 1, rotations AB / BA as above; x = 1 when policy 0 finishes above
    t = OrderTally([(0, 1)], 2)
    t.add(0, np.arange(4), [AB, BA], [[0, 1], [1, 0]])
    row = t.pair_frame(["a", "b"]).iloc[0]
    # completed: deal 0 (above twice: 1), deal 3 (below, above: 1/2) -> 3/4;
    # deal 1: AB below (0), BA aborted -> lost (0 + 0) / 2 = 0, won (0 + 1) / 2 = 1/2; deal 2: lost 0, won 1
    assert row["a_above_share"] == 0.75
    assert row["aborts_lost"] == (1 + 0 + 0 + 0.5) / 4 and row["aborts_won"] == (1 + 0.5 + 1 + 0.5) / 4


def test_sweep_bounds_match():
    from analyser.analyses.sweep_plays import Plays, setting_row

    # one arrangement, the swept seat 0; value v: win, aborted, 0, win; baseline: 0, win, aborted, aborted
    v = Plays.of([records([1, 0, 0, 1], [False, True, False, False])], [0], 2)
    b = Plays.of([records([0, 1, 0, 0], [False, False, True, True])], [0], 2)
    row = setting_row(v, b)
    # lost: v's aborted plays at 0, the baseline's at 1: 1 - 0, 0 - 1, 0 - 1, 1 - 1 -> -1/4
    # won: v's at 1, the baseline's at 0: 1, 1 - 1, 0 - 0, 1 - 0 -> +1/2
    assert row["win_diff"] == 1.0 and row["aborts_lost"] == -0.25 and row["aborts_won"] == 0.5
    assert setting_row(v, v, True)["aborts_lost"] is None      # the baseline against itself: 0 by construction


def test_vary_bounds_match():
    t = EffectTally(2, [("seat 0", (0,)), ("seat 1", (1,))])
    t.add([records([0, 1, 0, 0], [False, False, True, True]), records([1, 0, 0, 1], [False, True, False, False])])
    table = effect_table(t, ["x", "x"], ["off", "on"]).set_index(["value", "group"])
    row = table.loc[("on", "seat 0")]
    assert row["aborts_lost"] == -0.25 and row["aborts_won"] == 0.5 and row["aborted_deals"] == 3
    assert np.isnan(table.loc[("off", "seat 0"), "aborts_lost"])
    ci = differences_ci([1.0, -1.0, -1.0, 0.0], 1.0)
    assert (row["aborts_lost_ci_low"], row["aborts_lost_ci_high"]) == pytest.approx((ci["low"], ci["high"]))
    assert isinstance(table, pd.DataFrame)


def test_a_file_written_before_the_bounds_counts_a_dropped_deal_as_aborted_everywhere():
    # deal 1 then has both arrangements imputed: lost (1 - 1 - 1 + 0) / 4, won (1 + 1 + 1 + 0) / 4
    t = paired()
    state = {k: v for k, v in t.state().items() if k != "score_bounds"}
    old = PairedTally.from_frame(t.frame().drop(columns=["aborted_plays", "win_done", "score_done"]), state)
    b = old.bounds("win")
    assert b["aborted"] == 2 and b["lost"]["mean"] == -0.25 and b["won"]["mean"] == 0.75
