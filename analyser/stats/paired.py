"""Paired (duplicate-deal) statistics for comparing two policies.

Every deal d is played once in each of K seat arrangements of policies A and B
(see analyser.analyses.compare). For one play (deal d, arrangement k) and a per-seat
quantity q (win share or score):

    x[d, k] = mean of q over A's seats - mean of q over B's seats,

rounded by ``intervals.exact`` so that the float residues of means over seats
cannot pose as effects. The paired estimate of A's advantage is the mean over
deals of

    a[d] = mean over k of x[d, k]   (also exact),

one deal one observation, however many times it was played. Its interval is
``intervals.differences_ci``: Tango's score interval on the deals where a[d]
is not 0, within [-1, 1] for the win share difference and within the scores'
range for the score (the widest gap between two seats' scores in the run). An
exact tie (estimate 0, interval [0, 0]) needs A and B to be one policy by
construction (``tie=True``, from games.policy_specs.same_policy) and a[d] = 0
on every deal; a[d] = 0 on every deal alone is "played identically on all n
deals" (``identical``), with the interval of the deals not seen.

The independent-deals interval is the one a run of the same size (n * K
plays, each arrangement n times) would have had with a fresh deal for every
play: the same estimate, with variance mean_k(var_k) / (n * K), var_k the
variance of x[., k] over deals (seat effects, which the balanced arrangements
cancel in both designs, do not enter). The variance reduction is the ratio of
the two variances of the mean (the independent one floored, intervals.floored_var),
i.e. how many times as many independent deals the same precision would need;
none when no deal differed.

Tables: with 3+ seats (or 3+ teams) the arrangements come in two kinds, the
rotations of A B..B ("A alone") and of B A..A ("B alone": A is the majority).
A's advantage can depend on the table (each policy may exploit the other when
it sits alone), so per deal the mean of x over each kind is kept too, and
``heterogeneity`` tests the difference between the two kinds paired by deal
(the kinds share every deal, so a test treating them as independent, such as
Cochran's Q, would misstate it). With 2 seats (or 2 teams) every arrangement
is of one kind: the arrangements differ only in seats, whose effects they
cancel, so there is nothing to test.

Aborted plays: a deal on which any arrangement aborted has no paired value:
it is dropped from every statistic here (paired and per arrangement alike)
and counted. The headline is then over completed deals only, which flatters a
side whose worst deals loop to the cap; so the deal's completed plays and its
count of aborted plays are kept too, for the bounds of :func:`abort_bounds`
(Manski's worst-case bounds for missing outcomes): every aborted play counted
as lost by A (A's seats at the lowest value a seat can have, B's at the
highest: 0 and 1 for a win share, the game's ``score_bounds`` or else the
scores seen for a score) and as won by A, on all deals, each with its
``differences_ci`` interval. Whatever the aborted plays would have given, the
all-deals difference lies between the two; each interval is for its own
bound, so [lost's low, won's high] holds the all-deals difference with about
95% (Bonferroni: each misses outward with 2.5%, and the two misses all but
exclude each other; benchmarks/calibrate_aborts.py). The extremes are each
seat's own; they ignore that seats' shares add up (in Palace 4p three of four
seats win, so an ABBB play A wins has x = 1/3, not 1), so a bound can be
wider than any real outcome allows: conservative, never flattering either
side. Everything is kept as sums (per arrangement) and per-deal values, so
chunks add up to exactly the whole run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyser.errors import ABORT_LIMIT
from analyser.stats.intervals import (
    Z95,
    difference_ci,
    difference_sums,
    differences_ci,
    exact,
    floored_var,
    mean_ci,
    values_stop_half_width,
)

QUANTITIES = ("win", "score")
BOUNDS = {"win": (-1.0, 1.0), "score": None}      # a win share difference lies in [-1, 1]; a score need not
# per arrangement, over kept deals: A's and B's mean (over their seats) and the difference x
ARRANGEMENT_STATS = ("a_win", "b_win", "win_diff", "a_score", "b_score", "score_diff")
WIN_RANGE = (0.0, 1.0)     # the lowest and highest win share a seat can have
BOUND_COLUMNS = ("aborted_deals", "aborted_share", "aborts_lost", "aborts_lost_ci_low", "aborts_lost_ci_high",
                 "aborts_won", "aborts_won_ci_low", "aborts_won_ci_high")
KINDS = {"a_alone": "A alone", "b_alone": "B alone (A the majority)", "even": "A and B in equal numbers"}


def play_values(rec: np.ndarray, a_seats, b_seats) -> dict[str, np.ndarray]:
    """Per record: A's and B's mean over their seats and x = A - B, for win share and score (all exact)."""
    out = {}
    for q in QUANTITIES:
        v = rec[q]
        a = exact(v[:, list(a_seats)].mean(axis=1))
        b = exact(v[:, list(b_seats)].mean(axis=1))
        out[f"a_{q}"], out[f"b_{q}"], out[f"{q}_diff"] = a, b, exact(a - b)
    return out


def aborted_plays(plays: list[np.ndarray]) -> np.ndarray:
    """(arrangements, deals) bool: which play of each deal, in each arrangement, hit the action cap."""
    return np.array([rec["aborted"].astype(bool) for rec in plays]).reshape(len(plays), plays[0].size)


def completed_mean(cut: np.ndarray, values: list[np.ndarray]) -> np.ndarray:
    """Per deal, the mean over the arrangements of ``values[k]`` with the aborted plays (``cut``) as 0,
    exact: the ``done`` part that abort_values completes."""
    return exact(np.mean([np.where(c, 0.0, v) for c, v in zip(cut, values, strict=True)], axis=0))


def abort_values(done, a_missing, b_missing, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """Per deal, the difference A - B with every aborted play counted as lost by A and as won by A.
    ``done``: the difference with the aborted plays' terms left out (as 0); ``a_missing`` / ``b_missing``: the
    share of the deal's weight in A's / B's mean that aborted; low, high: the values a seat can have. Lost puts
    A's aborted part at ``low`` and B's at ``high``, won the other way round (both exact)."""
    done, am, bm = (np.asarray(x, dtype=float) for x in (done, a_missing, b_missing))
    return exact(done + am * low - bm * high), exact(done + am * high - bm * low)


def abort_bounds(lost, won, aborted, span: float, z: float = Z95, centre: float = 0.0) -> dict:
    """The bounds of a paired difference over all deals (see the module): ``lost`` and ``won`` per deal
    (abort_values), ``aborted`` which deals had an aborted play, ``span`` the largest |difference - centre|
    (the values are taken as differences from ``centre``). See bounds_from_sums."""
    aborted = np.asarray(aborted, dtype=bool)
    sums = [difference_sums(exact(np.asarray(v, dtype=float) - centre)) for v in (lost, won)]
    return bounds_from_sums(int(aborted.size), int(aborted.sum()), *sums, span, z, centre)


def bounds_from_sums(deals: int, aborted: int, lost, won, span: float, z: float = Z95, centre: float = 0.0) -> dict:
    """abort_bounds from each bound's intervals.difference_sums (what a tally that keeps sums holds): each
    bound is the mean over every deal with its difference_ci interval (never an exact tie: the aborted
    values are not known). ``shown``: more than ABORT_LIMIT of the deals aborted, the share a result prints
    them at. Without an aborted deal the bounds are the headline itself and left out (NaN)."""
    out = {"deals": deals, "aborted": aborted, "share": aborted / deals if deals else float("nan"),
           "shown": bool(aborted > ABORT_LIMIT * deals)}
    for name, (n, pos, neg, sq) in (("lost", lost), ("won", won)):
        low, high = difference_ci(n, pos, neg, sq, span, z) if aborted and n >= 2 else (float("nan"),) * 2
        mean = float(exact((pos - neg) / n)) if aborted and n else float("nan")
        out[name] = {"mean": centre + mean, "low": centre + low, "high": centre + high}
    return out


def bound_cells(bounds: dict) -> dict:
    """abort_bounds as a table's columns (BOUND_COLUMNS)."""
    lost, won = bounds["lost"], bounds["won"]
    return {"aborted_deals": bounds["aborted"], "aborted_share": bounds["share"],
            "aborts_lost": lost["mean"], "aborts_lost_ci_low": lost["low"], "aborts_lost_ci_high": lost["high"],
            "aborts_won": won["mean"], "aborts_won_ci_low": won["low"], "aborts_won_ci_high": won["high"]}


def arrangement_kind(seats: str) -> str:
    """``a_alone`` when A holds fewer seats than B (ABBB), ``b_alone`` when more (BAAA), else ``even``."""
    a, b = seats.count("A"), seats.count("B")
    return "a_alone" if a < b else "b_alone" if a > b else "even"


def kinds_of(seats: list[str]) -> dict[str, list[int]]:
    """Kind -> the indices of its arrangements, in the order the kinds first appear."""
    out: dict[str, list[int]] = {}
    for k, s in enumerate(seats):
        out.setdefault(arrangement_kind(s), []).append(k)
    return out


@dataclass
class PairedTally:
    """Per-deal paired values (overall and per kind of table) and per-arrangement sums of a comparison run so far.
    ``kinds``: kind -> arrangement indices (kinds_of); without it every arrangement is of one kind."""
    arrangements: int
    kinds: dict = None
    deals: list = field(default_factory=list)         # blocks of deal indices
    aborted: list = field(default_factory=list)       # blocks of bool: some arrangement aborted
    paired: dict = field(default_factory=dict)        # (q, kind or None) -> blocks of per-deal values (NaN: aborted)
    sums: dict = field(default_factory=dict)          # stat -> (K,) sums over kept deals
    squares: dict = field(default_factory=dict)
    score_range: list = field(default_factory=lambda: [np.inf, -np.inf])   # lowest, highest seat score kept
    score_bounds: tuple | None = None                 # the game's (lowest, highest) seat score, if it declares them
    missing: list = field(default_factory=list)       # blocks of int: arrangements that aborted, per deal
    done: dict = field(default_factory=dict)          # q -> blocks: mean over arrangements of x, aborted ones as 0

    def __post_init__(self):
        if self.kinds is None:
            self.kinds = {"even": list(range(self.arrangements))}
        for s in ARRANGEMENT_STATS:
            self.sums.setdefault(s, np.zeros(self.arrangements))
            self.squares.setdefault(s, np.zeros(self.arrangements))
        for key in self.columns():
            self.paired.setdefault(key, [])
        for q in QUANTITIES:
            self.done.setdefault(q, [])

    def columns(self) -> dict:
        """(q, kind) -> the deals frame's column: ``win_diff`` for every arrangement (kind None),
        ``win_diff_a_alone`` ... for each kind when there are two."""
        kinds = [None] + (list(self.kinds) if len(self.kinds) > 1 else [])
        return {(q, k): f"{q}_diff" + ("" if k is None else f"_{k}") for q in QUANTITIES for k in kinds}

    def add(self, deal_index: np.ndarray, plays: list[np.ndarray], a_seats: list, b_seats: list) -> PairedTally:
        """One block of deals: ``plays[k]`` holds the records of arrangement k for exactly these deals."""
        cut = aborted_plays(plays)
        aborted = cut.any(axis=0)
        keep = ~aborted
        per_arr = [play_values(rec, a, b) for rec, a, b in zip(plays, a_seats, b_seats, strict=True)]
        self.missing.append(cut.sum(axis=0).astype(np.int16))
        for q in QUANTITIES:
            self.done[q].append(completed_mean(cut, [v[f"{q}_diff"] for v in per_arr]))
        for rec, a, b in zip(plays, a_seats, b_seats, strict=True):
            scores = rec["score"][keep][:, list(a) + list(b)]
            if scores.size:
                self.score_range = [min(self.score_range[0], float(scores.min())),
                                    max(self.score_range[1], float(scores.max()))]
        for s in ARRANGEMENT_STATS:
            for k, values in enumerate(per_arr):
                v = values[s][keep]
                self.sums[s][k] += v.sum()
                self.squares[s][k] += float(np.dot(v, v))
        for (q, kind), _ in self.columns().items():
            members = range(self.arrangements) if kind is None else self.kinds[kind]
            a = exact(np.mean([per_arr[k][f"{q}_diff"] for k in members], axis=0))
            self.paired[q, kind].append(np.where(keep, a, np.nan))
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

    def values(self, q: str, kind: str | None = None) -> np.ndarray:
        """a[d] of every deal played (NaN for a dropped deal); with ``kind`` the mean over that kind's arrangements."""
        return _cat(self.paired[q, kind], np.float64)

    def frame(self) -> pd.DataFrame:
        """One row per deal: deal, aborted (in some arrangement), aborted_plays (how many arrangements), win_diff,
        score_diff (a[d]; NaN if aborted), with two kinds of table the same per kind (win_diff_a_alone, ...), and
        win_done, score_done (the mean of x over the arrangements, aborted ones as 0: what the bounds read)."""
        out = {"deal": _cat(self.deals, np.int64), "aborted": _cat(self.aborted, bool),
               "aborted_plays": _cat(self.missing, np.int16)}
        out.update({col: self.values(q, kind) for (q, kind), col in self.columns().items()})
        out.update({f"{q}_done": _cat(self.done[q], np.float64) for q in QUANTITIES})
        return pd.DataFrame(out)

    def value_range(self, q: str) -> tuple[float, float]:
        """The lowest and highest value a seat can have: a win share's, or the game's declared score bounds
        (else the lowest and highest score seen on kept deals; NaN before one)."""
        if q == "win":
            return WIN_RANGE
        low, high = self.score_bounds or self.score_range
        return (float(low), float(high)) if high >= low else (float("nan"), float("nan"))

    def bounds(self, q: str = "win", z: float = Z95) -> dict:
        """abort_bounds of A - B over every deal: each aborted play counted as lost by A, then as won."""
        low, high = self.value_range(q)
        share = _cat(self.missing, np.int16) / self.arrangements
        lost, won = abort_values(_cat(self.done[q], np.float64), share, share, low, high)
        return abort_bounds(lost, won, share > 0, high - low, z)

    def state(self) -> dict:
        """The per-arrangement sums, the kinds and the score range as plain lists (a results file's metadata)."""
        return {"sums": {s: self.sums[s].tolist() for s in ARRANGEMENT_STATS},
                "squares": {s: self.squares[s].tolist() for s in ARRANGEMENT_STATS}, "kinds": self.kinds,
                "score_range": [float(x) for x in self.score_range],
                "score_bounds": None if self.score_bounds is None else [float(x) for x in self.score_bounds]}

    def span(self, q: str) -> float:
        """The largest |a[d]| possible: 1 for the win share difference, the run's score range for the score
        (NaN before a kept deal, or for a results file written before the range was kept)."""
        if q == "win":
            return 1.0
        low, high = self.score_range
        return float(high - low) if high >= low else float("nan")

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, state: dict) -> PairedTally:
        """Inverse of :meth:`frame` plus :meth:`state` (a results file read back)."""
        k = len(state["sums"]["win_diff"])
        t = cls(k, state.get("kinds"), sums={s: np.asarray(state["sums"][s], float) for s in ARRANGEMENT_STATS},
                squares={s: np.asarray(state["squares"][s], float) for s in ARRANGEMENT_STATS},
                score_range=list(state.get("score_range", [np.inf, -np.inf])),
                score_bounds=state.get("score_bounds"))
        t.deals = [frame["deal"].to_numpy(np.int64)]
        t.aborted = [frame["aborted"].to_numpy(bool)]
        t.paired = {key: [frame[col].to_numpy(np.float64)] for key, col in t.columns().items()}
        # a file written before the completed plays were kept: a dropped deal counts as aborted in every arrangement
        t.missing = [frame["aborted_plays"].to_numpy(np.int16) if "aborted_plays" in frame
                     else np.where(t.aborted[0], k, 0).astype(np.int16)]
        t.done = {q: [frame[f"{q}_done"].to_numpy(np.float64) if f"{q}_done" in frame
                      else np.nan_to_num(t.paired[q, None][0], nan=0.0)] for q in QUANTITIES}
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


def stop_width(tally: PairedTally, q: str = "win") -> float:
    """The half-width a precision target watches (intervals.stop_half_width of a[d], Chow-Robbins)."""
    return values_stop_half_width(tally.values(q))


def summary_frame(tally: PairedTally, z: float = Z95, tie: bool = False) -> pd.DataFrame:
    """Rows: win share difference, score difference (A - B); paired estimate and interval (differences_ci;
    ``tie``: A and B are one policy by construction), ``tie`` (an exact tie: [0, 0]), ``identical`` (0 on
    every deal), the independent-deals interval of a run of the same size, and the variance reduction (None
    when no deal differed, or when neither design showed any spread). half_width is the larger side of the
    interval. BOUND_COLUMNS: the deals aborted in some arrangement, their share of all deals, and the bounds
    over all deals (abort_bounds: every aborted play lost by A, won by A; NaN when no deal aborted)."""
    rows = []
    n, k = tally.kept, tally.arrangements
    for q, name in (("win", "win share difference"), ("score", "score difference")):
        ci = differences_ci(tally.values(q), tally.span(q), z, tie)
        ind_var = float(tally.arrangement_var(f"{q}_diff").mean())
        ind_low, ind_high = mean_ci(ci["mean"], ind_var, n * k, z, BOUNDS[q], ci["tie"])
        ind_half = max(ci["mean"] - ind_low, ind_high - ci["mean"]) if n >= 2 else float("nan")
        floors_only = ind_var == 0 and ci["sd"] == 0          # both variances are the floor's: no ratio to tell
        reduction = float("nan") if ci["identical"] or n < 2 or floors_only else \
            float(floored_var(ind_var, n * k) / (n * k) / (ci["sd"] ** 2 / n))
        rows.append({"quantity": name, "estimate": ci["mean"], "ci_low": ci["low"], "ci_high": ci["high"],
                     "half_width": ci["half_width"], "tie": ci["tie"], "identical": ci["identical"],
                     "p_value": ci["p"], "sd_per_deal": ci["sd"],
                     "independent_ci_low": ind_low, "independent_ci_high": ind_high,
                     "independent_half_width": ind_half, "variance_reduction": reduction, "deals": n,
                     "plays": n * k, **bound_cells(tally.bounds(q, z))})
    return pd.DataFrame(rows)


def arrangement_frame(tally: PairedTally, seats: list[str], streams: list[tuple], z: float = Z95,
                      tie: bool = False) -> pd.DataFrame:
    """One row per arrangement: its seats (``ABBB``), kind (a_alone / b_alone / even), stream ids, and over
    kept deals A's and B's mean win share and score (each the mean over their seats) and the difference,
    the win share difference with its 95% interval (each arrangement alone, over deals; [0, 0] where A and B
    are one policy by construction, ``tie``, and x was 0 on every deal)."""
    n = tally.kept
    means = {s: exact(tally.sums[s] / n) if n else np.full(tally.arrangements, np.nan) for s in ARRANGEMENT_STATS}
    tie = tie & (tally.sums["win_diff"] == 0) & (tally.squares["win_diff"] == 0)
    low, high = mean_ci(means["win_diff"], tally.arrangement_var("win_diff"), np.full(tally.arrangements, n), z,
                        BOUNDS["win"], tie)
    return pd.DataFrame({"arrangement": np.arange(tally.arrangements), "seats": seats,
                         "kind": [arrangement_kind(s) for s in seats],
                         "streams": [",".join(map(str, s)) for s in streams], "deals": n,
                         "a_win_share": means["a_win"], "b_win_share": means["b_win"],
                         "win_diff": means["win_diff"], "win_diff_ci_low": low, "win_diff_ci_high": high,
                         "a_score": means["a_score"], "b_score": means["b_score"], "score_diff": means["score_diff"]})


def heterogeneity(tally: PairedTally, q: str = "win", z: float = Z95, tie: bool = False) -> dict:
    """Does A's advantage depend on the table? Per kind of table (A alone, B alone) the paired effect with
    its interval, and the difference between the kinds paired by deal (differences_ci of the per-deal
    difference and its score-test p-value; ``tie``: A and B are one policy by construction). ``flag``: the
    kinds' effects differ beyond their intervals (the difference's interval excludes 0); ``opposite``: their
    intervals lie on opposite sides of 0 (the kinds disagree in sign). With one kind of table ``tested`` is
    false."""
    if len(tally.kinds) < 2:
        return {"tested": False, "quantity": q, "flag": False, "opposite": False,
                "why": "every arrangement seats A and B in equal numbers: they differ only in seats, "
                       "whose effects they cancel"}
    span = tally.span(q)
    effects = []
    for kind in tally.kinds:
        ci = differences_ci(tally.values(q, kind), span, z, tie)
        effects.append({"kind": kind, "name": KINDS[kind], "estimate": ci["mean"], "ci_low": ci["low"],
                        "ci_high": ci["high"], "tie": ci["tie"], "identical": ci["identical"]})
    first, second = list(tally.kinds)
    diff = differences_ci(tally.values(q, first) - tally.values(q, second), 2 * span, z, tie)
    p = diff["p"]
    flag = bool(diff["low"] > 0 or diff["high"] < 0)
    opposite = any(e["ci_low"] > 0 for e in effects) and any(e["ci_high"] < 0 for e in effects)
    return {"tested": True, "quantity": q, "flag": flag or opposite, "opposite": opposite, "effects": effects,
            "difference": {"between": f"{first} - {second}", "estimate": diff["mean"], "ci_low": diff["low"],
                           "ci_high": diff["high"], "p_value": p, "tie": diff["tie"], "identical": diff["identical"]},
            "method": "per deal, the mean of x over each kind's arrangements; the kinds' difference paired by "
                      "deal (they share every deal), 95% score interval (Tango's, on the deals that differ)"}
