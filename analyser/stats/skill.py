"""How much skill matters against the deal: relative skill and the luck share, from per-deal values.

**Relative skill** (Borm and van der Genugten, 2001). Three players each play the same deals against
one field: a beginner (uniform random legal play), the strong player and the strong player's open-cards
variant (a fictive player who sees the chance outcomes: every hidden card). With r_b[d], r_s[d], r_o[d]
each one's result on deal d (any scale, the same for all three),

    learning effect LE = mean(r_s - r_b),   random effect RE = mean(r_o - r_s),
    RS = LE / (LE + RE) = mean(r_s - r_b) / mean(r_o - r_b).

RS is 0 in a game of pure chance (skill adds nothing, knowing the deal everything), 1 in a game without
chance (the open player has nothing to see) and in between elsewhere. It does not change when every
result is scaled or shifted alike. LE and RE get ``intervals.differences_ci``, each paired by deal
(Tango's score interval). RS's interval is a percentile bootstrap over deals: a replicate resamples
deals with their three results together (the deal is the unit; the three share it), so the pairing is
kept. A ratio has no interval when its denominator may be 0: when more than ``ALPHA / 2`` of the
replicates have LE + RE <= 0 the interval is unbounded (NaN), and the result says so. When one effect is
0 on every deal (the strong and open players played alike on all n deals), the bootstrap would see no
variation and give [1, 1]; that is identical play on the sample, not proof, so the bound on that side
is moved to what the effect's own interval for the deals not seen allows (differences_ci: about
+-3.84/n of the span), as every comparison here does.

**Luck share**: each deal is replayed R times with fresh policy streams (the same cards, other draws of
every policy), and y[d, r, g] is group g's (seat's or team's) win share in replay r of deal d. The
share of y's variance that is the deal's is the one-way intra-class correlation ICC(1) with the deal as
the class (Shrout and Fleiss 1979): per group, MSB = R * var_d(mean_r y) and MSW = mean_d var_r(y); over
the groups both are averaged, and

    ICC = (MSB - MSW) / (MSB + (R - 1) MSW).

1 means the deal alone decides (deterministic policies: every replay is the same game), 0 that the deal
tells nothing about who wins. Its interval is a percentile bootstrap over deals (every group and replay
of a deal together); a replicate whose within-deal variance is below the floor 1 / (n (R - 1)) (every
replay the same on the sample) is given the floor, so a constant sample keeps a width instead of [1, 1].
The groups of one deal are not independent (their shares add up), which is why the bootstrap resamples
deals, never seats.

benchmarks/calibrate_skill.py measures both intervals' coverage on toys whose values are known.
"""
from __future__ import annotations

import numpy as np

from analyser.stats.intervals import Z95, differences_ci, exact

ALPHA = 0.05
DEFAULT_BOOTSTRAP = 2000
CHUNK = 256          # replicates drawn at a time (an index array of CHUNK x deals)

RS_METHOD = ("RS = LE / (LE + RE) (Borm and van der Genugten 2001): LE = mean over deals of (strong - beginner), "
             "RE = mean of (open-cards strong - strong), every result against the same field on the same deals; "
             "LE and RE: paired 95% intervals (Tango's score interval on the deals that differ); RS: percentile "
             "bootstrap over deals ({b} replicates, the deal's three results resampled together), unbounded when "
             "LE + RE <= 0 in more than 2.5% of the replicates; an effect 0 on every deal moves RS's bound on its "
             "side to its interval for the deals not seen.")
ICC_METHOD = ("Luck share = ICC(1) with the deal as the class: each deal replayed R times with fresh policy "
              "streams, y = a seat's (team's) win share; per seat MSB = R var_d(mean_r y), MSW = mean_d var_r y, "
              "averaged over seats; ICC = (MSB - MSW) / (MSB + (R - 1) MSW); 95% interval: percentile bootstrap "
              "over deals ({b} replicates), within-deal variance floored at 1 / (n (R - 1)).")


def _replicates(n: int, bootstrap: int, seed: int):
    """Index arrays of bootstrap replicates over n deals, CHUNK at a time."""
    rng = np.random.default_rng(seed)
    left = bootstrap
    while left > 0:
        k = min(CHUNK, left)
        yield rng.integers(0, n, size=(k, n))
        left -= k


def _ratio(le, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, le / denominator, np.nan)


def relative_skill(beginner, strong, open_, span: float | None = None, z: float = Z95,
                   bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 0) -> dict:
    """RS with its bootstrap interval and LE, RE with their paired intervals (see the module docstring).

    beginner, strong, open_: each player's result per deal against the field (NaN: the deal did not complete
    for that player; it is dropped for all three). span: the largest |difference| two results can have
    (None: the largest seen), for LE's and RE's intervals."""
    r = np.vstack([np.asarray(x, dtype=float) for x in (beginner, strong, open_)])
    keep = np.all(np.isfinite(r), axis=0)
    b, s, o = exact(r[:, keep])
    n = int(keep.sum())
    le_d, re_d = exact(s - b), exact(o - s)
    le, re_ = differences_ci(le_d, span, z), differences_ci(re_d, span, z)
    out = {"deals": n, "dropped": int((~keep).sum()), "bootstrap": bootstrap,
           "le": le["mean"], "le_ci_low": le["low"], "le_ci_high": le["high"], "le_p": le["p"],
           "le_identical": le["identical"],
           "re": re_["mean"], "re_ci_low": re_["low"], "re_ci_high": re_["high"], "re_p": re_["p"],
           "re_identical": re_["identical"],
           "rs": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "bounded": False,
           "method": RS_METHOD.format(b=bootstrap)}
    if n < 2:
        return out
    total = le["mean"] + re_["mean"]
    out["rs"] = float(_ratio(le["mean"], total)) if total > 0 else float("nan")
    reps = []
    for idx in _replicates(n, bootstrap, seed):
        le_r, re_r = le_d[idx].mean(axis=1), re_d[idx].mean(axis=1)
        reps.append(_ratio(le_r, le_r + re_r))
    reps = np.concatenate(reps)
    bad = float(np.mean(~np.isfinite(reps)))
    if bad > ALPHA / 2 or not np.isfinite(out["rs"]):
        return out
    low, high = np.nanpercentile(reps, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)])
    if re_["identical"]:                          # no deal told strong from open: RE may still be re_high
        low = min(low, le["mean"] / (le["mean"] + re_["high"])) if le["mean"] > 0 else low
    if le["identical"]:                           # likewise LE
        high = max(high, le["high"] / (le["high"] + re_["mean"])) if re_["mean"] > 0 else high
    out.update(ci_low=float(low), ci_high=float(high), bounded=True)
    return out


def _mean_squares(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """MSB and MSW averaged over groups, for y of shape (..., deals, replays, groups)."""
    r = y.shape[-2]
    msb = r * y.mean(axis=-2).var(axis=-2, ddof=1)          # (..., groups)
    msw = y.var(axis=-2, ddof=1).mean(axis=-2)
    return msb.mean(axis=-1), msw.mean(axis=-1)


def _icc(msb, msw, r: int):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (msb - msw) / (msb + (r - 1) * msw)


def luck_share(values, bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 0) -> dict:
    """The share of the win variance that is the deal's (ICC(1), see the module docstring) with its
    bootstrap interval. values: (deals, replays) or (deals, replays, groups); a deal with a NaN anywhere
    (an aborted replay) is dropped."""
    y = np.asarray(values, dtype=float)
    if y.ndim == 2:
        y = y[:, :, None]
    keep = np.all(np.isfinite(y), axis=(1, 2))
    y = y[keep]
    n, r = y.shape[0], y.shape[1]
    out = {"deals": int(n), "replays": int(r), "dropped": int((~keep).sum()), "bootstrap": bootstrap,
           "luck_share": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "msb": float("nan"),
           "msw": float("nan"), "identical": False, "method": ICC_METHOD.format(b=bootstrap)}
    if n < 2 or r < 2:
        return out
    msb, msw = (float(x) for x in _mean_squares(y))
    floor = 1.0 / (n * (r - 1))
    reps = []
    for idx in _replicates(n, bootstrap, seed):
        b, w = _mean_squares(y[idx])
        reps.append(_icc(b, np.maximum(w, floor), r))
    reps = np.concatenate(reps)
    low, high = np.nanpercentile(reps, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)])
    icc = float(_icc(msb, msw, r)) if msb + msw > 0 else float("nan")
    out.update(luck_share=icc, ci_low=float(low), ci_high=float(min(max(high, icc), 1.0)), msb=msb, msw=msw,
               identical=bool(msw == 0))
    return out
