"""Confidence intervals for rates and means, and the floors that keep them honest.

Conventions every table, comparison, sweep and report follows:

- **Exact values.** Per-unit values that are means over seats or arrangements
  carry float residues (1e-17) that would pose as effects; ``exact`` rounds
  them to 1e-9, far below any effect a run can resolve, so two names for one
  deterministic policy differ by exactly 0.
- **Exact ties.** Two sides that are one policy by construction (the same
  function and parameter row, games.policy_specs.same_policy) and give exactly 0
  on every unit are an exact tie: estimate 0, interval [0, 0] (``tie``).
  Nothing else is: two sides that played identically on all n units of the
  sample (``identical``) keep an interval for the units not seen.
- **Differences.** A paired difference d (one value per unit) is mostly 0 when
  the sides rarely play apart, so its variance is small and its distribution
  lumpy; the normal interval from s^2 misses there (0 of 200 deals differing is
  common when 1% of deals do), and a fixed floor such as s^2 + 1/n is not
  scale-free (next to a rare difference's s^2 it dominates). ``difference_ci``
  is instead Tango's (1998) score interval for a difference of paired
  proportions, applied to the units on which d is not 0: d is counted in
  units of kappa = sum d^2 / sum |d| (its typical size where it is not 0), so
  b = sum of the positive d / kappa and c = sum of the negative |d| / kappa are
  effective counts of units where A (B) did better; for d in {-1, 0, 1} they
  are the discordant counts and the interval is Tango's. At the estimate its
  variance is the sample's; away from it the score statistic keeps the
  skewness of few discordant units. When no unit differs, kappa is the span
  (the largest |d| possible: 1 for a win share difference, the scores' range
  for a score) and the interval is +-span z^2 / (n + z^2) (about 3.84 / n
  times the span: the share of units that differ may still be up to z^2 /
  (n + z^2), the Wilson bound for 0 of n, near Clopper-Pearson's 3.69 / n).
  Its p-value is the same score test at 0: McNemar's z = (b - c) / sqrt(b + c)
  (``difference_p``), so p < 0.05 exactly when the interval excludes 0.
- **Means.** A mean of values known to lie in [lo, hi] (a win share) gets the
  Wilson score interval at the effective sample size n_eff = n p(1 - p) / v
  (p the mean rescaled to [0, 1], v the variance rescaled the same way; n_eff
  = n when p is 0 or 1): it stays inside the bounds and keeps its coverage
  near them (Korn and Graubard's design-effect Wilson interval); an unbounded
  mean (a score) the normal one. Their variance is floored, s^2 + 1/n in the
  quantity's units (``floored_var``), so a mean over a sample that happens to
  be constant (a pooled share that is 2/3 in every game) keeps a width; for a
  share the floor is the variance of one unit in n at the far bound, well
  under 1% of the width at the sizes runs have. A rate known to be 0/1 uses
  ``wilson`` itself (stats.tally.share_interval).
- **Stopping.** A precision target stops on ``stop_half_width``, Chow and
  Robbins's (1965) fixed-width rule z sqrt((s^2 + 1/n) / n), never before
  MIN_STOP_UNITS units: its 1/n is part of their rule (it makes the stopping
  time, not the printed interval), and it keeps a first batch that happens to
  be constant from stopping at once (half-width z / n, not 0).

The Wilson interval is a few lines of numpy; importing scipy.stats for it
would add most of a second to every CLI run. tests/stats checks it against
``scipy.stats.binomtest(...).proportion_ci(method='wilson')``.
"""
import math

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

    tie: where true the interval is [mean, mean] (the caller knows the mean is fixed by construction).
    Elsewhere the variance is floored (``floored_var``); with ``bounds`` the interval is the
    effective-n Wilson interval within them, else the normal one. NaN below two units.
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
    """Mean, sd, interval (``mean_ci``) and half-width of the finite per-unit values of a mean (through
    ``exact`` first). ``half_width`` is the larger side of the interval."""
    v = exact(values)
    v = v[np.isfinite(v)]
    n = v.size
    mean = float(v.mean()) if n else float("nan")
    sd = float(v.std(ddof=1)) if n > 1 else float("nan")
    low, high = mean_ci(mean, sd * sd, n, z, bounds)
    return {"mean": mean, "sd": sd, "low": low, "high": high,
            "half_width": max(mean - low, high - mean) if n > 1 else float("nan"), "n": n}


def mean_interval(mean, sd, n, z: float = Z95):
    """Normal interval ``(low, high)`` of an unbounded mean from its sample sd, with the variance floor."""
    return mean_ci(mean, np.asarray(sd, dtype=float) ** 2, n, z)


def difference_sums(values) -> tuple[int, float, float, float]:
    """``(n, pos, neg, sq)`` of finite per-unit differences: their count, the sum of the positive ones, the
    sum of the negative ones' sizes and the sum of squares (what ``difference_ci`` reads)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return v.size, float(v[v > 0].sum()), float(-v[v < 0].sum()), float(np.dot(v, v))


def discordant_counts(pos, neg, sq, span):
    """``(kappa, b, c)``: the size a difference is counted in (sum d^2 / sum |d|; the span where no unit
    differs) and the effective counts of units where A, B did better (see the module; arrays allowed)."""
    pos, neg, sq = (np.asarray(x, dtype=float) for x in (pos, neg, sq))
    moved = pos + neg
    some = moved > 0
    kappa = np.where(some, sq / np.where(some, moved, 1.0), np.asarray(span, dtype=float))
    size = np.where(some, kappa, 1.0)
    return kappa, np.where(some, pos / size, 0.0), np.where(some, neg / size, 0.0)


def tango_statistic(delta, n, b, c):
    """Tango's score statistic for a paired difference delta (in kappa units) with b and c discordant
    units of n: (b - c - n delta) / sqrt(n (2 q + delta (1 - delta))), q the maximum-likelihood share of
    c-units under delta. Decreasing in delta; arrays allowed."""
    two_n = 2 * n
    lin = -b - c + (2 * n - b + c) * delta
    q = (np.sqrt(np.maximum(lin * lin + 4 * two_n * c * delta * (1 - delta), 0.0)) - lin) / (2 * two_n)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (b - c - n * delta) / np.sqrt(n * np.maximum(2 * q + delta * (1 - delta), 0.0))


BISECTIONS = 52        # the interval (-1, 1) halved to 2^-51: below the 1e-9 of ``exact``


def difference_ci(n, pos, neg, sq, span, z: float = Z95, tie=False):
    """``(low, high)`` of the mean of a per-unit difference from ``difference_sums`` (arrays allowed):
    Tango's score interval on the effective discordant counts (see the module), within [-span, span].
    tie: where true (one policy by construction) and no unit differs, [0, 0]. NaN below two units."""
    n = np.asarray(n, dtype=float)
    kappa, b, c = discordant_counts(pos, neg, sq, span)
    safe = np.where(n > 0, n, 1.0)
    est = (b - c) / safe
    lo = (np.full(est.shape, -1.0), est.copy())       # T > z at the first, not at the second
    hi = (est.copy(), np.ones(est.shape))             # T >= -z at the first, not at the second
    for _ in range(BISECTIONS):
        mid = (lo[0] + lo[1]) / 2
        above = tango_statistic(mid, safe, b, c) > z
        lo = (np.where(above, mid, lo[0]), np.where(above, lo[1], mid))
        mid = (hi[0] + hi[1]) / 2
        inside = tango_statistic(mid, safe, b, c) >= -z
        hi = (np.where(inside, mid, hi[0]), np.where(inside, hi[1], mid))
    few = ~(n >= 2) | ~np.isfinite(kappa)
    fixed = np.asarray(tie, dtype=bool) & (b + c == 0)
    low = np.where(few, np.nan, np.where(fixed, 0.0, exact(kappa * lo[1])))
    high = np.where(few, np.nan, np.where(fixed, 0.0, exact(kappa * hi[0])))
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def difference_p(pos, neg, sq) -> float:
    """Two-sided p-value of H0: the mean difference is 0, the score test of ``difference_ci`` at 0 (McNemar's
    z = (b - c) / sqrt(b + c) on the effective counts): 1 when no unit differs, NaN if unknown."""
    if not all(math.isfinite(x) for x in (pos, neg, sq)):
        return math.nan
    _, b, c = (float(x) for x in discordant_counts(pos, neg, sq, 1.0))
    if b + c == 0:
        return 1.0
    return math.erfc(abs(b - c) / math.sqrt(b + c) / math.sqrt(2))


def differences_ci(values, span=None, z: float = Z95, tie: bool = False) -> dict:
    """Mean, sd, interval (``difference_ci``), half-width and p-value (``difference_p``) of the finite per-unit
    differences (through ``exact`` first). span: the largest |d| possible (None: the largest seen).
    ``tie``: an exact tie (``tie`` asked, one policy by construction, and every value 0); ``identical``: every
    value 0 (played identically on the sample: an interval for the units not seen)."""
    v = exact(values)
    v = v[np.isfinite(v)]
    n, pos, neg, sq = difference_sums(v)
    mean = float(v.mean()) if n else float("nan")
    sd = float(v.std(ddof=1)) if n > 1 else float("nan")
    if span is None:
        span = float(np.abs(v).max()) if n else float("nan")
    low, high = difference_ci(n, pos, neg, sq, span, z, tie)
    identical = bool(n > 1 and sq == 0)
    return {"mean": mean, "sd": sd, "low": low, "high": high,
            "half_width": max(mean - low, high - mean) if n > 1 else float("nan"), "n": n,
            "tie": bool(tie and identical), "identical": identical, "p": difference_p(pos, neg, sq) if n > 1
            else float("nan")}
