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
two names for one policy get exactly equal weights and values. So are
policies that no paired test of the deals tells apart (``indistinguishable``:
their head-to-head value and their values against every third policy within
Bonferroni-corrected noise): the sample's noise between two copies of a
random policy would otherwise tip the maximum-entropy equilibrium to a vertex,
one copy 1 and the other 0, with intervals that exclude the truth (1/2 each).
Such a class is solved as one policy (its members' mean payoffs), its weight
split equally and its value the members' mean, in the estimate and in every
replicate; the table names each policy's class.

Intervals: a bootstrap over deals. Every pair (or table) plays the same deals,
so a replicate draws the deal indices with replacement once, recomputes A
from the per-deal values (each cell the weighted mean of its per-deal values)
and solves it again; a weight's interval is the 2.5% and 97.5% quantiles of the
replicates. Seeded, so a run is reproducible.

A value's interval holds near the bound without leaning on the replicates'
tails. A value is a mean of bounded per-deal values, (A[d] p)[X] within
[-1/2, 1/2], and a policy the mix beats nearly always sits near -1/2. Its
bootstrap is split in two: the value against the estimated mix held fixed (a
mean over deals: the replicate's weighted mean of the per-deal values against
that mix) and the rest (the mix moving with the replicate). The fixed part's
percentiles are replaced by its delta-method interval, the mean of those
per-deal values +- 1.96 standard errors (a policy whose per-deal values are all
equal, one the mix beats on every deal, gets Tango's bounded interval of them,
intervals.differences_ci, so no interval has zero width); the rest stays
bootstrapped: low = q2.5(v*) + (delta low - q2.5(v fixed)), and likewise the high
end, then within [-1/2, 0] (no policy beats the equilibrium) and holding the
estimate. Where the mix is the same in every replicate (one class beats the
rest) the interval is the delta-method one exactly, whatever the number of
replicates. Random's value against pickup (Palace, 1,000 deals, 100 replicates,
300 seeds; benchmarks/calibrate_tournament.py --only weights): percentiles
covered 95.0% (2 seats, pairs) and 91.3% (3 seats, mixed), this 96.7% and 95.0%.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.stats.intervals import Z95, differences_ci, exact

TOLERANCE = 1e-12
NEGLIGIBLE = 1e-7          # a weight below this is the solver's residue: 0
DEFAULT_BOOTSTRAP = 200
CHUNK = 50                     # replicates drawn at once (a chunk x deals count matrix)
METHOD = ("Nash averaging (Balduzzi et al. 2018): A[X][Y] = (M[X][Y] - M[Y][X]) / 2, the maximum-entropy "
          "equilibrium of the symmetric zero-sum game A (value by scipy linprog, then maximum entropy among the "
          "equilibria by SLSQP; identical rows, and policies no paired test of the deals tells apart, merged and "
          "split equally); value = (A p)[X], 0 in the mix, below 0 "
          "for a policy the mix beats; 95% intervals: percentiles of a bootstrap over deals ({b} replicates, "
          "seeded), a value's with its part against the estimated mix held fixed replaced by the delta-method "
          "interval of its per-deal values (mean +- 1.96 se), within [-1/2, 0].")

def equilibrium(a: np.ndarray, classes: np.ndarray | None = None) -> np.ndarray:
    """The maximum-entropy equilibrium mix of the symmetric zero-sum game with antisymmetric payoff ``a``.
    ``classes`` (one class index per policy): policies held to be one (indistinguishable), solved as
    one policy with their mean payoffs and given equal weights; policies whose rows are exactly equal
    are one class whatever ``classes`` says."""
    a = np.round(np.asarray(a, float), 12)
    group = np.unique(a, axis=0, return_inverse=True)[1].ravel()
    if classes is not None:
        group = _joined(group, np.asarray(classes))
    sizes = np.bincount(group)
    member = np.zeros((sizes.size, a.shape[0]))
    member[group, np.arange(a.shape[0])] = 1.0 / sizes[group]
    weights = _max_entropy(member @ a @ member.T, sizes)
    return weights[group] / sizes[group]


def _joined(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The classes of the join of two partitions (labels 0 .. m-1 in order of first appearance)."""
    label = list(range(a.size))
    for part in (a, b):
        for x in range(a.size):
            for y in range(x):
                if part[x] == part[y] and label[x] != label[y]:
                    old = label[x]
                    label = [label[y] if g == old else g for g in label]
    return np.unique(label, return_inverse=True)[1].ravel()


def indistinguishable(values: np.ndarray, pairs: list[tuple[int, int]], k: int, level: float = 0.05) -> np.ndarray:
    """One class index per policy: policies that no test of these deals tells apart (complete linkage).

    Policies i and j are told apart when their head-to-head value, or the difference of their values
    against any third policy, has a mean over deals whose |z| exceeds the Bonferroni bound for those
    k - 1 tests at ``level`` (paired per deal, so the deal's luck cancels). Two names for one policy are
    then one class (in all but ``level`` of runs at most), and the equilibrium shares their weight
    equally instead of giving one copy everything on the sample's noise."""
    from scipy.stats import norm

    cell = {pair: c for c, pair in enumerate(pairs)}

    def against(i, x):          # per deal, i's value against x (A[i][x]; NaN where they did not meet)
        return values[:, cell[i, x]] if (i, x) in cell else -values[:, cell[x, i]]

    bound = norm.ppf(1 - level / 2 / max(k - 1, 1))
    apart = np.zeros((k, k), bool)
    for i in range(k):
        for j in range(i):
            tests = [against(i, j)] + [against(i, x) - against(j, x) for x in range(k) if x not in (i, j)]
            apart[i, j] = apart[j, i] = any(_z(t) > bound for t in tests)
    label = np.arange(k)
    for i in range(k):
        for j in range(i):
            a, b = np.flatnonzero(label == label[i]), np.flatnonzero(label == label[j])
            if label[i] != label[j] and not apart[np.ix_(a, b)].any():
                label[label == label[i]] = label[j]
    return np.unique(label, return_inverse=True)[1].ravel()


def _z(d: np.ndarray) -> float:
    """|mean| / se of the finite per-deal values (0 for a mean of exactly 0, inf for a constant non-zero)."""
    d = d[np.isfinite(d)]
    if d.size < 2:
        return 0.0
    mean = float(exact(d.mean()))
    sd = float(d.std(ddof=1))
    return 0.0 if mean == 0 else (abs(mean) / (sd / np.sqrt(d.size)) if sd > 0 else np.inf)


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


def solve(a: np.ndarray, classes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(weights, values)``: the equilibrium mix (``classes``: see equilibrium) and each policy's value
    (A p)[X] against it."""
    a = np.asarray(a, float)
    p = equilibrium(a, classes)
    value = a @ p
    if classes is not None:            # one policy as far as the deals show: one value, the class's mean
        value = (np.bincount(classes, value) / np.bincount(classes))[classes]
    return p, exact(value)


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
    classes = indistinguishable(values, pairs, k)
    weights, value = solve(antisymmetric(pair_means(values, np.ones((1, deals)))[0], pairs, k), classes)
    per_deal = _class_mean(deal_values(values, pairs, weights), classes)     # against the estimated mix
    boot_w, boot_v, boot_fixed = [], [], []
    rng = np.random.default_rng(seed)
    for start in range(0, replicates, CHUNK):
        counts = rng.multinomial(deals, np.full(deals, 1.0 / deals), size=min(CHUNK, replicates - start))
        counts = counts.astype(float)
        boot_fixed += list(pair_means(per_deal, counts))
        for means in pair_means(values, counts):
            w, v = solve(antisymmetric(np.nan_to_num(means), pairs, k), classes)
            boot_w.append(w)
            boot_v.append(v)
    low_w, high_w = _quantiles(boot_w, weights)
    low_v, high_v = value_interval(boot_v, boot_fixed, value, per_deal)
    together = [", ".join(names[y] for y in np.flatnonzero(classes == classes[x]) if y != x) for x in range(k)]
    table = pd.DataFrame({"policy": names, "weight": weights, "weight_ci_low": low_w, "weight_ci_high": high_w,
                          "value": value, "value_ci_low": low_v, "value_ci_high": high_v,
                          "indistinguishable_from": together})
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


def _class_mean(per_deal: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Per-deal values with each class's columns replaced by their mean (a class's value is its members' mean)."""
    out = per_deal.copy()
    for c in np.unique(classes):
        members = classes == c
        if members.sum() > 1:
            out[:, members] = per_deal[:, members].mean(axis=1, keepdims=True)
    return out


def value_interval(boot: list, fixed: list, value: np.ndarray, per_deal: np.ndarray,
                   span: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of each value (module docstring): the percentiles of its replicates ``boot``, each
    end moved by how far the delta-method interval of its ``per_deal`` values against the estimated mix
    reaches past the percentiles of that mix's replicate values ``fixed``; within [-span, 0] and holding
    the estimate. No replicates: NaN, as the weights'."""
    low_b, high_b = _quantiles(boot, value)
    if not boot:
        return low_b, high_b
    low_f, high_f = _quantiles(fixed, value)
    low, high = low_b.copy(), high_b.copy()
    for x in range(value.size):
        low_d, high_d = fixed_mix_interval(per_deal[:, x], span)
        if np.isfinite(low_d) and np.isfinite(low_f[x]):
            low[x] = low_b[x] + low_d - low_f[x]
            high[x] = high_b[x] + high_d - high_f[x]
    low = np.minimum(np.maximum(low, -span), value)
    high = np.minimum(np.maximum(high, value), np.maximum(value, 0.0))
    return exact(low), exact(high)


def fixed_mix_interval(per_deal: np.ndarray, span: float = 0.5) -> tuple[float, float]:
    """The delta-method interval of a value against a fixed mix: the mean of its finite per-deal values
    +- Z95 standard errors; per-deal values all equal get Tango's bounded interval (differences_ci)
    instead of a zero-width one."""
    v = exact(per_deal)
    v = v[np.isfinite(v)]
    if v.size < 2:
        return float("nan"), float("nan")
    sd = float(v.std(ddof=1))
    if sd == 0:
        ci = differences_ci(v, span)
        return ci["low"], ci["high"]
    half = Z95 * sd / np.sqrt(v.size)
    return float(v.mean() - half), float(v.mean() + half)


def _quantiles(samples: list, estimate: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if not samples:
        return np.full_like(estimate, np.nan), np.full_like(estimate, np.nan)
    low, high = np.quantile(np.array(samples), [0.025, 0.975], axis=0)
    return exact(low), exact(high)
