"""A race of candidate settings on paired stages of deals: F-Race (Birattari et al. 2002) with paired
score tests and Holm's step-down control in place of Friedman's test.

Every alive candidate plays the same deals of each stage. After each stage the candidate with the
highest mean so far leads; every other alive candidate's per-deal difference from the leader gets the
paired score test of analyser.stats.intervals (Tango's interval, McNemar's z on the effective counts),
the p-values of the candidates below the leader are Holm-adjusted, and those under ``alpha / stages``
are eliminated: Bonferroni over the looks, so over the whole race the chance that a candidate as good
as the leader is eliminated at all stays under ``alpha`` (repeated looks at 5% each would eliminate
far more often).

The incumbent (a policy's defaults) stays unless beaten: when it survives the race it wins, however
good another survivor looks; when it was eliminated, the best survivor wins. The challenger is the
best non-incumbent candidate, the one a user would have switched to: the survivor with the highest
mean, or, if none survived, the one eliminated last with the highest mean.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analyser.stats.intervals import difference_p, difference_sums, exact
from analyser.stats.multiple import holm


def paired_p(d: np.ndarray) -> float:
    """The two-sided paired score test of intervals.differences_ci at 0 on the finite per-deal differences
    (its interval is not needed here); NaN below two deals."""
    v = exact(d)
    n, pos, neg, sq = difference_sums(v[np.isfinite(v)])
    return difference_p(pos, neg, sq) if n > 1 else float("nan")


def race(play: Callable[[int, list[int]], np.ndarray], candidates: int, stages: int, incumbent: int = 0,
         alpha: float = 0.05) -> dict:
    """Race ``candidates`` over ``stages``; ``play(stage, alive)`` gives an array (len(alive), deals) of each
    alive candidate's per-deal values on that stage's deals (NaN: the deal does not count for it).

    Returns ``winner``, ``challenger`` (None with one candidate), ``kept`` (the incumbent won), ``stages``
    and per candidate ``out`` (the stage after which it was eliminated, None if it survived), ``p_holm``
    (its adjusted p-value at elimination, or at the last look), ``deals`` and ``values`` (its per-deal values)."""
    if not 0 <= incumbent < candidates:
        raise ValueError("the incumbent must be one of the candidates")
    values: list[list[np.ndarray]] = [[] for _ in range(candidates)]
    out: list[int | None] = [None] * candidates
    p_last = np.full(candidates, np.nan)
    alive = list(range(candidates))
    level = alpha / stages
    for stage in range(stages):
        if len(alive) == 1:
            break
        block = np.asarray(play(stage, list(alive)), dtype=float)
        for row, c in zip(block, alive, strict=True):
            values[c].append(row)
        joined = {c: np.concatenate(values[c]) for c in alive}
        means = np.array([np.nanmean(joined[c]) if np.isfinite(joined[c]).any() else -np.inf for c in alive])
        lead = alive[int(np.argmax(means))]
        others = [c for c in alive if c != lead]
        p = np.array([paired_p(joined[c] - joined[lead]) for c in others])
        adjusted = holm(p)
        for c, q in zip(others, adjusted, strict=True):
            p_last[c] = q
            if np.isfinite(q) and q < level:
                out[c] = stage
        alive = [c for c in alive if out[c] is None]
    final = {c: np.concatenate(values[c]) if values[c] else np.array([]) for c in range(candidates)}
    mean = np.array([np.nanmean(v) if np.isfinite(v).any() else -np.inf for v in final.values()])
    survivors = [c for c in range(candidates) if out[c] is None]
    best = max(survivors, key=lambda c: (mean[c], -c))
    winner = incumbent if out[incumbent] is None else best
    rivals = [c for c in range(candidates) if c != incumbent]
    reached = {c: stages if out[c] is None else out[c] for c in rivals}
    challenger = max(rivals, key=lambda c: (reached[c], mean[c], -c)) if rivals else None
    return {"winner": winner, "challenger": challenger, "kept": winner == incumbent, "stages": stages,
            "level": level, "out": out, "p_holm": p_last.tolist(), "deals": [int(v.size) for v in final.values()],
            "values": list(final.values())}
