"""Paired (duplicate-deal) statistics on constructed records whose truth is known exactly."""
import numpy as np
import pytest

from analyser.analyses.compare import arrangements
from analyser.games.palace.records import RECORD_DTYPE
from analyser.stats.intervals import difference_ci, difference_sums, exact, mean_ci
from analyser.stats.paired import PairedTally, arrangement_frame, heterogeneity, kinds_of, summary_frame

SEATS, STREAMS, _ = arrangements(2)
A_SEATS = [[s.index("A")] for s in SEATS]
B_SEATS = [[s.index("B")] for s in SEATS]


def constructed(n, advantage, rng, deal_effect=0.4, abort_share=0.0):
    """Two-seat records of AB and BA on n deals: seat 0 wins with probability 0.5 + u[d] +- advantage
    (+ when A sits there), u[d] uniform in [-deal_effect, deal_effect] (the deal's favour for seat 0).
    A's expected win share difference is then exactly 2 * advantage, whatever the deal effect."""
    u = rng.uniform(-deal_effect, deal_effect, n)
    plays = []
    for seats in SEATS:
        p0 = 0.5 + u + (advantage if seats[0] == "A" else -advantage)
        first = rng.random(n) < p0
        rec = np.zeros(n, RECORD_DTYPE)
        rec["win"][:, 0], rec["win"][:, 1] = first, ~first
        rec["score"] = rec["win"]
        rec["aborted"] = rng.random(n) < abort_share
        plays.append(rec)
    return plays


def tally_of(plays, n):
    return PairedTally(len(SEATS)).add(np.arange(n), plays, A_SEATS, B_SEATS)


def win_intervals(tallies):
    """summary_frame's win share interval (differences_ci of the tally's per-deal values, span 1) of many
    tallies in one vectorized difference_ci call: one call a tally is 104 Python-level evaluations of
    Tango's statistic, most of this file's time."""
    n, pos, neg, sq = np.array([difference_sums(exact(t.values("win"))) for t in tallies]).T
    return difference_ci(n, pos, neg, sq, 1.0)


@pytest.mark.parametrize("advantage", [0.0, 0.05])
def test_paired_interval_covers_the_truth_at_about_95_percent(advantage):
    rng = np.random.default_rng(11)
    truth, reps = 2 * advantage, 300
    tallies = [tally_of(constructed(300, advantage, rng), 300) for _ in range(reps)]
    low, high = win_intervals(tallies)
    for t, lo, hi in list(zip(tallies, low, high, strict=True))[:10]:    # what summary_frame says, to the last digit
        row = summary_frame(t).iloc[0]
        assert (row["ci_low"], row["ci_high"]) == (lo, hi)
    covered = int(((low <= truth) & (truth <= high)).sum())
    assert 0.91 <= covered / reps <= 0.99, covered


def test_paired_beats_independent_when_deals_matter():
    rng = np.random.default_rng(3)
    row = summary_frame(tally_of(constructed(4000, 0.02, rng), 4000)).iloc[0]
    assert row["half_width"] < row["independent_half_width"]
    assert row["variance_reduction"] == pytest.approx((row["independent_half_width"] / row["half_width"]) ** 2,
                                                      rel=1e-3)      # Wilson's interval is nearly symmetric here
    assert row["variance_reduction"] > 1.2          # 1 / (1 - 4 var(u)) = 1.27 in expectation
    flat = summary_frame(tally_of(constructed(4000, 0.02, rng, deal_effect=0.0), 4000)).iloc[0]
    assert 0.87 < flat["variance_reduction"] < 1.15      # no deal effect: nothing to gain, nothing lost


def test_the_numbers_by_hand():
    rng = np.random.default_rng(5)
    plays = constructed(500, 0.03, rng, abort_share=0.02)
    t = tally_of(plays, 500)
    aborted = plays[0]["aborted"] | plays[1]["aborted"]
    x = np.stack([2.0 * p["win"][:, s.index("A")] - 1 for p, s in zip(plays, SEATS, strict=True)])
    keep = ~aborted
    a = x[:, keep].mean(axis=0)
    row = summary_frame(t).iloc[0]
    assert t.dropped == aborted.sum() and t.kept == keep.sum()
    assert row["estimate"] == pytest.approx(a.mean())
    low, high = difference_ci(a.size, a[a > 0].sum(), -a[a < 0].sum(), float(np.dot(a, a)), 1.0)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high))
    assert row["half_width"] == pytest.approx(max(a.mean() - low, high - a.mean()))
    var_k = x[:, keep].var(axis=1, ddof=1)
    low, high = mean_ci(a.mean(), var_k.mean(), 2 * a.size, bounds=(-1, 1))
    assert row["independent_half_width"] == pytest.approx(max(a.mean() - low, high - a.mean()))
    arr = arrangement_frame(t, SEATS, STREAMS)
    assert list(arr["seats"]) == ["AB", "BA"]
    assert arr["win_diff"].to_numpy() == pytest.approx(x[:, keep].mean(axis=1))


def test_chunks_add_up_to_the_whole():
    rng = np.random.default_rng(9)
    plays = constructed(1000, 0.01, rng, abort_share=0.01)
    whole = tally_of(plays, 1000)
    parts = PairedTally(2)
    for lo in range(0, 1000, 300):
        parts.add(np.arange(lo, min(lo + 300, 1000)), [p[lo: lo + 300] for p in plays], A_SEATS, B_SEATS)
    assert summary_frame(parts).equals(summary_frame(whole))
    back = PairedTally.from_frame(whole.frame(), whole.state())
    assert summary_frame(back).equals(summary_frame(whole))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_arrangements_are_balanced_and_keep_streams_apart(players):
    seats, streams, name = arrangements(players)
    assert len(seats) == (2 if players == 2 else 2 * players)
    assert name == ("rotations of AB" if players == 2 else
                    f"rotations of {'A' + 'B' * (players - 1)} and {'B' + 'A' * (players - 1)}")
    for s in range(players):     # each policy in every seat equally often
        assert sum(x[s] == "A" for x in seats) == sum(x[s] == "B" for x in seats)
    a_ids = {i for x, st in zip(seats, streams, strict=True) for c, i in zip(x, st, strict=True) if c == "A"}
    b_ids = {i for x, st in zip(seats, streams, strict=True) for c, i in zip(x, st, strict=True) if c == "B"}
    assert not a_ids & b_ids and max(a_ids | b_ids) < 15
    for x, st in zip(seats, streams, strict=True):  # a rotation moves each stream id with its instance
        base = 0 if seats.index(x) < players else players
        r = seats.index(x) - base
        assert all(st[(s + r) % players] == streams[base][s] for s in range(players))


def three_seat_plays(n, rng, lone_edge=0.0):
    """Three-seat records of compare's six arrangements on n deals: one winner per play, seat s winning with
    probability w[d, s] (a strong deal effect shared by every arrangement), shifted by ``lone_edge`` towards a
    policy that sits alone. With no edge A and B are the same policy, so every table's effect is 0."""
    seats, _, _ = arrangements(3)
    w = rng.dirichlet([0.5, 0.5, 0.5], n)
    plays = []
    for s in seats:
        lone = next(i for i, c in enumerate(s) if s.count(c) == 1)
        p = w.copy()
        p[:, lone] += lone_edge
        p /= p.sum(axis=1, keepdims=True)
        winner = (rng.random(n)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
        rec = np.zeros(n, RECORD_DTYPE)
        rec["win"][np.arange(n), winner] = 1
        rec["score"] = rec["win"]
        plays.append(rec)
    return seats, plays


def three_seat_tally(n, rng, lone_edge=0.0):
    seats, plays = three_seat_plays(n, rng, lone_edge)
    a = [[i for i, c in enumerate(s) if c == "A"] for s in seats]
    b = [[i for i, c in enumerate(s) if c == "B"] for s in seats]
    return PairedTally(len(seats), kinds_of(seats)).add(np.arange(n), plays, a, b)


def table_flags(tallies):
    """heterogeneity's flag of many tallies, its intervals in vectorized difference_ci calls (see
    win_intervals): the kinds' difference paired by deal (span 2) excludes 0, or their effects (span 1) lie on
    opposite sides of 0."""
    first, second = tallies[0].kinds

    def intervals(values, span):
        n, pos, neg, sq = np.array([difference_sums(exact(v)) for v in values]).T
        return difference_ci(n, pos, neg, sq, span)

    low, high = intervals([t.values("win", first) - t.values("win", second) for t in tallies], 2.0)
    (low_a, high_a), (low_b, high_b) = (intervals([t.values("win", k) for t in tallies], 1.0) for k in (first, second))
    opposite = ((low_a > 0) & (high_b < 0)) | ((low_b > 0) & (high_a < 0))
    return (low > 0) | (high < 0) | opposite


def test_the_tables_test_is_paired_by_deal_and_holds_its_level():
    """Null: A is B. The difference between the tables where A sits alone and where B does covers 0 in about
    95% of runs, though the kinds share every deal; a lone seat's edge is found, with opposite signs."""
    rng = np.random.default_rng(21)
    tallies = [three_seat_tally(300, rng) for _ in range(200)]
    flags = table_flags(tallies)
    for i, (t, flag) in enumerate(zip(tallies, flags, strict=True)):   # heterogeneity's own flag: where it
        if flag or i < 20:                                                # counts, and on the first 20
            assert heterogeneity(t)["flag"] == flag, i
    flagged = int(flags.sum())
    assert 2 <= flagged <= 20, flagged                       # 10 expected at a 5% level
    het = heterogeneity(three_seat_tally(2000, rng, lone_edge=0.3))
    assert het["flag"] and het["opposite"] and het["effects"][0]["estimate"] > 0 > het["effects"][1]["estimate"]
    two = PairedTally(2, kinds_of(SEATS))
    assert not heterogeneity(two)["tested"]
