"""Paired (duplicate-deal) statistics for comparing two policies.

Every deal d is played once in each of K seat arrangements of policies A and B
(see analyser.comparison). For one play (deal d, arrangement k) and a per-seat
quantity q (win share or score):

    x[d, k] = mean of q over A's seats - mean of q over B's seats.

The paired estimate of A's advantage is the mean over deals of

    a[d] = mean over k of x[d, k],

with the normal 95% interval mean(a) +- z * sd(a) / sqrt(n) over the n deals:
one deal is one observation, however many times it was played.

The independent-deals interval is the one a run of the same size (n * K
plays, each arrangement n times) would have had with a fresh deal for every
play: its estimate is the same mean of the plays, and its variance
(1 / K^2) * sum_k var_k / n = mean_k(var_k) / (n * K), where var_k is the
variance of x[., k] over deals within arrangement k (seat effects, which the
balanced arrangements cancel in both designs, do not enter). The variance
reduction is (independent half-width / paired half-width)^2, i.e. how many
times as many independent deals the same precision would need.

A deal on which any arrangement aborted has no paired value: it is dropped
from every statistic here (paired and per arrangement alike) and counted.
Everything is kept as sums (per arrangement) and per-deal values, so chunks
add up to exactly the whole run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyser.stats.intervals import Z95

QUANTITIES = ("win", "score")
# per arrangement, over kept deals: A's and B's mean (over their seats) and the difference x
ARRANGEMENT_STATS = ("a_win", "b_win", "win_diff", "a_score", "b_score", "score_diff")


def play_values(rec: np.ndarray, a_seats, b_seats) -> dict[str, np.ndarray]:
    """Per record: A's and B's mean over their seats and x = A - B, for win share and score."""
    out = {}
    for q in QUANTITIES:
        v = rec[q]
        a = v[:, list(a_seats)].mean(axis=1)
        b = v[:, list(b_seats)].mean(axis=1)
        out[f"a_{q}"], out[f"b_{q}"], out[f"{q}_diff"] = a, b, a - b
    return out


@dataclass
class PairedTally:
    """Per-deal paired values and per-arrangement sums of a comparison run so far."""
    arrangements: int
    deals: list = field(default_factory=list)         # blocks of deal indices
    aborted: list = field(default_factory=list)       # blocks of bool: some arrangement aborted
    paired: dict = field(default_factory=lambda: {q: [] for q in QUANTITIES})   # blocks of a[d] (NaN if aborted)
    sums: dict = field(default_factory=dict)           # stat -> (K,) sums over kept deals
    squares: dict = field(default_factory=dict)

    def __post_init__(self):
        for s in ARRANGEMENT_STATS:
            self.sums.setdefault(s, np.zeros(self.arrangements))
            self.squares.setdefault(s, np.zeros(self.arrangements))

    def add(self, deal_index: np.ndarray, plays: list[np.ndarray], a_seats: list, b_seats: list) -> PairedTally:
        """One block of deals: ``plays[k]`` holds the records of arrangement k for exactly these deals."""
        aborted = np.zeros(deal_index.size, bool)
        for rec in plays:
            aborted |= rec["aborted"].astype(bool)
        keep = ~aborted
        per_arr = [play_values(rec, a, b) for rec, a, b in zip(plays, a_seats, b_seats, strict=True)]
        for s in ARRANGEMENT_STATS:
            for k, values in enumerate(per_arr):
                v = values[s][keep]
                self.sums[s][k] += v.sum()
                self.squares[s][k] += float(np.dot(v, v))
        for q in QUANTITIES:
            a = np.mean([values[f"{q}_diff"] for values in per_arr], axis=0)
            self.paired[q].append(np.where(keep, a, np.nan))
        self.deals.append(np.asarray(deal_index, np.int64))
        self.aborted.append(aborted)
        return self

    @property
    def units(self) -> int:
        return int(sum(b.size for b in self.deals))

    @property
    def dropped(self) -> int:
        return int(sum(int(b.sum()) for b in self.aborted))

    @property
    def kept(self) -> int:
        return self.units - self.dropped

    def values(self, q: str) -> np.ndarray:
        """a[d] of every deal played (NaN for a dropped deal)."""
        return _cat(self.paired[q], np.float64)

    def frame(self) -> pd.DataFrame:
        """One row per deal: deal, aborted (in some arrangement), win_diff, score_diff (a[d]; NaN if aborted)."""
        return pd.DataFrame({"deal": _cat(self.deals, np.int64), "aborted": _cat(self.aborted, bool),
                             "win_diff": self.values("win"), "score_diff": self.values("score")})

    def state(self) -> dict:
        """The per-arrangement sums as plain lists (a results file's metadata)."""
        return {"sums": {s: self.sums[s].tolist() for s in ARRANGEMENT_STATS},
                "squares": {s: self.squares[s].tolist() for s in ARRANGEMENT_STATS}}

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, state: dict) -> PairedTally:
        """Inverse of :meth:`frame` plus :meth:`state` (a results file read back)."""
        k = len(state["sums"]["win_diff"])
        t = cls(k, sums={s: np.asarray(state["sums"][s], float) for s in ARRANGEMENT_STATS},
                squares={s: np.asarray(state["squares"][s], float) for s in ARRANGEMENT_STATS})
        t.deals = [frame["deal"].to_numpy(np.int64)]
        t.aborted = [frame["aborted"].to_numpy(bool)]
        t.paired = {q: [frame[f"{q}_diff"].to_numpy(np.float64)] for q in QUANTITIES}
        return t

    def arrangement_var(self, s: str) -> np.ndarray:
        """Per arrangement: sample variance of stat ``s`` over kept deals."""
        n = self.kept
        if n < 2:
            return np.full(self.arrangements, np.nan)
        mean = self.sums[s] / n
        return np.maximum((self.squares[s] - n * mean * mean) / (n - 1), 0.0)


def _cat(blocks: list, dtype) -> np.ndarray:
    return np.concatenate(blocks) if blocks else np.zeros(0, dtype)


def mean_half_width(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """Mean, sample sd and normal-interval half-width of the finite values (NaN without two of them)."""
    v = values[np.isfinite(values)]
    if v.size < 2:
        return (float(v.mean()) if v.size else float("nan")), float("nan"), float("nan")
    sd = float(v.std(ddof=1))
    return float(v.mean()), sd, z * sd / np.sqrt(v.size)


def half_width(tally: PairedTally, q: str = "win") -> float:
    """Half-width of the paired interval of quantity ``q`` so far (what a precision target watches)."""
    return mean_half_width(tally.values(q))[2]


def summary_frame(tally: PairedTally, z: float = Z95) -> pd.DataFrame:
    """Rows: win share difference, score difference (A - B); paired estimate and interval,
    the independent-deals interval of a run of the same size, and the variance reduction.
    Win share intervals are clipped to [-1, 1]; half_width is the unclipped z * sd / sqrt(n)."""
    rows = []
    n, k = tally.kept, tally.arrangements
    for q, name in (("win", "win share difference"), ("score", "score difference")):
        mean, sd, half = mean_half_width(tally.values(q), z)
        var_k = tally.arrangement_var(f"{q}_diff")
        ind_half = z * float(np.sqrt(var_k.mean() / (n * k))) if n >= 2 else float("nan")
        reduction = (ind_half / half) ** 2 if half > 0 else (float("nan") if ind_half > 0 or n < 2 else 1.0)
        lo, hi = (-1.0, 1.0) if q == "win" else (-np.inf, np.inf)   # a share difference stays in [-1, 1]
        rows.append({"quantity": name, "estimate": mean, "ci_low": max(mean - half, lo),
                     "ci_high": min(mean + half, hi), "half_width": half, "sd_per_deal": sd,
                     "independent_ci_low": max(mean - ind_half, lo), "independent_ci_high": min(mean + ind_half, hi),
                     "independent_half_width": ind_half,
                     "variance_reduction": reduction, "deals": n, "plays": n * k})
    return pd.DataFrame(rows)


def arrangement_frame(tally: PairedTally, seats: list[str], streams: list[tuple]) -> pd.DataFrame:
    """One row per arrangement: its seats (``ABBB``), stream ids, and over kept deals A's and
    B's mean win share and score (each the mean over their seats) and the difference."""
    n = tally.kept
    means = {s: tally.sums[s] / n if n else np.full(tally.arrangements, np.nan) for s in ARRANGEMENT_STATS}
    return pd.DataFrame({"arrangement": np.arange(tally.arrangements), "seats": seats,
                         "streams": [",".join(map(str, s)) for s in streams], "deals": n,
                         "a_win_share": means["a_win"], "b_win_share": means["b_win"],
                         "win_diff": means["win_diff"], "a_score": means["a_score"],
                         "b_score": means["b_score"], "score_diff": means["score_diff"]})
