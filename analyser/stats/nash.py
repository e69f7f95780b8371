"""Nash averaging (Balduzzi, Tuyls, Perolat and Graepel 2018): the meta-game of a head-to-head matrix.

Ratings assume one strength per policy (transitive results); the meta-game
does not. Its payoff is the antisymmetric matrix

    A[X][Y] = (M[X][Y] - M[Y][X]) / 2,

M the head-to-head matrix. At 2 seats of a one-winner game M[X][Y] + M[Y][X]
= 1, so A[X][Y] = M[X][Y] - 1/2 (the win share above the fair half); at more
seats, half the paired win share difference of X and Y (compare's estimate);
at mixed tables, the above share minus 1/2. The symmetric zero-sum game with
payoff A has value 0. An equilibrium is a mix p of policies (p >= 0, sum 1)
that no policy beats on average: (A p)[Y] <= 0 for every Y. Each policy's
*value* against it is (A p)[X]: 0 for the policies in the mix, negative for
those it beats.

Solution: scipy.optimize.linprog (HiGHS) finds the game value v (max over p
of min over Y of (p^T A)[Y], 0 up to rounding) and one equilibrium; among the
equilibria (all p with p^T A >= v - TOLERANCE) the one of maximum entropy is
found by SLSQP from there (weights below NEGLIGIBLE are the solver's residue
and set to 0; values go through intervals.exact) (the maximum-entropy equilibrium is unique, and it
weighs equally policies whose rows of A are identical). Policies whose rows
of A are exactly equal are merged first and share their weight equally, so
two names for one policy get exactly equal weights and values.

Intervals: a bootstrap over deals. Every pair (or table) plays the same deals,
so a replicate draws the deal indices with replacement once, recomputes A
from the per-deal values (each cell the weighted mean of its per-deal values)
and solves it again; the interval is the 2.5% and 97.5% quantiles of the
replicates. Seeded, so a run is reproducible. A value whose replicates are all
equal (a policy the mix beats on every deal) gets instead the floored interval
of its per-deal values against the estimated mix (analyser.stats.intervals),
so no interval has zero width because the sample happened to be constant.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.stats.intervals import differences_ci, exact

TOLERANCE = 1e-12
NEGLIGIBLE = 1e-7          # a weight below this is the solver's residue: 0
DEFAULT_BOOTSTRAP = 200
CHUNK = 50                     # replicates drawn at once (a chunk x deals count matrix)
METHOD = ("Nash averaging (Balduzzi et al. 2018): A[X][Y] = (M[X][Y] - M[Y][X]) / 2, the maximum-entropy "
          "equilibrium of the symmetric zero-sum game A (value by scipy linprog, then maximum entropy among the "
          "equilibria by SLSQP; identical rows merged and split equally); value = (A p)[X], 0 in the mix, below 0 "
          "for a policy the mix beats; 95% intervals: percentiles of a bootstrap over deals ({b} replicates, "
          "seeded).")


def equilibrium(a: np.ndarray) -> np.ndarray:
    """The maximum-entropy equilibrium mix of the symmetric zero-sum game with antisymmetric payoff ``a``."""
    a = np.round(np.asarray(a, float), 12)
    rows, group = np.unique(a, axis=0, return_inverse=True)
    group = group.ravel()
    first = np.array([np.flatnonzero(group == g)[0] for g in range(rows.shape[0])])
    sizes = np.bincount(group)
    weights = _max_entropy(a[np.ix_(first, first)], sizes)
    return weights[group] / sizes[group]


def _max_entropy(a: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Max-entropy equilibrium over classes of identical policies (payoff ``a`` between one of each): the
    entropy is that of the full mix, each class's weight split equally among its ``sizes`` copies."""
    from scipy.optimize import linprog, minimize

    k = a.shape[0]
    if k == 1:
        return np.ones(1)
    # variables (p, v): maximise v subject to v - (p^T a)[j] <= 0, sum p = 1
    res = linprog(np.r_[np.zeros(k), -1.0], A_ub=np.c_[-a.T, np.ones(k)], b_ub=np.zeros(k),
                  A_eq=np.r_[np.ones(k), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * k + [(None, None)],
                  method="highs")
    p, value = np.clip(res.x[:k], 0, None), res.x[k]
    start = 0.5 * p / p.sum() + 0.5 / k

    def entropy(q):
        q = np.clip(q, 1e-300, None)
        return float(np.sum(q * (np.log(q) - np.log(sizes)))), np.log(q) - np.log(sizes) + 1

    best = minimize(entropy, start, jac=True, method="SLSQP", bounds=[(0, 1)] * k,
                    constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1, "jac": lambda q: np.ones((1, k))},
                                 {"type": "ineq", "fun": lambda q: q @ a - value + TOLERANCE,
                                  "jac": lambda q: a.T}],
                    options={"ftol": 1e-12, "maxiter": 200})
    q = np.clip(best.x, 0, None) if best.success and (best.x @ a >= value - 1e-6).all() else p
    q = np.where(q < NEGLIGIBLE, 0.0, q)
    return q / q.sum()


def solve(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(weights, values)``: the equilibrium mix and each policy's value (A p)[X] against it."""
    a = np.asarray(a, float)
    p = equilibrium(a)
    return p, exact(a @ p)


def antisymmetric(means: np.ndarray, pairs: list[tuple[int, int]], k: int) -> np.ndarray:
    """The k x k payoff A from one mean per pair (i, j) (A[i][j] = mean, A[j][i] = -mean)."""
    a = np.zeros((k, k))
    for (i, j), m in zip(pairs, means, strict=True):
        a[i, j], a[j, i] = m, -m
    return a


def pair_means(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per replicate (rows of ``counts``, deal weights) the weighted mean of each pair's per-deal values
    (``values``: deals x pairs, NaN where a pair has no value)."""
    have = np.isfinite(values)
    total = counts @ np.where(have, values, 0.0)
    n = counts @ have.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / n


def nash_table(names: list[str], values: np.ndarray, pairs: list[tuple[int, int]], seed,
               replicates: int = DEFAULT_BOOTSTRAP) -> pd.DataFrame:
    """policy, weight, weight_ci_low, weight_ci_high, value, value_ci_low, value_ci_high (best value first).

    values: deals x pairs, each pair's per-deal antisymmetric value (A's cell for that deal; NaN where
    the pair has none); pairs: the (i, j) of each column. seed: the bootstrap's seed."""
    k, deals = len(names), values.shape[0]
    weights, value = solve(antisymmetric(pair_means(values, np.ones((1, deals)))[0], pairs, k))
    boot_w, boot_v = [], []
    rng = np.random.default_rng(seed)
    for start in range(0, replicates, CHUNK):
        counts = rng.multinomial(deals, np.full(deals, 1.0 / deals), size=min(CHUNK, replicates - start))
        for means in pair_means(values, counts.astype(float)):
            w, v = solve(antisymmetric(np.nan_to_num(means), pairs, k))
            boot_w.append(w)
            boot_v.append(v)
    low_w, high_w = _quantiles(boot_w, weights)
    low_v, high_v = _floored(_quantiles(boot_v, value), values, pairs, weights)
    table = pd.DataFrame({"policy": names, "weight": weights, "weight_ci_low": low_w, "weight_ci_high": high_w,
                          "value": value, "value_ci_low": low_v, "value_ci_high": high_v})
    return table.sort_values(["value", "weight"], ascending=False, kind="stable").reset_index(drop=True)


def deal_values(values: np.ndarray, pairs: list[tuple[int, int]], weights: np.ndarray) -> np.ndarray:
    """Per deal (rows) and policy (columns): the policy's value against the mix ``weights``, (A[d] p)[X]
    (NaN on a deal where a pair the value needs has none)."""
    out = np.zeros((values.shape[0], len(weights)))
    for col, (i, j) in enumerate(pairs):
        if weights[j] > 0:
            out[:, i] += weights[j] * values[:, col]
        if weights[i] > 0:
            out[:, j] -= weights[i] * values[:, col]
    return out


def _floored(bounds: tuple[np.ndarray, np.ndarray], values: np.ndarray, pairs: list[tuple[int, int]],
             weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A value whose replicates were all equal (a policy the mix beats on every deal) gets the floored
    interval of its per-deal values against the estimated mix instead of a zero-width one."""
    low, high = bounds
    flat = np.flatnonzero(np.isfinite(low) & (low == high))
    if flat.size:
        per_deal = deal_values(values, pairs, weights)
        low, high = low.copy(), high.copy()
        for x in flat:
            ci = differences_ci(per_deal[:, x], 0.5)
            if not ci["identical"] and np.isfinite(ci["low"]):
                low[x], high[x] = ci["low"], ci["high"]
    return low, high


def _quantiles(samples: list, estimate: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if not samples:
        return np.full_like(estimate, np.nan), np.full_like(estimate, np.nan)
    low, high = np.quantile(np.array(samples), [0.025, 0.975], axis=0)
    return exact(low), exact(high)
