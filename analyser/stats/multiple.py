"""Many tests at once: p-values of paired differences and the Benjamini-Hochberg false discovery rate.

A balance report makes dozens of tests (each seat, each rule value and quantity,
each pair of policies); flagged one by one at 5%, about one in twenty of the
truly null ones is flagged by chance. ``bh_adjust`` gives Benjamini and
Hochberg's (1995) adjusted p-values: calling every test whose adjusted p-value
is below q significant keeps the expected share of false findings among the
findings at most q (for independent or positively dependent tests). A sweep
asks the stricter question "does any value differ?": ``holm`` gives Holm's
(1979) step-down adjusted p-values, which keep the chance of any false finding
at most the level. Checked
against ``statsmodels.stats.multitest.multipletests(method="fdr_bh")`` in
tests/stats.
"""
from __future__ import annotations

import math

import numpy as np

from analyser.stats.intervals import Z95, floored_var

FDR = 0.05


def bh_adjust(p_values) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values, in the given order. NaN p-values (a test that could not be
    made) stay NaN and do not count among the tests."""
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    scaled = p[order] * m / np.arange(1, m + 1)
    out[order] = np.minimum(np.minimum.accumulate(scaled[::-1])[::-1], 1.0)
    return out


def holm(p) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control over the finite ones; NaN stays NaN)."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out


def normal_p(estimate: float, half_width: float, z: float = Z95) -> float:
    """Two-sided p-value of H0: the quantity is 0, from an estimate and the half-width of its normal
    interval at ``z``. A zero-width interval is an exact result: p = 1 at 0, else 0. NaN if unknown."""
    if not (math.isfinite(estimate) and math.isfinite(half_width)):
        return math.nan
    if half_width <= 0:
        return 1.0 if estimate == 0 else 0.0
    return math.erfc(abs(estimate) / (half_width / z) / math.sqrt(2))


def mean_p(mean: float, var: float, n: float, tie: bool = False) -> float:
    """Two-sided p-value of H0: mean 0, for a mean of n units with sample variance ``var`` floored as the
    intervals are (intervals.floored_var); an exact tie (every unit exactly 0) has p = 1."""
    if tie:
        return 1.0
    if not n or n < 2 or not math.isfinite(mean):
        return math.nan
    se = math.sqrt(float(floored_var(0.0 if not math.isfinite(var) else var, n)) / n)
    return math.erfc(abs(mean) / se / math.sqrt(2))
