"""Tallies and tables: chunks merge into the whole, means are over completed
records, and seats of one policy (or team) pool per record."""
import numpy as np
import pytest
from scipy.stats import binomtest

import analyser
from analyser.games.palace.records import RECORD_DTYPE
from analyser.games.registry import get_game
from analyser.stats.intervals import mean_ci, wilson
from analyser.stats.summary import policy_table, run_figures, seat_table
from analyser.stats.tally import Tally

PALACE = get_game("palace")
LABELS = ["saver", "lowest", "saver", "random"]


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (512, 1000), (1, 1_000_000)])
def test_wilson_matches_scipy(k, n):
    low, high = wilson(k, n)
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert low == pytest.approx(ci.low, abs=1e-12) and high == pytest.approx(ci.high, abs=1e-12)


def fake_records(n, rng):
    """Palace-like records: a permutation of places, the last one loses; 5% aborted (no result)."""
    rec = np.zeros(n, RECORD_DTYPE)
    rec["unit"] = np.arange(n)
    for i in range(n):
        rec["rank"][i, :4] = rng.permutation(4) + 1
    rec["win"][:, :4] = rec["rank"][:, :4] < 4
    rec["score"] = rec["win"]
    rec["team"][:, :4] = np.arange(4)
    rec["length"] = rng.integers(20, 400, n)
    rec["burns"][:, :4] = rng.integers(0, 5, (n, 4))
    rec["turns"] = rec["length"] - 3
    aborted = rng.random(n) < 0.05
    rec["aborted"] = aborted
    rec["length"][aborted] = 5000
    for name in ("rank", "win", "score"):
        rec[name][aborted] = 0
    return rec


def tally(rec=None):
    t = Tally.for_run(PALACE, 4, LABELS)
    return t.add(rec) if rec is not None else t


def test_tallies_of_chunks_merge_into_the_whole():
    rng = np.random.default_rng(0)
    rec = fake_records(1000, rng)
    whole = tally(rec)
    parts = tally()
    for lo in range(0, 1000, 137):
        parts.merge(tally(rec[lo: lo + 137]))
    done = rec[~rec["aborted"]]
    assert parts.completed == whole.completed == done.size and parts.aborted == rec["aborted"].sum()
    for key in whole.sums:
        assert np.allclose(parts.sums[key], whole.sums[key]) and np.allclose(parts.squares[key], whole.squares[key])
    assert np.array_equal(parts.length_hist, whole.length_hist)
    assert np.array_equal(parts.sums["seat", "burns"], done["burns"][:, :4].sum(axis=0))
    assert parts.unit_sums["turns"] == done["turns"].sum()
    for q in (0.5, 0.95):
        assert parts.length_quantile(q) == np.quantile(done["length"], q, method="lower")


def test_per_game_means_are_over_completed_records():
    rng = np.random.default_rng(1)
    rec = fake_records(800, rng)
    done = rec[~rec["aborted"]]
    figures = run_figures(tally(rec))
    assert figures["aborted"] == rec.size - done.size > 0
    assert figures["length_mean"] == pytest.approx(done["length"].mean())
    assert figures["turns_mean"] == pytest.approx(done["turns"].mean())
    assert figures["aborted_length_mean"] == 5000
    table = seat_table(tally(rec), LABELS)
    assert np.allclose(table["win_rate"], (done["rank"][:, :4] < 4).mean(axis=0))
    assert np.allclose(table["mean_rank"], done["rank"][:, :4].mean(axis=0))
    assert np.allclose(table["burns_per_game"], done["burns"][:, :4].mean(axis=0))


def test_a_policys_seats_pool_per_record():
    """Seats 0 and 2 (both saver) count once per record, as their mean."""
    rng = np.random.default_rng(2)
    rec = fake_records(600, rng)
    done = rec[~rec["aborted"]]
    table = policy_table(tally(rec), LABELS)
    assert list(table["policy"]) == ["saver", "lowest", "random"] and list(table["seats"]) == ["0,2", "1", "3"]
    pooled = done["win"][:, [0, 2]].mean(axis=1)
    assert table.loc[0, "win_rate"] == pytest.approx(pooled.mean())
    assert table.loc[0, "games"] == done.size          # records, not seats
    low, high = mean_ci(pooled.mean(), pooled.var(ddof=1), done.size, bounds=(0, 1))   # floored, within [0, 1]
    assert (table.loc[0, "win_ci_low"], table.loc[0, "win_ci_high"]) == pytest.approx((low, high))
    single = seat_table(tally(rec), LABELS)
    assert table.loc[1, "win_ci_low"] == single.loc[1, "win_ci_low"]     # one seat: its Wilson interval


def test_four_seats_of_one_policy_win_three_quarters_with_no_interval():
    """Every completed Palace game has three winners among four saver seats: 75%,
    an exact number, not 75.00% (74.90%-75.09%) as if 4n seats were independent."""
    r = analyser.simulate("palace", players=4, policies=["saver"], deals=300, seed=3)
    row = r.by_policy.iloc[0]
    assert len(r.by_policy) == 1 and row["games"] == r.tally.completed > 0
    assert row["win_rate"] == row["win_ci_low"] == row["win_ci_high"] == 0.75
    assert row["score_mean"] == row["score_ci_low"] == row["score_ci_high"] == 0.75
    assert r.summary["win_ci_low"].lt(r.summary["win_rate"]).all()      # each seat alone has an interval


@pytest.mark.parametrize("n", [997, 1000, 4099, 65_537])
def test_a_share_fixed_by_the_game_has_no_width_whatever_the_rounding(n):
    """Three seats of one policy share one loss in every 3-player Palace game: the group's loser
    rate is 1/3 and its win share 2/3, exactly, in every record. Their sums are rounded (n/3 and
    n/9 are not floats), so an exact zero variance cannot be asked; the interval must still be
    [mean, mean] rather than a width made of rounding."""
    rng = np.random.default_rng(n)
    rec = np.zeros(n, RECORD_DTYPE)
    loser = rng.integers(0, 3, n)
    rec["rank"][:, :3] = 1
    rec["rank"][np.arange(n), loser] = 3
    rec["win"][:, :3] = rec["rank"][:, :3] < 3
    rec["score"] = rec["win"]
    rec["length"] = 50
    t = Tally.for_run(PALACE, 3, ["saver"] * 3).add(rec)
    row = policy_table(t, ["saver"] * 3).iloc[0]
    for name, share in (("loser", 1 / 3), ("win", 2 / 3)):
        assert row[f"{name}_ci_low"] == row[f"{name}_ci_high"] == pytest.approx(share, abs=1e-12), name
