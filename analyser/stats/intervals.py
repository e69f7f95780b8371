"""Confidence intervals for rates and means, and the floors that keep them honest.

Conventions every table, comparison, sweep and report follows:

- **Exact values.** Per-unit values that are means over seats or arrangements
  carry float residues (1e-17) that would pose as effects; ``exact`` rounds
  them to 1e-9, far below any effect a run can resolve, so two names for one
  deterministic policy differ by exactly 0.
- **Exact ties.** A difference that is exactly 0 on every unit is reported as
  an exact tie: estimate 0, interval [0, 0] (``tie=True``).
- **Variance floor.** Otherwise the sample variance is floored as in the
  Chow-Robbins fixed-width rule, s^2 + 1/n (``floored_var``), so a sample that
  happens to be constant (all wins after 300 games, a pooled share that is
  2/3 in nearly every game) never gets a zero-width interval. At the sizes
  runs have (n in the thousands, s^2 near 0.25) the floor widens an interval
  by well under 1%.
- **Bounded means.** A mean of values known to lie in [lo, hi] (a win share, a
  win share difference) gets the Wilson score interval at the effective
  sample size n_eff = n p(1 - p) / v (p the mean rescaled to [0, 1], v the
  floored variance rescaled the same way; n_eff = n when p is 0 or 1): it
  stays inside the bounds and, unlike the normal interval, keeps its coverage
  near them (Korn and Graubard's design-effect Wilson interval). For 0/1
  values n_eff is a little below n (the sample variance and the floor), so
  it is a hair wider than Wilson's interval; a rate known to be 0/1 uses
  ``wilson`` itself (stats.tally.share_interval).
- **Stopping.** A precision target stops on ``stop_half_width`` (z sqrt((s^2 +
  1/n) / n), Chow and Robbins 1965) and never before MIN_STOP_UNITS units.

The Wilson interval is a few lines of numpy; importing scipy.stats for it
would add most of a second to every CLI run. tests/stats checks it against
``scipy.stats.binomtest(...).proportion_ci(method='wilson')``.
"""
import numpy as np

Z95 = 1.959963984540054
EXACT_DECIMALS = 9
MIN_STOP_UNITS = 100


def exact(values) -> np.ndarray:
    """Values rounded to 1e-9, so float residues of means over seats cannot pose as effects (-0.0 becomes 0.0)."""
    return np.round(np.asarray(values, dtype=float), EXACT_DECIMALS) + 0.0


def floored_var(var, n):
    """The sample variance with the Chow-Robbins floor 1/n added (arrays allowed; NaN for n < 1)."""
    n = np.asarray(n, dtype=float)
    return np.asarray(var, dtype=float) + 1.0 / np.where(n > 0, n, np.nan)


def stop_half_width(var, n, z: float = Z95) -> float:
    """The half-width a precision target watches: z sqrt((s^2 + 1/n) / n); NaN below two units."""
    if n < 2 or not np.isfinite(var):
        return float("nan")
    return float(z * np.sqrt(floored_var(var, n) / n))


def values_stop_half_width(values, z: float = Z95) -> float:
    """``stop_half_width`` of the finite per-unit values (NaN below two of them)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return stop_half_width(float(v.var(ddof=1)) if v.size > 1 else float("nan"), v.size, z)


def widest_stop_half_width(columns) -> float:
    """The widest ``values_stop_half_width`` over the columns of a units x cells array (NaN if any is)."""
    half = [values_stop_half_width(c) for c in np.asarray(columns, dtype=float).T]
    return float("nan") if np.isnan(half).any() else float(max(half))


def wilson(successes, trials, z: float = Z95):
    """Wilson score interval ``(low, high)`` for successes out of trials (arrays allowed; trials may be
    fractional, an effective sample size). With no trials the interval is the whole of [0, 1]."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    p = k / safe
    denom = 1 + z * z / safe
    centre = (p + z * z / (2 * safe)) / denom
    half = z * np.sqrt(np.maximum(p * (1 - p), 0.0) / safe + z * z / (4 * safe * safe)) / denom
    low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    return low, high


def mean_ci(mean, var, n, z: float = Z95, bounds: tuple[float, float] | None = None, tie=False):
    """``(low, high)`` of a mean from its sample variance over n units (arrays allowed).

    tie: where true the interval is [mean, mean] (an exact tie: the caller knows every value was
    the same exact 0). Elsewhere the variance is floored (``floored_var``); with ``bounds`` the
    interval is the effective-n Wilson interval within them, else the normal one. NaN below two units.
    """
    mean = np.asarray(mean, dtype=float)
    n = np.asarray(n, dtype=float)
    var = floored_var(np.nan_to_num(np.asarray(var, dtype=float), nan=0.0), n)
    few = ~(n >= 2) | ~np.isfinite(mean)
    if bounds is None:
        half = z * np.sqrt(var / np.where(n > 0, n, np.nan))
        low, high = mean - half, mean + half
    else:
        lo, hi = bounds
        width = hi - lo
        p = np.clip((mean - lo) / width, 0.0, 1.0)
        v = var / (width * width)
        pq = p * (1 - p)
        n_eff = np.where(pq > 0, n * pq / np.where(v > 0, v, np.nan), n)
        w_low, w_high = wilson(p * n_eff, n_eff, z)
        low, high = lo + width * w_low, lo + width * w_high
    tie = np.asarray(tie, dtype=bool)
    low = np.where(few, np.nan, np.where(tie, mean, exact(low)))      # exact: no 1e-19 residue past a bound
    high = np.where(few, np.nan, np.where(tie, mean, exact(high)))
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def values_ci(values, z: float = Z95, bounds: tuple[float, float] | None = None) -> dict:
    """Mean, sd, interval and half-width of the finite per-unit values of a difference.

    The values go through ``exact`` first; when every one is exactly 0 the result is an exact
    tie (interval [0, 0], ``tie`` true). ``half_width`` is the larger side of the interval."""
    v = exact(values)
    v = v[np.isfinite(v)]
    n = v.size
    if n < 2:
        mean = float(v.mean()) if n else float("nan")
        return {"mean": mean, "sd": float("nan"), "low": float("nan"), "high": float("nan"),
                "half_width": float("nan"), "n": n, "tie": False}
    mean = float(v.mean())
    sd = float(v.std(ddof=1))
    tie = not v.any()
    low, high = mean_ci(mean, sd * sd, n, z, bounds, tie)
    return {"mean": mean, "sd": sd, "low": low, "high": high, "half_width": max(mean - low, high - mean),
            "n": n, "tie": tie}


def mean_interval(mean, sd, n, z: float = Z95):
    """Normal interval ``(low, high)`` of an unbounded mean from its sample sd, with the variance floor."""
    return mean_ci(mean, np.asarray(sd, dtype=float) ** 2, n, z)
