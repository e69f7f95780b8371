"""Confidence intervals for rates.

The Wilson score interval is a few lines of numpy; importing scipy.stats for
it would add most of a second to every CLI run. tests/stats checks it against
``scipy.stats.binomtest(...).proportion_ci(method='wilson')``.
"""
import numpy as np

Z95 = 1.959963984540054


def wilson(successes, trials, z: float = Z95):
    """Wilson score interval ``(low, high)`` for successes out of trials (arrays allowed).

    With no trials the interval is the whole of [0, 1].
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    p = k / safe
    denom = 1 + z * z / safe
    centre = (p + z * z / (2 * safe)) / denom
    half = z * np.sqrt(p * (1 - p) / safe + z * z / (4 * safe * safe)) / denom
    low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    return low, high


def mean_interval(mean, sd, n, z: float = Z95):
    """Normal-approximation interval ``(low, high)`` of a mean from its sample sd (arrays allowed)."""
    n = np.asarray(n, dtype=float)
    half = z * np.asarray(sd, dtype=float) / np.sqrt(np.where(n > 0, n, np.nan))
    return np.asarray(mean) - half, np.asarray(mean) + half

