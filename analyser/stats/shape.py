"""The shape of a game: how long its units run, how they end, and how the result unfolds.

Per unit, from ``probs`` (steps x groups: each seat's or team's estimated chance to be *the one*,
the winner, or in a game whose win is "not being the loser" the loser, at evenly spaced steps of
the unit, the first at its start, the last at its end) and the eventual one, ``winner``:

- the **leader** at a step is the group with the highest chance, none when the top two are within
  TIE (a tie keeps the last leader: a walk back to level is no change);
- **lead changes**: how many times the leader changes;
- **comeback**: the half-time leader (the step halfway through) was not the eventual one (NaN when
  nobody leads at half time); with two sides, the side behind at half time won;
- the **decisive point**: the first step after which the eventual one's chance stays above
  DECISIVE (0.9), as a share of the unit (0: decided at the deal; 1: only at the very end);
- **drama**: the mean over the steps of how far the eventual one's chance is below the leader's
  (Browne's drama: 0 when the eventual one always leads).

Over units (the unit of observation, as everywhere: ARCHITECTURE.md), each mean gets its 95%
interval from the per-unit values (intervals.values_ci; Wilson for the comeback rate). Unit
lengths get their quantiles with distribution-free intervals (order statistics of the binomial),
the ways units end their shares with Wilson intervals, and an equilibrium mix its support and
entropy. No simulation here: analyser.analyses.shape walks the units and fits the estimate.
"""
from __future__ import annotations

import math

import numpy as np

from analyser.stats.intervals import Z95, exact, values_ci, wilson

TIE = 1e-9
DECISIVE = 0.9
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
SUPPORT = 0.005          # an equilibrium weight below this is out of the mix (the verdicts' threshold)


def leaders(probs: np.ndarray, tie: float = TIE) -> np.ndarray:
    """The leading group at each step, -1 where the top two are within ``tie``."""
    p = np.asarray(probs, float)
    if p.shape[1] < 2:
        return np.zeros(p.shape[0], np.intp)
    top = np.argmax(p, axis=1)
    two = np.sort(p, axis=1)[:, -2:]
    return np.where(two[:, 1] - two[:, 0] > tie, top, -1)


def lead_changes(probs: np.ndarray) -> int:
    """Changes of leader over the steps (a tie is no leader and keeps the last one)."""
    lead = leaders(probs)
    lead = lead[lead >= 0]
    return int(np.count_nonzero(lead[1:] != lead[:-1]))


def _at(probs, at) -> np.ndarray:
    """Each row's share of the unit: ``at`` as given, else evenly spaced from 0 to 1."""
    n = len(probs)
    return np.asarray(at, float) if at is not None else np.arange(n) / max(n - 1, 1)


def comeback(probs: np.ndarray, winner: int, at=None) -> float:
    """1.0 when the half-time leader (at the row nearest halfway, ``at`` each row's share of the unit)
    was not the eventual one, 0.0 when it was, NaN with no half-time leader."""
    lead = leaders(probs)[int(np.argmin(np.abs(_at(probs, at) - 0.5)))]
    return math.nan if lead < 0 else float(lead != winner)


def decisive_point(probs: np.ndarray, winner: int, threshold: float = DECISIVE, at=None) -> float:
    """The share of the unit after which the eventual one's chance stays above ``threshold``
    (``at``: each row's share of the unit; by default evenly spaced, row i of n at i / (n - 1));
    1.0 when its chance is not above it at the end."""
    p = np.asarray(probs, float)[:, winner]
    below = np.flatnonzero(p <= threshold)
    first = 0 if below.size == 0 else int(below[-1]) + 1
    return 1.0 if first >= p.size else float(_at(probs, at)[first])


def drama(probs: np.ndarray, winner: int) -> float:
    """The mean shortfall of the eventual one's chance below the leader's, over the steps."""
    p = np.asarray(probs, float)
    return float(np.mean(p.max(axis=1) - p[:, winner]))


def unit_shape(probs: np.ndarray, winner: int, at=None) -> dict:
    """The four measures of one unit (``at``: each row's share of the unit, evenly spaced by default)."""
    return {"lead_changes": lead_changes(probs), "comeback": comeback(probs, winner, at),
            "decisive": decisive_point(probs, winner, at=at), "drama": drama(probs, winner)}


def shape_summary(units: list[tuple]) -> dict:
    """Means over units, each ``(probs, winner)`` or ``(probs, winner, at)``, of the four measures with 95%
    intervals: lead changes (normal, floored), the comeback rate (Wilson over the units with a half-time
    leader), the decisive point and drama (within [0, 1]); ``per_unit``: the values themselves."""
    rows = [unit_shape(*u) for u in units]
    out = {"units": len(rows), "per_unit": rows}
    for key, bounds in (("lead_changes", None), ("decisive", (0.0, 1.0)), ("drama", (0.0, 1.0))):
        v = values_ci(np.array([r[key] for r in rows], float), bounds=bounds)
        out[key] = {"mean": v["mean"], "low": v["low"], "high": v["high"], "n": v["n"]}
        if key == "lead_changes" and v["n"]:
            out[key]["low"] = max(0.0, v["low"])
    back = np.array([r["comeback"] for r in rows], float)
    back = back[np.isfinite(back)]
    low, high = wilson(back.sum(), back.size)
    out["comeback"] = {"mean": float(back.mean()) if back.size else math.nan, "low": float(exact(low)),
                       "high": float(exact(high)), "n": int(back.size)}
    return out


def walk_lead_changes(steps: int) -> float:
    """The expected lead changes of a fair simple random walk over ``steps`` steps (the leader the
    sign of the walk, a level walk keeping the last): each return to level at step 2k < steps is
    followed by a fresh sign, a change with probability 1/2, and a return at 2k has probability
    C(2k, k) / 4^k; so E = (1/2) sum over 2k <= steps - 1 of C(2k, k) / 4^k."""
    total, u = 0.0, 1.0
    for k in range(1, (steps - 1) // 2 + 1):
        u *= (2 * k - 1) / (2 * k)              # C(2k, k) / 4^k from k - 1
        total += u
    return total / 2


# ---------------------------------------------------------------------- length and ends

def quantile_ci(values, q: float, z: float = Z95) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of the q-quantile: the distribution-free interval of order statistics
    (the ranks n q -+ z sqrt(n q (1 - q)), the binomial's normal approximation, clipped to the sample)."""
    v = np.sort(np.asarray(values, float))
    n = v.size
    if n == 0:
        return math.nan, math.nan, math.nan
    half = z * math.sqrt(n * q * (1 - q))
    lo = int(np.clip(math.floor(n * q - half), 0, n - 1))
    hi = int(np.clip(math.ceil(n * q + half), 0, n - 1))
    return float(np.quantile(v, q)), float(v[lo]), float(v[hi])


def length_summary(lengths, quantiles=QUANTILES) -> dict:
    """Unit lengths: mean with its interval, and each quantile with its order-statistic interval."""
    v = np.asarray(lengths, float)
    mean = values_ci(v)
    rows = []
    for q in quantiles:
        est, low, high = quantile_ci(v, q)
        rows.append({"quantile": q, "length": est, "ci_low": low, "ci_high": high})
    return {"units": int(v.size), "mean": mean["mean"], "mean_ci_low": mean["low"], "mean_ci_high": mean["high"],
            "min": float(v.min()) if v.size else math.nan, "max": float(v.max()) if v.size else math.nan,
            "quantiles": rows}


def end_shares(labels, order=None) -> list[dict]:
    """Each way a unit ended (one label per unit): its count and share with a Wilson interval, in
    ``order`` (labels not in it after, most common first)."""
    labels = np.asarray(labels, dtype=object)
    names, counts = np.unique(labels.astype(str), return_counts=True)
    count = dict(zip(names.tolist(), counts.tolist(), strict=True))
    ordered = [w for w in (order or ()) if w in count]
    ordered += sorted((w for w in count if w not in ordered), key=lambda w: -count[w])
    n = labels.size
    out = []
    for way in ordered:
        low, high = wilson(count[way], n)
        out.append({"way": way, "units": count[way], "share": count[way] / n, "ci_low": float(exact(low)),
                    "ci_high": float(exact(high))})
    return out


# ---------------------------------------------------------------------- the equilibrium

def support_entropy(weights, low=None, high=None, threshold: float = SUPPORT) -> dict:
    """An equilibrium mix's support (weights above ``threshold``) and entropy (bits; and as a share of
    the most a mix of this many policies can have, log2 k). With the weights' interval bounds, the
    support's range: the policies certainly in (lower bound above; a mix has one at least) to those possibly
    in (upper bound above)."""
    w = np.asarray(weights, float)
    inside = w[w > threshold]
    bits = float(-(inside * np.log2(inside)).sum()) if inside.size else 0.0
    out = {"support": int(inside.size), "entropy_bits": bits, "policies": int(w.size),
           "entropy_share": bits / math.log2(w.size) if w.size > 1 else 0.0}
    if low is not None and high is not None:
        out["support_low"] = max(1, int(np.count_nonzero(np.asarray(low, float) > threshold)))
        out["support_high"] = int(np.count_nonzero(np.asarray(high, float) > threshold))
    return out


def dominant(names: list[str], pairs: list[tuple[str, str, float, float]], alpha: float = 0.05) -> str | None:
    """The policy that beats every other, each pair significant within the family: ``pairs`` are
    (a, b, a's advantage over b, the pair's adjusted p-value). None when no policy does."""
    for name in names:
        beaten = set()
        for a, b, diff, q in pairs:
            if not (q == q and q < alpha):
                continue
            if a == name and diff > 0:
                beaten.add(b)
            elif b == name and diff < 0:
                beaten.add(a)
        if len(names) > 1 and beaten >= set(names) - {name}:
            return name
    return None
