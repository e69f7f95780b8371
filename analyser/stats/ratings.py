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

The fit is only as good as its binomial variance: ``analyser.tournaments``
passes effective numbers of games that give each pair the variance its paired
per-deal results had (see that module). The Pearson dispersion
(chi2 / residual df, with 3 or more policies) is reported: well above 1, the
results are not transitive enough for one strength per policy to describe them.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyser.stats.intervals import Z95

ELO_SCALE = 400 / math.log(10)
MODEL = "Bradley-Terry (binomial GLM, logit link, statsmodels)"
SMOOTHING = 0.5


@dataclass
class RatingFit:
    """A fitted rating model: ``table`` has one row per policy, best first; ``stats`` the
    model's own fit figures (Bradley-Terry: deviance, df_resid, dispersion, smoothing)."""
    table: pd.DataFrame          # rank, policy, rating, se, ci_low, ci_high, elo, elo_ci_low, elo_ci_high
    model: str
    reference: str
    converged: bool
    stats: dict

    def describe(self) -> str:
        return f"{self.model}, reference: {self.reference}"

    def info(self) -> dict:
        stats = {k: _finite(v) if isinstance(v, float) else v for k, v in self.stats.items()}
        return {"model": self.model, "reference": self.reference, "converged": self.converged,
                "elo_scale": ELO_SCALE, **stats}


def rating_table(names: Sequence[str], beta: np.ndarray, se: np.ndarray, z: float = Z95) -> pd.DataFrame:
    """rank, policy, rating, se, ci_low, ci_high and the Elo columns, best first (ties keep the given order)."""
    low, high = beta - z * se, beta + z * se
    table = pd.DataFrame({"policy": list(names), "rating": beta, "se": se, "ci_low": low, "ci_high": high,
                          "elo": ELO_SCALE * beta, "elo_ci_low": ELO_SCALE * low, "elo_ci_high": ELO_SCALE * high})
    table = table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table


def bradley_terry(names: Sequence[str], first: Sequence, second: Sequence, wins_first: Sequence,
                  wins_second: Sequence, reference: str | None = None, z: float = Z95,
                  smoothing: float = SMOOTHING) -> RatingFit:
    """Fit Bradley-Terry strengths to pair results.

    names: the policies; first / second: the two names of each pair (or their indices);
    wins_first / wins_second: each side's wins in that pair (fractions allowed).
    reference: the policy rated 0 (default: the first name).
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
    df_resid = int(round(fit.df_resid))
    dispersion = float(fit.pearson_chi2 / df_resid) if df_resid > 0 else None
    stats = {"deviance": float(fit.deviance), "df_resid": df_resid, "dispersion": dispersion, "smoothing": smoothing}
    return RatingFit(rating_table(names, beta, se, z), MODEL, ref, bool(getattr(fit, "converged", True)), stats)


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
