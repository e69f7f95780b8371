"""What one rule setting is worth: the same line-up on the same deals under each value.

``vary(game, setting="talk", values=["none", "open"], policies=[...])`` plays
every deal once under each value of one setting (the other settings fixed),
with the same seats, policies and stream ids, so that only the setting
differs. Deals depend only on (seed, unit), so it is the same cards under
every value. For each group of seats (each team in a team game, else each
seat) and deal d, x_v[d] is the group's mean win share (and score) under value
v. Reported per group and value: the mean of x_v with a 95% interval;
and for every value after the first, the difference from the first value,
mean of d = x_v - x_first with the paired 95% interval and its two-sided
p-value, beside the half-width that independent deals of the same number
would give (z sqrt((var_v + var_first) / n)) and their ratio of variances (how
many times as many independent deals the same precision needs). Intervals
follow analyser.stats.intervals: win shares (in [0, 1]) and their
differences (in [-1, 1]) get the effective-n Wilson interval, scores the
normal one, both with the variance floor s^2 + 1/n, so a run that happens to
be constant never gets a zero-width interval; a difference that is exactly 0
on every deal is an exact tie, [0, 0], p = 1. A deal aborted under any value
is dropped from all. Olenon's "how much is open team talk
worth?" is ``vary("olenon", "talk", policies=["partner", "shed"])``: team 0
(partner) gains this much win share when every hand is open.
"""
from __future__ import annotations

import html
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.analyses.compare import _plain, _rows, _write
from analyser.engine.config import DEFAULT_CHUNK, RunConfig
from analyser.engine.errors import Interrupted, UserError, choices
from analyser.engine.registry import plural
from analyser.io.results_file import read_results
from analyser.stats.intervals import Z95, exact, floored_var, mean_ci
from analyser.stats.multiple import mean_p

KIND = "vary"
METHOD = ("every deal played under each value of the setting, the same seats, policies and stream ids; per "
          "group (team, or seat) and deal, x_v = mean win share (score) of the group's seats under value v; "
          "difference d = x_v - x_first, paired 95% interval from the per-deal d with the variance floor "
          "s^2 + 1/deals (effective-n Wilson within [-1, 1] for win shares, normal for scores; exactly 0 on "
          "every deal: an exact tie, [0, 0]), two-sided p-value from the same floored variance; independent: "
          "1.96 sqrt((var_v + var_first) / deals); a deal aborted under any value is dropped")
QUANTITIES = ("win", "score")


@dataclass
class VaryResult:
    """``table``: one row per group and value (value, share and score with 95% intervals;
    for values after the first, the paired difference from the first). ``meta``: the
    configuration (game, players, policies, settings, the varied setting and its values,
    seed, deals, versions)."""

    table: pd.DataFrame
    meta: dict

    def plot(self):
        """Win share of each group under each value, with 95% intervals (a matplotlib Figure)."""
        from analyser.plots.vary import vary_figure

        return vary_figure(self)

    def to_dict(self) -> dict:
        return {**{k: _plain(v) for k, v in self.meta.items()}, "table": _rows(self.table)}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        _write(path, self.table, {**self.meta, "kind": KIND})
        return path

    def differences(self) -> pd.DataFrame:
        """The rows of the values after the first: what changing the setting did."""
        return self.table[self.table["value"] != str(self.meta["values"][0])]

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<VaryResult {m['game']}: {m['setting']} = {' / '.join(map(str, m['values']))}, "
                 f"{m['deals']:,} {plural(m['unit'])}, seed {m['seed']}>"]
        for _, row in self.differences().iterrows():
            lines.append(f"  {row['group']} ({row['policies']}): win share {row['value']} - {m['values'][0]} = "
                         f"{_points(row['win_diff'])} [{_points(row['win_diff_ci_low'])}, "
                         f"{_points(row['win_diff_ci_high'])}] points")
        lines.append("  .table .differences() .meta .plot() .save(path) .to_dict()")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        return (f"<p><b>{html.escape(m['game'])}</b>: {html.escape(m['setting'])} = "
                f"{html.escape(' / '.join(map(str, m['values'])))}, {m['deals']:,} {plural(m['unit'])}, "
                f"seed {m['seed']}</p>" + self.table.to_html(index=False, float_format=lambda x: f"{x:.4f}"))


def _points(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:+.2f}"


def vary(game: str = "palace", setting: str | None = None, values=None, policies=None, players: int | None = None,
         n: int | None = None, seed: int = 0, rules: dict | None = None, threads: int | None = None,
         progress: bool | None = None, out=None, unit: str | None = None, deals: int | None = None,
         chunk_size: int = DEFAULT_CHUNK) -> VaryResult:
    """Play ``n`` deals (default 10,000) under each value of ``setting`` (default: every
    value of a choice or on/off setting; give two or more for a number) with one line-up.
    ``rules`` fixes the other settings. See the module docstring for the statistics."""
    from analyser.engine.pipeline import ChunkRunner, chunks, set_threads
    from analyser.engine.progress import in_notebook, preparing, progress_bar

    count = n if n is not None else deals if deals is not None else 10_000
    base = RunConfig.build(game, players, policies, count, seed, rules, 0, None, unit)
    spec, names = _setting(base.game, setting, rules)
    values = _values(spec, values)
    threads = set_threads(threads)
    progress = in_notebook() if progress is None else progress
    configs = [RunConfig.build(base.game, base.players, list(base.seats), count, seed,
                               {**(rules or {}), spec.name: spec.show(v)}, 0, None, None) for v in values]
    groups = outcome_groups(base)
    with preparing(progress):
        runners = [ChunkRunner(c) for c in configs]
    sums = np.zeros((len(values), len(groups), len(QUANTITIES), 2))        # sum x, sum x^2
    dsums = np.zeros((len(values), len(groups), len(QUANTITIES), 2))       # sum d, sum d^2 (d from value 0)
    kept = dropped = 0
    start = time.perf_counter()
    try:
        with progress_bar(count * len(values), f"{base.game.name}: {spec.name}", progress) as bar:
            for first, size in chunks(0, count, chunk_size):
                recs = [r.run(first, size) for r in runners]
                ok = ~np.any([r["aborted"] for r in recs], axis=0)
                kept += int(ok.sum())
                dropped += int((~ok).sum())
                x = np.stack([group_values(r[ok], groups) for r in recs])   # value x group x quantity x deal
                sums[..., 0] += x.sum(axis=-1)
                sums[..., 1] += (x * x).sum(axis=-1)
                d = exact(x - x[:1])
                dsums[..., 0] += d.sum(axis=-1)
                dsums[..., 1] += (d * d).sum(axis=-1)
                if bar:
                    bar.advance(size * len(values), f"{kept + dropped:,} of {count:,} {plural(base.game.unit)}")
    except KeyboardInterrupt:
        kept_file = f"; {out} was left as it was" if out is not None and Path(out).exists() else ""
        raise Interrupted(f"interrupted after {kept + dropped:,} {plural(base.game.unit)}{kept_file}") from None
    if kept == 0:
        raise UserError(f"all {dropped:,} {plural(base.game.unit)} hit the action cap under some value of "
                        f"{spec.name}: nothing completed to compare")
    meta = {**base.metadata(), "kind": KIND, "setting": spec.name, "values": [spec.show(v) for v in values],
            "settings": names, "deals": count, "completed": kept, "aborted": dropped, "threads": threads,
            "seconds": time.perf_counter() - start, "method": METHOD,
            "groups": [{"group": g, "seats": list(s)} for g, s in groups]}
    result = VaryResult(effect_table(base, groups, values, spec, sums, dsums, kept), meta)
    if out is not None:
        result.save(out)
    return result


def _setting(game, setting, rules):
    """The SettingSpec to vary, and the other settings as users name them (for the caption)."""
    known = {s.name: s for s in game.settings}
    if setting is None or setting not in known:
        what = "name the setting to vary" if setting is None else f"unknown rule '{setting}' for {game.name}"
        raise UserError(f"{what}; valid: {choices(known)}")
    if game.fixed and setting in game.fixed:
        raise UserError(f"rule {setting} is fixed when simulating single {plural(game.unit)}")
    if rules and setting in rules:
        raise UserError(f"rule {setting} is the one varied: give its values, not a fixed --rule")
    fixed = game.parse_settings(rules)
    names = {s.name: ("varied" if s.name == setting else s.show(fixed[s.name])) for s in game.settings}
    return known[setting], names


def _values(spec, values) -> list[int]:
    if values is None:
        if spec.kind == "int":
            raise UserError(f"rule {spec.name} takes a number: give two or more values, e.g. "
                            f"{spec.name}={spec.default},{min(spec.default + 1, spec.high)}")
        values = list(spec.options) if spec.kind == "choice" else ["off", "on"]
    if isinstance(values, str):
        values = values.split(",")
    parsed = [spec.parse(v) for v in values]
    if len(parsed) < 2 or len(set(parsed)) != len(parsed):
        raise UserError(f"give two or more different values of {spec.name}, not {', '.join(map(str, values))}")
    return parsed


def outcome_groups(config) -> list[tuple[str, tuple[int, ...]]]:
    """Teams in a team game, else seats: (name, seats)."""
    if config.game.teams:
        teams = config.game.team_of(config.players)
        return [(f"team {t}", tuple(s for s in range(config.players) if teams[s] == t)) for t in sorted(set(teams))]
    return [(f"seat {s}", (s,)) for s in range(config.players)]


def group_values(rec: np.ndarray, groups) -> np.ndarray:
    """group x quantity x deal: each group's mean win share and score per deal."""
    return np.stack([np.stack([rec[q][:, list(seats)].mean(axis=1) for q in QUANTITIES]) for _, seats in groups])


def effect_table(config, groups, values, spec, sums, dsums, n) -> pd.DataFrame:
    """vary's table, from the per-deal sums of group_values (also the balance report's, analyser.reports)."""
    labels = [seat.label() for seat in config.seats]
    rows = []
    for v, value in enumerate(values):
        for g, (name, seats) in enumerate(groups):
            row = {"group": name, "seats": ",".join(map(str, seats)),
                   "policies": " + ".join(labels[s] for s in seats), "value": spec.show(value), "deals": n}
            for q, quantity in enumerate(QUANTITIES):
                row.update(_quantity_cells(quantity, sums[v, g, q], sums[0, g, q], dsums[v, g, q], n, v > 0))
            rows.append(row)
    frame = pd.DataFrame(rows)
    frame["value"] = frame["value"].astype(str)
    return frame


def _quantity_cells(quantity: str, s: np.ndarray, s0: np.ndarray, ds: np.ndarray, n: int, later: bool) -> dict:
    """One quantity's columns of one row: the mean with its interval, and for a later value the paired
    difference from the first (interval, p-value, independent half-width, variance reduction)."""
    bounds, dbounds = ((0.0, 1.0), (-1.0, 1.0)) if quantity == "win" else (None, None)
    mean, var = _moments(s, n)
    low, high = mean_ci(mean, var, n, bounds=bounds) if n else (math.nan, math.nan)
    out = {f"{quantity}_mean": mean, f"{quantity}_ci_low": low, f"{quantity}_ci_high": high}
    dmean, dvar = _moments(ds, n)
    _, var0 = _moments(s0, n)
    tie = later and n > 1 and ds[1] == 0           # every d exactly 0 (d went through intervals.exact)
    dlow, dhigh = mean_ci(dmean, dvar, n, bounds=dbounds, tie=tie) if later and n else (math.nan, math.nan)
    paired = Z95 * math.sqrt(floored_var(dvar, n) / n) if later and n > 1 and not tie else math.nan
    independent = Z95 * math.sqrt((var + var0) / n) if later and n else math.nan
    out.update({f"{quantity}_diff": dmean if later else math.nan, f"{quantity}_diff_ci_low": dlow,
                f"{quantity}_diff_ci_high": dhigh,
                f"{quantity}_diff_p": mean_p(dmean, dvar, n, tie) if later else math.nan,
                f"{quantity}_diff_independent_half_width": independent,
                f"{quantity}_variance_reduction": (independent / paired) ** 2 if paired > 0 else math.nan})
    return out


def _moments(s: np.ndarray, n: int) -> tuple[float, float]:
    """Mean and sample variance from (sum, sum of squares) of n values."""
    if n == 0:
        return math.nan, math.nan
    mean = s[0] / n
    var = max(s[1] - n * mean * mean, 0.0) / (n - 1) if n > 1 else math.nan
    return float(mean), float(var)


def load_vary(path: str | Path) -> VaryResult:
    """Read a file written by ``vary(..., out=...)`` / ``VaryResult.save`` back."""
    meta, frame, path = read_results(path, KIND, "a rule comparison (written by `analyser vary --out`)")
    needed = {"group", "value", "win_mean", "win_diff"}
    if not needed <= set(frame.columns) or "values" not in meta or "setting" not in meta:
        raise UserError(f"{path} has damaged rule-comparison metadata or columns")
    frame["value"] = frame["value"].astype(str)
    return VaryResult(frame, meta)
