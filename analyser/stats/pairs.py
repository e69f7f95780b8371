"""Pairs of policies on common duplicate deals: what ``tournament(..., tables="pairs")`` keeps.

Per pair and deal, A's and B's mean win share and score over the pair's seat
arrangements (NaN where the deal was dropped), and per arrangement the sums of
the win share difference for the width independent deals would give;
:func:`pair_frame` reads them (the head-to-head cells with their paired
intervals), :func:`proportion_influence` gives the per-deal influence of a
pair's proportion a / (a + b) that the clustered Bradley-Terry sandwich uses.
Per pair and deal it also keeps the win share difference over the completed
arrangements (aborted ones as 0) and the count of aborted ones, for the bounds
over all deals (stats.paired.abort_bounds: every aborted play lost by the
pair's first policy, then won by it).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyser.stats.intervals import Z95, differences_ci, exact, floored_var, mean_ci, widest_stop_half_width
from analyser.stats.paired import (
    WIN_RANGE,
    abort_bounds,
    abort_values,
    aborted_plays,
    bound_cells,
    completed_mean,
    play_values,
)

SIDES = ("a_win", "b_win", "a_score", "b_score")     # per pair and deal: arrangement means, NaN if dropped
DONE = ("win_done", "aborted_plays")                 # per pair and deal: x over completed arrangements, aborted ones


@dataclass
class PairTally:
    """Per pair and deal: A's and B's mean win share and score over the arrangements (NaN where the deal was
    dropped), and per arrangement the sums of x[d, k] (win share difference) for the independent-deals width."""
    pairs: int
    arrangements: int
    deals: list = field(default_factory=list)   # blocks of deal indices (the same for every pair)
    values: list = None                          # per pair: blocks (deals, 4) of SIDES
    arr_sum: np.ndarray = None                   # (pairs, K): sums of x[d, k] over kept deals
    arr_sq: np.ndarray = None
    done: list = None                            # per pair: blocks (deals, 2) of DONE

    def __post_init__(self):
        p, k = self.pairs, self.arrangements
        self.values = self.values or [[] for _ in range(p)]
        self.done = self.done or [[] for _ in range(p)]
        self.arr_sum = np.zeros((p, k)) if self.arr_sum is None else np.asarray(self.arr_sum, float)
        self.arr_sq = np.zeros((p, k)) if self.arr_sq is None else np.asarray(self.arr_sq, float)

    def add(self, pair: int, deal_index: np.ndarray, plays: list[np.ndarray], a_seats: list, b_seats: list) -> None:
        cut = aborted_plays(plays)
        aborted = cut.any(axis=0)
        keep = ~aborted
        per = [play_values(rec, a, b) for rec, a, b in zip(plays, a_seats, b_seats, strict=True)]
        done = completed_mean(cut, [v["win_diff"] for v in per])
        self.done[pair].append(np.column_stack([done, cut.sum(axis=0)]))
        block = exact(np.column_stack([np.mean([v[key] for v in per], axis=0) for key in SIDES]))
        block[aborted] = np.nan
        if pair == 0:
            self.deals.append(np.asarray(deal_index, np.int64))
        self.values[pair].append(block)
        for k, v in enumerate(per):
            x = v["win_diff"][keep]
            self.arr_sum[pair, k] += x.sum()
            self.arr_sq[pair, k] += float(np.dot(x, x))

    def per_deal(self, pair: int) -> np.ndarray:
        """(deals, 4): SIDES per deal, NaN rows for dropped deals."""
        return np.concatenate(self.values[pair]) if self.values[pair] else np.zeros((0, len(SIDES)))

    def bounds(self, pair: int) -> dict:
        """abort_bounds of the pair's win share difference over every deal (aborted plays lost, then won)."""
        done = np.concatenate(self.done[pair]) if self.done[pair] else np.zeros((0, len(DONE)))
        share = done[:, 1] / self.arrangements
        return abort_bounds(*abort_values(done[:, 0], share, share, *WIN_RANGE), share > 0, 1.0)

    @property
    def deal_index(self) -> np.ndarray:
        return np.concatenate(self.deals) if self.deals else np.zeros(0, np.int64)

    @property
    def units(self) -> np.ndarray:
        return np.full(self.pairs, self.deal_index.size, np.int64)

    @property
    def dropped(self) -> np.ndarray:
        return np.array([int(np.isnan(self.per_deal(p)[:, 0]).sum()) for p in range(self.pairs)], np.int64)

    @property
    def kept(self) -> np.ndarray:
        return self.units - self.dropped

    def sides(self) -> tuple[np.ndarray, np.ndarray]:
        """Deals x pairs: A's and B's per-deal win share (NaN where dropped)."""
        per = [self.per_deal(p) for p in range(self.pairs)]
        return np.column_stack([v[:, 0] for v in per]), np.column_stack([v[:, 1] for v in per])

    def widest_half_width(self) -> float:
        """The Chow-Robbins half-width (intervals.stop_half_width) of the widest matrix cell."""
        return widest_stop_half_width(np.column_stack(self.sides()))

    def frame(self) -> pd.DataFrame:
        """One row per pair and deal: pair, deal and SIDES (NaN: dropped)."""
        deals = self.deal_index
        parts = [pd.DataFrame({"pair": np.int16(p), "deal": deals,
                               **dict(zip(SIDES, self.per_deal(p).T, strict=True)),
                               **dict(zip(DONE, (np.concatenate(self.done[p]) if self.done[p]
                                                 else np.zeros((0, len(DONE)))).T, strict=True))})
                 for p in range(self.pairs)]
        return pd.concat(parts, ignore_index=True)

    def state(self) -> dict:
        return {"pairs": self.pairs, "arrangements": self.arrangements, "arr_sum": self.arr_sum.tolist(),
                "arr_sq": self.arr_sq.tolist()}

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, state: dict) -> PairTally:
        """Inverse of :meth:`frame` and :meth:`state` (a results file read back)."""
        tally = cls(int(state["pairs"]), int(state["arrangements"]), arr_sum=state["arr_sum"], arr_sq=state["arr_sq"])
        frame = frame.sort_values(["pair", "deal"], kind="stable")
        for p in range(tally.pairs):
            part = frame[frame["pair"] == p]
            tally.values[p].append(part[list(SIDES)].to_numpy(float))
            dropped = np.isnan(tally.values[p][-1][:, 0])
            # a file written before the completed plays were kept: a dropped deal counts as aborted everywhere
            tally.done[p].append(part[list(DONE)].to_numpy(float) if set(DONE) <= set(part) else
                                 np.column_stack([np.where(dropped, 0.0, tally.values[p][-1][:, 0]
                                                           - tally.values[p][-1][:, 1]),
                                                  np.where(dropped, tally.arrangements, 0)]))
            if p == 0:
                tally.deals.append(part["deal"].to_numpy(np.int64))
        return tally


def pair_frame(tally: PairTally, pairs: list[tuple[str, str]], z: float = Z95, proven=()) -> pd.DataFrame:
    """One row per pair (a, b): the compare summary numbers (the differences' score intervals, differences_ci),
    ``identical`` (a - b was 0 on every deal), ``tie`` (an exact tie [0, 0]: identical, and (a, b) is in
    ``proven``, the pairs that are one policy by construction), the Bradley-Terry observation (a_part,
    effective_games), and the win share difference's bounds over all deals (stats.paired.BOUND_COLUMNS)."""
    proven = {tuple(p) for p in proven}
    k = tally.arrangements
    rows = []
    for p, (a, b) in enumerate(pairs):
        v = tally.per_deal(p)
        v = v[np.isfinite(v[:, 0])]
        n = v.shape[0]
        share = [_share(v[:, i], z) for i in (0, 1)]
        one = (a, b) in proven
        diff = differences_ci(v[:, 0] - v[:, 1], 1.0, z, one)
        scores = v[:, 2:4]
        score = differences_ci(v[:, 2] - v[:, 3], float(scores.max() - scores.min()) if n else None, z, one)
        with np.errstate(invalid="ignore", divide="ignore"):
            arr_mean = tally.arr_sum[p] / n
            arr_var = np.maximum((tally.arr_sq[p] - n * arr_mean ** 2) / (n - 1), 0)
            independent = z * np.sqrt(floored_var(arr_var.mean(), n * k) / (n * k))
            reduction = float("nan") if diff["identical"] or n < 2 else \
                float(floored_var(arr_var.mean(), n * k) / (n * k) / (diff["sd"] ** 2 / n))
        part, games = _observation(v[:, 0], v[:, 1], k)
        rows.append({"a": a, "b": b, "deals": n, "dropped": int(tally.dropped[p]),
                     "a_win_share": share[0][0], "a_ci_low": share[0][1], "a_ci_high": share[0][2],
                     "b_win_share": share[1][0], "b_ci_low": share[1][1], "b_ci_high": share[1][2],
                     "win_diff": diff["mean"], "ci_low": diff["low"], "ci_high": diff["high"],
                     "half_width": diff["half_width"], "independent_half_width": float(independent),
                     "variance_reduction": reduction, "score_diff": score["mean"], "score_ci_low": score["low"],
                     "score_ci_high": score["high"], "a_part": part, "effective_games": games, "tie": diff["tie"],
                     "identical": diff["identical"], "p_value": diff["p"], **bound_cells(tally.bounds(p))})
    return pd.DataFrame(rows)


def _share(values: np.ndarray, z: float) -> tuple[float, float, float]:
    """A win share's mean and effective-n Wilson interval over deals."""
    n = values.size
    mean = float(values.mean()) if n else float("nan")
    low, high = mean_ci(mean, float(values.var(ddof=1)) if n > 1 else float("nan"), n, z, bounds=(0.0, 1.0))
    return mean, low, high


def proportion_influence(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per deal, its contribution to p = mean(a) / (mean(a) + mean(b)) (the delta method's linearisation,
    divided by the deals; 0 where the deal was dropped)."""
    keep = np.isfinite(a) & np.isfinite(b)
    n = int(keep.sum())
    out = np.zeros(a.size)
    if n == 0:
        return out
    ma, mb = a[keep].mean(), b[keep].mean()
    total = ma + mb
    if total > 0:
        out[keep] = (mb * (a[keep] - ma) - ma * (b[keep] - mb)) / total ** 2 / n
    return out


def _observation(a: np.ndarray, b: np.ndarray, arrangements: int) -> tuple[float, float]:
    """The pair's Bradley-Terry observation: p = mean(a) / (mean(a) + mean(b)) and its effective number of
    games n_eff = p (1 - p) / var(p), at most the plays (deals x arrangements; also when var(p) is 0)."""
    n = a.size
    total = a.mean() + b.mean() if n else float("nan")
    p = float(a.mean() / total) if n and total > 0 else float("nan")
    plays = float(n * arrangements)
    g = proportion_influence(a, b) * n
    var_p = float(np.dot(g, g) / (n * (n - 1))) if n > 1 else float("nan")
    if not (np.isfinite(p) and np.isfinite(var_p)) or var_p <= 0:
        return p, plays
    return p, float(min(plays, p * (1 - p) / var_p))
