"""Many tests at once: p-values of paired differences and the Benjamini-Hochberg false discovery rate.

A balance report makes dozens of tests (each seat, each rule value and quantity,
each pair of policies); flagged one by one at 5%, about one in twenty of the
truly null ones is flagged by chance. ``bh_adjust`` gives Benjamini and
Hochberg's (1995) adjusted p-values: calling every test whose adjusted p-value
is below q significant keeps the expected share of false findings among the
findings at most q (for independent or positively dependent tests). A sweep
asks the stricter question "does any value differ?": ``holm`` gives Holm's
(1979) step-down adjusted p-values, which keep the chance of any false finding
at most the level. A paired difference's own p-value is the score test of its
interval (intervals.difference_p). Checked
against ``statsmodels.stats.multitest.multipletests(method="fdr_bh")`` in
tests/stats.
"""
from __future__ import annotations

import numpy as np

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
