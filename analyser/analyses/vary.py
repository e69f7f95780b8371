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
follow analyser.stats.intervals: win shares (in [0, 1]) get the effective-n
Wilson interval and scores the normal one, with the variance floor; a
difference gets Tango's score interval on the deals where it is not 0 (within
[-1, 1] for a share, the scores' range for a score), so a run that happens to
be constant never gets a zero-width interval: a difference that is exactly 0
on every deal is "played identically on all n deals", p = 1, with the interval
of the deals not seen (no rule value is proven inert, so vary never prints an
exact tie [0, 0]). A deal aborted under any value
is dropped from all; every later value's row also has its win share change's
bounds over all deals (stats.effects: the group's aborted plays lost under v
and won under the first value, then the other way), printed when more than 1%
of the deals aborted under v or the first value. Fewer than two deals completed
under every value is one line (TooFewCompleted). Olenon's "how much is open team talk
worth?" is ``vary("olenon", "talk", policies=["partner", "shed"])``: team 0
(partner) gains this much win share when every hand is open.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analyser.analyses.aborts import bounds_of, bounds_text, require_completed
from analyser.engine.config import DEFAULT_CHUNK, RunConfig
from analyser.engine.pipeline import Gather, Plan, execute
from analyser.engine.play_args import play_args
from analyser.errors import UserError, choices, counted
from analyser.io.jsonable import jsonable, rows
from analyser.io.numbers import hundred, plural
from analyser.io.results_file import read_results, write_frame
from analyser.stats.effects import EffectTally, effect_table, outcome_groups

KIND = "vary"
METHOD = ("every deal played under each value of the setting, the same seats, policies and stream ids; per "
          "group (team, or seat) and deal, x_v = mean win share (score) of the group's seats under value v; "
          "difference d = x_v - x_first, paired 95% interval from the per-deal d: Tango's score interval on the "
          "deals where d is not 0 (in units of sum d^2 / sum |d|; within [-1, 1] for win shares, the scores' "
          "range for scores; exactly 0 on every deal: played identically, +-z^2 / (deals + z^2) times the "
          "range), two-sided p-value from the same score test; independent: "
          "1.96 sqrt((var_v + var_first) / deals); a deal aborted under any value is dropped; bounds over all "
          "deals when more than 1% aborted: the group's aborted plays counted as lost under v and won under "
          "the first value, then the other way, each with its interval")


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
        return {**{k: jsonable(v) for k, v in self.meta.items()}, "table": rows(self.table), "aborts": self.aborts()}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        write_frame(path, self.table, {**self.meta, "kind": KIND})
        return path

    def differences(self) -> pd.DataFrame:
        """The rows of the values after the first: what changing the setting did."""
        return self.table[self.table["value"] != str(self.meta["values"][0])]

    def aborts(self) -> list[str]:
        """One line per later value and group whose deals aborted more than 1% of the time (under it or the
        first value): the bounds of its win share change over all deals."""
        m, out = self.meta, []
        if "aborts_lost" not in self.table:          # a file written before the bounds were kept
            return out
        for row in self.differences().to_dict("records"):
            line = bounds_text(bounds_of(row, m["deals"]), m["unit"], f"{row['group']} under {row['value']}",
                               f"{row['group']}'s change {m['values'][0]} -> {row['value']}",
                               f" under {row['value']} or {m['values'][0]}")
            out += [line] if line else []
        return out

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<VaryResult {m['game']}: {m['setting']} = {' / '.join(map(str, m['values']))}, "
                 f"{counted(m['deals'], m['unit'])}, seed {m['seed']}>"]
        for _, row in self.differences().iterrows():
            lines.append(f"  {row['group']} ({row['policies']}): win share {row['value']} - {m['values'][0]} = "
                         f"{hundred(row['win_diff'], sign=True)} [{hundred(row['win_diff_ci_low'], sign=True)}, "
                         f"{hundred(row['win_diff_ci_high'], sign=True)}] points")
        lines += [f"  {line}" for line in self.aborts()]
        lines.append("  .table .differences() .meta .plot() .save(path) .to_dict()")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        return (f"<p><b>{html.escape(m['game'])}</b>: {html.escape(m['setting'])} = "
                f"{html.escape(' / '.join(map(str, m['values'])))}, {counted(m['deals'], m['unit'])}, "
                f"seed {m['seed']}</p>" + self.table.to_html(index=False, float_format=lambda x: f"{x:.4f}"))




def vary(game: str = "palace", setting: str | None = None, values=None, policies=None, players: int | None = None,
         n: int | None = None, seed: int = 0, rules: dict | None = None, threads: int | None = None,
         progress: bool | None = None, out=None, unit: str | None = None, deals: int | None = None,
         chunk_size: int = DEFAULT_CHUNK, first_deal: int = 0, backend=None, run_dir=None) -> VaryResult:
    """Play ``n`` deals (default 10,000; ``deals`` is the same number) from ``first_deal`` under
    each value of ``setting`` (default: every value of a choice or on/off setting; give two or
    more for a number) with one line-up. ``rules`` fixes the other settings. See the module
    docstring for the statistics. backend, run_dir: as simulate's."""
    args = play_args(game, players, policies, seed, rules, unit, n=n, deals=deals, first_deal=first_deal,
                     chunk_size=chunk_size, backend=backend, run_dir=run_dir)
    base, count = args.base, args.count
    spec, names = _setting(base.game, setting, rules)
    values = _values(spec, values)
    configs = [RunConfig.build(base.game, players=base.players, policies=list(base.seats), deals=count, seed=seed,
                               rules={**(rules or {}), spec.name: spec.show(v)}, first_deal=args.first_deal)
               for v in values]
    groups = outcome_groups(base.game, base.players)
    tally = EffectTally(len(values), groups)
    plan = Plan.of(configs, count, args.chunk_size, f"{base.game.name}: {spec.name}")
    run = execute(plan, Gather(lambda chunk, recs: tally.add(recs), out), threads=threads, progress=progress,
                  **args.where)
    require_completed(tally.kept, tally.kept + tally.dropped, base.game.unit,
                      f"comparing the values of {spec.name} (paired by deal, completed under every value)")
    meta = {**configs[0].metadata(), "kind": KIND, "setting": spec.name, "values": [spec.show(v) for v in values],
            "settings": names, "deals": count, "completed": tally.kept, "aborted": tally.dropped,
            "threads": run.threads, "seconds": run.seconds, "method": METHOD,
            "groups": [{"group": g, "seats": list(s)} for g, s in groups]}
    table = effect_table(tally, [seat.label() for seat in base.seats], [spec.show(v) for v in values])
    result = VaryResult(table, meta)
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


def load_vary(path: str | Path) -> VaryResult:
    """Read a file written by ``vary(..., out=...)`` / ``VaryResult.save`` back."""
    meta, frame, path = read_results(path, KIND, "a rule comparison (written by `analyser vary --out`)")
    needed = {"group", "value", "win_mean", "win_diff"}
    if not needed <= set(frame.columns) or "values" not in meta or "setting" not in meta:
        raise UserError(f"{path} has damaged rule-comparison metadata or columns")
    frame["value"] = frame["value"].astype(str)
    return VaryResult(frame, meta)
