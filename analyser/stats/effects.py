"""What a rule setting is worth: per-deal group values under each value of it, paired by deal.

``vary`` and the balance report's rules section both play one line-up on the
same deals under each value of a setting; per group (team, or seat) and deal,
x_v is the group's mean win share (score) under value v and d = x_v - x_first
(exact to 1e-9). :class:`EffectTally` keeps the sums of x, x^2, d, |d| and
d^2 and the range of the scores (a deal aborted under any value dropped), and
:func:`effect_table` reads them: each value's mean with its 95% interval and,
for the later values, the paired difference from the first with its score
interval (intervals.difference_ci: Tango's, on the deals where d is not 0;
within [-1, 1] for a share, the scores' range for a score) and p-value, the
independent half-width and the variance reduction. A difference that is 0 on
every deal is "played identically" with the interval of the deals not seen
(``identical``); it is never an exact tie [0, 0]: the values differ, and no
rule value is known to be inert by construction.

Aborted deals: the differences are over the deals completed under both values,
which flatters a value under which the worst deals loop to the cap; so for the
win share the tally also keeps, over every deal, the sums of the difference
with the group's aborted plays counted as lost under v and won under the first
value, and the other way round (stats.paired.abort_values), for the bounds of
stats.paired.bounds_from_sums: ``aborts_lost`` / ``aborts_won`` columns.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analyser.stats.intervals import Z95, difference_ci, difference_p, exact, mean_ci
from analyser.stats.paired import BOUND_COLUMNS, WIN_RANGE, abort_values, aborted_plays, bound_cells, bounds_from_sums

QUANTITIES = ("win", "score")


def outcome_groups(game, players: int) -> list[tuple[str, tuple[int, ...]]]:
    """Teams in a team game, else seats: (name, seats)."""
    if game.teams:
        teams = game.team_of(players)
        return [(f"team {t}", tuple(s for s in range(players) if teams[s] == t)) for t in sorted(set(teams))]
    return [(f"seat {s}", (s,)) for s in range(players)]


def group_values(rec: np.ndarray, groups) -> np.ndarray:
    """group x quantity x deal: each group's mean win share and score per deal."""
    return np.stack([np.stack([rec[q][:, list(seats)].mean(axis=1) for q in QUANTITIES]) for _, seats in groups])


class EffectTally:
    """Sums of x and d (see the module) over the deals added so far, per value, group and quantity."""

    def __init__(self, values: int, groups: list):
        self.groups = groups
        self.sums = np.zeros((values, len(groups), len(QUANTITIES), 2))     # sum x, sum x^2
        self.dsums = np.zeros((values, len(groups), len(QUANTITIES), 3))    # sum d, sum d^2, sum |d|
        self.range = np.array([[np.inf, -np.inf]] * len(QUANTITIES))       # per quantity: lowest, highest x
        self.kept = self.dropped = 0
        self.bsums = np.zeros((values, len(groups), 2, 3))     # win share bounds (lost, won): pos, neg, sq
        self.baborted = np.zeros(values, np.int64)           # deals aborted under v or the first value

    def add(self, recs: list[np.ndarray]) -> EffectTally:
        """One block of deals: ``recs[v]`` the records under value v of exactly these deals."""
        cut = aborted_plays(recs)
        win = QUANTITIES.index("win")
        done = np.stack([np.where(c, 0.0, group_values(r, self.groups)[:, win]) for r, c in zip(recs, cut,
                                                                                              strict=True)])
        for v in range(1, len(recs)):
            lost, won = abort_values(done[v] - done[0], cut[v], cut[0], *WIN_RANGE)   # group x deal
            for side, values in enumerate((lost, won)):
                self.bsums[v, :, side] += np.stack([np.where(values > 0, values, 0.0).sum(axis=-1),
                                                    -np.where(values < 0, values, 0.0).sum(axis=-1),
                                                    (values * values).sum(axis=-1)], axis=-1)
            self.baborted[v] += int((cut[v] | cut[0]).sum())
        ok = ~cut.any(axis=0)
        self.kept += int(ok.sum())
        self.dropped += int((~ok).sum())
        x = np.stack([group_values(r[ok], self.groups) for r in recs])   # value x group x quantity x deal
        self.sums[..., 0] += x.sum(axis=-1)
        self.sums[..., 1] += (x * x).sum(axis=-1)
        d = exact(x - x[:1])
        self.dsums[..., 0] += d.sum(axis=-1)
        self.dsums[..., 1] += (d * d).sum(axis=-1)
        self.dsums[..., 2] += np.abs(d).sum(axis=-1)
        if x.shape[-1]:
            self.range[:, 0] = np.minimum(self.range[:, 0], x.min(axis=(0, 1, 3)))
            self.range[:, 1] = np.maximum(self.range[:, 1], x.max(axis=(0, 1, 3)))
        return self

    def bounds(self, v: int, g: int) -> dict:
        """Value v's win share difference from the first for group g, bounded over every deal (abort_bounds)."""
        deals = self.kept + self.dropped
        lost, won = ((deals, *self.bsums[v, g, side]) for side in (0, 1))
        return bounds_from_sums(deals, int(self.baborted[v]), lost, won, 1.0)

    def span(self, q: int) -> float:
        """The largest |d| possible for quantity q: 1 for a share, the range of the groups' scores seen."""
        low, high = self.range[q]
        return 1.0 if QUANTITIES[q] == "win" else float(high - low) if high >= low else float("nan")


def effect_table(tally: EffectTally, labels: list[str], value_names: list) -> pd.DataFrame:
    """The table of vary (and of the report's rules section): one row per value and group; for the later
    values the win share difference's bounds over all deals (stats.paired.BOUND_COLUMNS)."""
    n = tally.kept
    rows = []
    for v, value in enumerate(value_names):
        for g, (name, seats) in enumerate(tally.groups):
            row = {"group": name, "seats": ",".join(map(str, seats)),
                   "policies": " + ".join(labels[s] for s in seats), "value": value, "deals": n}
            for q, quantity in enumerate(QUANTITIES):
                row.update(_quantity_cells(quantity, tally.sums[v, g, q], tally.sums[0, g, q],
                                           tally.dsums[v, g, q], n, v > 0, tally.span(q)))
            row.update(bound_cells(tally.bounds(v, g)) if v else dict.fromkeys(BOUND_COLUMNS, math.nan))
            rows.append(row)
    frame = pd.DataFrame(rows)
    frame["value"] = frame["value"].astype(str)
    return frame


def _quantity_cells(quantity: str, s: np.ndarray, s0: np.ndarray, ds: np.ndarray, n: int, later: bool,
                    span: float) -> dict:
    """One quantity's columns of one row: the mean with its interval, and for a later value the paired
    difference from the first (interval, p-value, independent half-width, variance reduction, ``identical``:
    d was 0 on every deal)."""
    bounds = (0.0, 1.0) if quantity == "win" else None
    mean, var = moments(s, n)
    low, high = mean_ci(mean, var, n, bounds=bounds) if n else (math.nan, math.nan)
    out = {f"{quantity}_mean": mean, f"{quantity}_ci_low": low, f"{quantity}_ci_high": high}
    dmean, dvar = moments(ds, n)
    _, var0 = moments(s0, n)
    identical = later and n > 1 and ds[1] == 0     # every d exactly 0 (d went through intervals.exact)
    pos, neg = (ds[2] + ds[0]) / 2, (ds[2] - ds[0]) / 2
    dlow, dhigh = difference_ci(n, pos, neg, ds[1], span) if later and n else (math.nan, math.nan)
    paired = Z95 * math.sqrt(dvar / n) if later and n > 1 and not identical else math.nan
    independent = Z95 * math.sqrt((var + var0) / n) if later and n else math.nan
    out.update({f"{quantity}_diff": dmean if later else math.nan, f"{quantity}_diff_ci_low": dlow,
                f"{quantity}_diff_ci_high": dhigh, f"{quantity}_diff_identical": identical,
                f"{quantity}_diff_p": difference_p(pos, neg, ds[1]) if later and n > 1 else math.nan,
                f"{quantity}_diff_independent_half_width": independent,
                f"{quantity}_variance_reduction": (independent / paired) ** 2 if paired > 0 else math.nan})
    return out


def moments(s: np.ndarray, n: int) -> tuple[float, float]:
    """Mean and sample variance from (sum, sum of squares) of n values."""
    if n == 0:
        return math.nan, math.nan
    mean = s[0] / n
    var = max(s[1] - n * mean * mean, 0.0) / (n - 1) if n > 1 else math.nan
    return float(mean), float(var)
