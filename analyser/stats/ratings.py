"""Ratings from head-to-head results: a Bradley-Terry model fitted by statsmodels.

Bradley-Terry: policy i beats policy j with probability

    P(i beats j) = 1 / (1 + exp(-(beta_i - beta_j))),

one strength beta per policy, the reference policy's fixed at 0 (only
differences are identified). It is fitted by maximum likelihood as a binomial
GLM with the logit link and no intercept (statsmodels ``GLM``, family
``Binomial``): one row per pair (i, j), the design row +1 in i's column, -1 in
j's and 0 elsewhere (the reference's column dropped), the response i's wins and
j's wins. A rating's 95% interval is beta +- z * se from the model's standard
errors; it is an interval of the difference from the reference (whose interval
is [0, 0]). The Elo-like scale is 400 / ln 10 * beta: 400 points are odds of
10 to 1, as in chess.

Counts may be fractional (shared wins, effective numbers of games). Half a win
is added to each side of every pair (``smoothing``) so that a pair won every
time has a finite estimate; against thousands of games it moves nothing.

Intervals. ``analyser.analyses.tournament`` passes effective numbers of games that
give each pair the variance its paired per-deal results had (see that module),
so the binomial weights are right for each pair alone; but every pair plays
the same deals, so the pairs are not independent. With ``influence`` (per deal
and pair, the deal's contribution to the pair's observed proportion, its
linearisation) the standard errors are a deal-clustered sandwich:
V = H^-1 (D / (D - 1) sum_d u_d u_d^T) H^-1, H the GLM's information (its
naive covariance inverted) and u_d = sum over pairs of the design row times
the pair's games times the deal's influence: the change of the GLM score that
deal d brings. Without it, the GLM's own (independent games) errors.

Fit quality (``misfit_chi2``, ``fit_quality``): does one strength per policy describe the
pairwise results? A minimum chi-square (GLS) test on the pairwise logits: l = logit(p), p each
pair's observed share (half a win added to each side), its covariance V over pairs from the
per-deal influences (the same deal-clustered linearisation as the errors: pairs that share deals
are correlated, and the test allows for it), the best strengths b for l ~ X b in V's metric, and
T = (l - X b)' V^-1 (l - X b) on df = pairs - (policies - 1): chi2(df) when the model holds. It
reads the results, not the fitted model, so it serves Bradley-Terry and Plackett-Luce alike. The
fit is called poor when T / df exceeds DISPERSION_LIMIT (1.5) *and* the test rejects at
TEST_LEVEL (1%): a large ratio on few degrees of freedom can be chance, a significant one of 1.1
does not matter. A poor fit is a misfit of the mean, not extra noise: the results are not
transitive enough for one rating per policy, the ratings are then the best transitive summary
(their errors, the sandwich above, hold for that summary and keep their width), and the output
says so and points to the head-to-head matrix and the equilibrium.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyser.stats.intervals import Z95, exact

ELO_SCALE = 400 / math.log(10)
MODEL = "Bradley-Terry (binomial GLM, logit link, statsmodels)"
SMOOTHING = 0.5
DISPERSION_LIMIT = 1.5
TEST_LEVEL = 0.01


@dataclass
class RatingFit:
    """A fitted rating model: ``table`` has one row per policy, best first; ``stats`` the
    model's own fit figures (Bradley-Terry: deviance, df_resid, dispersion, smoothing)."""
    table: pd.DataFrame          # rank, policy, rating, se, ci_low, ci_high, elo, elo_ci_low, elo_ci_high
    model: str
    reference: str
    converged: bool
    stats: dict
    order: list = None           # the names in the order given (the table is best first)

    def __post_init__(self):
        self.order = list(self.table["policy"]) if self.order is None else list(self.order)

    def describe(self) -> str:
        return f"{self.model}, reference: {self.reference}"

    def adjusted(self, groups: Sequence[Sequence[str]] = (), proven: Sequence[Sequence[str]] = (),
                 z: float = Z95) -> RatingFit:
        """The table with each group of policies that played identically given one rating and se (their mean;
        the reference's group the rating 0: the data are symmetric under swapping them, so a difference is the
        optimiser's tolerance), ratings and errors through intervals.exact. The se of the reference's group is
        0 only for a group in ``proven`` (one policy by construction: an exact tie); a group that only played
        identically on these deals keeps its members' mean se, an interval for the deals not seen."""
        t = self.table.set_index("policy")
        names = self.order
        beta, se = t.loc[names, "rating"].to_numpy(float).copy(), t.loc[names, "se"].to_numpy(float).copy()
        sure = {frozenset(g) for g in proven}
        for group in groups:
            idx = [names.index(g) for g in group]
            ref = self.reference in group
            beta[idx] = 0.0 if ref else beta[idx].mean()
            rest = [i for i in idx if names[i] != self.reference]
            se[idx] = 0.0 if ref and frozenset(group) in sure else se[rest].mean()
            if ref:
                se[names.index(self.reference)] = 0.0       # the reference's own rating is 0 by definition
        return RatingFit(rating_table(names, exact(beta), exact(se), z), self.model, self.reference,
                         self.converged, dict(self.stats), self.order)

    def info(self) -> dict:
        stats = {k: _finite(v) if isinstance(v, float) else v for k, v in self.stats.items()}
        return {"model": self.model, "reference": self.reference, "converged": self.converged,
                "elo_scale": ELO_SCALE, **stats}


def rating_table(names: Sequence[str], beta: np.ndarray, se: np.ndarray, z: float = Z95) -> pd.DataFrame:
    """rank, policy, rating, se, ci_low, ci_high and the Elo columns, best first (ties keep the given order);
    the intervals are beta +- z * se."""
    low, high = beta - z * se, beta + z * se
    table = pd.DataFrame({"policy": list(names), "rating": beta, "se": se, "ci_low": low, "ci_high": high,
                          "elo": ELO_SCALE * beta, "elo_ci_low": ELO_SCALE * low, "elo_ci_high": ELO_SCALE * high})
    table = table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table


def bradley_terry(names: Sequence[str], first: Sequence, second: Sequence, wins_first: Sequence,
                  wins_second: Sequence, reference: str | None = None, z: float = Z95,
                  smoothing: float = SMOOTHING, influence: np.ndarray | None = None) -> RatingFit:
    """Fit Bradley-Terry strengths to pair results.

    names: the policies; first / second: the two names of each pair (or their indices);
    wins_first / wins_second: each side's wins in that pair (fractions allowed).
    reference: the policy rated 0 (default: the first name).
    influence: deals x pairs, each deal's contribution to each pair's observed proportion
    (see the module): the errors are then a sandwich clustered by deal.
    """
    import statsmodels.api as sm

    names = [str(n) for n in names]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"ratings need two or more distinct names, not {names}")
    index = {n: i for i, n in enumerate(names)}
    ref = names[0] if reference is None else str(reference)
    if ref not in index:
        raise ValueError(f"the reference {ref!r} is not among {names}")
    i = np.array([index[str(x)] if not isinstance(x, (int, np.integer)) else int(x) for x in first])
    j = np.array([index[str(x)] if not isinstance(x, (int, np.integer)) else int(x) for x in second])
    w1 = np.asarray(wins_first, float) + smoothing
    w2 = np.asarray(wins_second, float) + smoothing
    if not (i.size == j.size == w1.size == w2.size) or i.size == 0 or (i == j).any():
        raise ValueError("give one (first, second, wins, wins) per pair of two different policies")
    if not (np.isfinite(w1).all() and np.isfinite(w2).all()) or (w1 < 0).any() or (w2 < 0).any():
        raise ValueError("wins must be finite and not negative")
    if not connected(len(names), i, j):
        raise ValueError("the pairs do not connect every policy: their ratings are not comparable")
    k = len(names)
    design = np.zeros((i.size, k))
    design[np.arange(i.size), i] += 1.0
    design[np.arange(i.size), j] -= 1.0
    free = [c for c in range(k) if c != index[ref]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # a perfect fit warns about a zero scale; the numbers stand
        fit = sm.GLM(np.column_stack([w1, w2]), design[:, free], family=sm.families.Binomial()).fit()
    beta = np.zeros(k)
    se = np.zeros(k)
    beta[free] = np.asarray(fit.params, float)
    se[free] = np.asarray(fit.bse, float)
    interval = "GLM standard errors (independent games)"
    if influence is not None:
        games = w1 + w2 - 2 * smoothing
        se[free] = clustered_se(np.asarray(fit.cov_params(), float), design[:, free] * games[:, None],
                                np.asarray(influence, float))
        interval = "sandwich clustered by deal (every pair plays the same deals)"
    df_resid = int(round(fit.df_resid))
    dispersion = float(fit.pearson_chi2 / df_resid) if df_resid > 0 else None
    stats = {"deviance": float(fit.deviance), "df_resid": df_resid, "dispersion": dispersion, "smoothing": smoothing,
             "interval": interval}
    return RatingFit(rating_table(names, beta, se, z), MODEL, ref, bool(getattr(fit, "converged", True)), stats,
                     names)


def clustered_se(naive: np.ndarray, score_rows: np.ndarray, influence: np.ndarray) -> np.ndarray:
    """Standard errors of the sandwich naive (D / (D - 1) sum_d u_d u_d^T) naive, u_d = influence[d] @ score_rows
    (score_rows: per observation, the change of the score per unit of its observed value)."""
    u = influence @ score_rows
    d = u.shape[0]
    meat = u.T @ u * (d / (d - 1) if d > 1 else np.nan)
    return np.sqrt(np.maximum(np.diag(naive @ meat @ naive), 0))


def misfit_chi2(k: int, pairs: Sequence[tuple[int, int]], above: np.ndarray, below: np.ndarray,
                smoothing: float = SMOOTHING) -> tuple[float | None, int]:
    """The GLS misfit statistic T and its df (the module): ``pairs`` the (i, j) of each column of ``above`` and
    ``below`` (deals x pairs: per deal, i's and j's part of their results; NaN where the pair did not meet on
    that deal). A pair that met on fewer than two deals is left out; a pair whose every deal gave the same
    result gets the variance floor 1 / n^2 of its share, so that no pair is known exactly. T is None when
    df is 0 or less (the fit of the pairs left is exact)."""
    from analyser.stats.pairs import proportion_influence

    above, below = np.asarray(above, float), np.asarray(below, float)
    rows, logits, influence, floors = [], [], [], []
    for c, (i, j) in enumerate(pairs):
        a, b = above[:, c], below[:, c]
        keep = np.isfinite(a) & np.isfinite(b)
        n = int(keep.sum())
        total_a, total_b = a[keep].sum(), b[keep].sum()
        if n < 2 or total_a + total_b <= 0:
            continue
        p = (total_a + smoothing) / (total_a + total_b + 2 * smoothing)
        g = proportion_influence(a, b) / (p * (1 - p))            # per deal, its part of logit(p)
        row = np.zeros(k)
        row[i], row[j] = 1.0, -1.0
        rows.append(row)
        logits.append(math.log(p / (1 - p)))
        influence.append(g)
        floors.append(1.0 / (n * n * (p * (1 - p)) ** 2) if not g.any() else 0.0)
    df = len(rows) - (k - 1)
    if df <= 0:
        return None, max(df, 0)
    g = np.column_stack(influence)
    d = g.shape[0]
    v = g.T @ g * (d / (d - 1)) + np.diag(floors)
    x, y = np.array(rows)[:, 1:], np.array(logits)          # strengths relative to policy 0
    w = np.linalg.pinv(v, hermitian=True)
    b = np.linalg.lstsq(x.T @ w @ x, x.T @ w @ y, rcond=None)[0]
    r = y - x @ b
    return float(r @ w @ r), df


def fit_quality(model: str, chi2: float | None, df: int) -> dict:
    """model, dispersion (chi2 / df), pvalue, fits, warning (see the module); with df 0 the fit is exact and
    fits."""
    from scipy.special import chdtrc

    if chi2 is None or df <= 0 or not math.isfinite(chi2):
        return {"model": model, "dispersion": None, "df": max(int(df), 0), "pvalue": None, "fits": True,
                "warning": None}
    dispersion = chi2 / df
    pvalue = float(chdtrc(df, chi2))
    fits = not (dispersion > DISPERSION_LIMIT and pvalue < TEST_LEVEL)
    warning = None if fits else (
        f"the {model.split(' (')[0]} model does not fit: misfit chi2 / df {dispersion:,.1f} on {df} df (p = "
        f"{pvalue:.2g}); the results are not transitive enough for one rating per policy, so the ratings are "
        f"the best transitive summary and the head-to-head matrix and the equilibrium are the results to read")
    return {"model": model, "dispersion": float(dispersion), "df": int(df), "pvalue": pvalue, "fits": bool(fits),
            "warning": warning}


def win_probability(fit: RatingFit, a: str, b: str) -> float:
    """The fitted probability that ``a`` beats ``b``."""
    r = fit.table.set_index("policy")["rating"]
    return float(1 / (1 + math.exp(-(r[a] - r[b]))))


def connected(k: int, i: np.ndarray, j: np.ndarray) -> bool:
    """Whether the pairs (i[m], j[m]) link all k items (else their ratings are not comparable)."""
    seen, todo = {0}, [0]
    while todo:
        v = todo.pop()
        for a, b in zip(i, j, strict=True):
            for x, y in ((a, b), (b, a)):
                if x == v and y not in seen:
                    seen.add(int(y))
                    todo.append(int(y))
    return len(seen) == k


def _finite(x):
    return None if x is None or not math.isfinite(x) else float(x)
