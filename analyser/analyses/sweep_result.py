"""A sweep's result: the table of settings, the best one and its re-check, the sentences that
describe them, and the results file read back (see analyser.analyses.sweep).
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analyser.analyses.aborts import bounds_of, bounds_text
from analyser.errors import UserError, counted
from analyser.io.jsonable import rows
from analyser.io.numbers import general, hundred, p_short, percent, plural
from analyser.io.results_file import read_results, write_frame

KIND = "sweep"


@dataclass(eq=False)
class SweepResult:
    """One policy over parameter values, in every seat arrangement, on common deals.

    table    one row per setting: the parameter column(s), games (kept deals), aborted (dropped deals),
             win_rate, win_ci_low, win_ci_high, score_mean, score_ci_low, score_ci_high (the swept policy,
             averaged over the arrangements), win_diff, score_diff and their intervals (paired
             difference from the baseline), p_value, p_holm (Holm-adjusted), significant (p_holm < 5%),
             baseline (this setting is the baseline), mean_rank, draw_rate, seat_share (the average seat's
             win share in the same plays: what an equally strong policy wins where draws take some), best,
             and the win share difference's bounds over all deals (stats.paired.BOUND_COLUMNS)
    best     the best setting (highest win_diff): params, row, win share and difference with intervals
    recheck  the best setting and the baseline on a fresh seed: seed, deals, win_rate, win_diff and
             intervals, curse (best - re-check difference) with curse_ci_low / curse_ci_high
    meta     kind, game, unit, players, lineup, seat, policy, parameters (name, values, low, high, integer,
             default), arrangements, baseline, fair_share, family (the multiple-testing control), seed,
             check_seed, deals, first_deal, settings, method, versions, timing
    """
    table: pd.DataFrame
    best: dict
    recheck: dict
    meta: dict

    @property
    def parameters(self) -> list[str]:
        return [p["name"] for p in self.meta["parameters"]]

    def plot(self, value: str = "win_rate"):
        """The curve of ``value`` (``win_rate``, ``win_diff``, ``score_mean``, ``score_diff``) against the
        parameter with its 95% band, values that differ from the baseline marked (a heat map for two)."""
        from analyser.plots.sweep import sweep_curve, sweep_heatmap

        if len(self.parameters) == 1:
            return sweep_curve(self.table, self.meta, x=self.parameters[0], value=value)
        return sweep_heatmap(self.table, self.meta, x=self.parameters[1], y=self.parameters[0], value=value)

    def aborts(self) -> str | None:
        """The bounds of the best setting's difference over all deals when more than 1% of its deals aborted,
        and how many settings are past 1%."""
        m, rows = self.meta, self.table.to_dict("records")
        past = [r for r in rows if bounds_of(r, m["deals"])["shown"]]
        line = bounds_text(bounds_of(rows[self.best["row"]], m["deals"]), m["unit"], "the best setting",
                           "its difference from the baseline", " in some arrangement (of it or the baseline)")
        if not past:
            return None
        head = f"{len(past)} of {len(rows)} settings have more than 1% of their {plural(m['unit'])} aborted"
        return f"{head} (aborts_lost, aborts_won: their bounds over all deals)" + (f"; best: {line}" if line else "")

    def to_dict(self) -> dict:
        m = self.meta
        out = {k: m.get(k) for k in ("kind", "game", "unit", "players", "lineup", "seat", "policy", "swept",
                                     "parameters", "arrangements", "baseline", "fair_share", "family", "deals",
                                     "first_deal", "seed", "check_seed", "settings", "streams", "method")}
        out.update(table=rows(self.table), aborts=self.aborts(),
                   best=self.best, recheck=self.recheck, threads=m.get("threads"), seconds=m.get("seconds"),
                   games_per_second=m.get("games_per_second"), versions=m.get("versions"))
        return out

    def save(self, path: str | Path) -> Path:
        """Parquet: the table, with the metadata (best and re-check included) under the analyser key."""
        path = Path(path)
        write_frame(path, self.table, {**self.meta, "best": self.best, "recheck": self.recheck})
        return path

    def __repr__(self) -> str:
        m, b, aborts = self.meta, self.best, self.aborts()
        lines = [f"<SweepResult {m['game']}: {m['swept']} against {others_text(m)}, in every seat "
                 f"({arrangements_text(m)}); {m['players']} players, {len(self.table)} settings x {m['deals']:,} "
                 f"{plural(m['unit'])}, seed {m['seed']}>",
                 f"  {baseline_text(m)}; {fair_text(m)}",
                 f"  best: {best_text(b)}",
                 f"  {family_text(m['family'])}",
                 f"  {recheck_text(self.recheck, m['unit'])}",
                 *([f"  {aborts}"] if aborts else []),
                 "  .table .best .recheck .meta .plot() .save(path) .to_dict()"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        parts = [f"<b>{html.escape(m['game'])}</b>: {html.escape(m['swept'])} against "
                 f"{html.escape(others_text(m))}, in every seat ({html.escape(arrangements_text(m))}); "
                 f"{m['players']} players, {counted(m['deals'], m['unit'])} per setting (common deals), "
                 f"seed {m['seed']}; {html.escape(fair_text(m))}.",
                 baseline_text(m) + ".", "Best: " + best_text(self.best) + ".", family_text(m["family"]) + ".",
                 recheck_text(self.recheck, m["unit"]) + "."]
        head = "<p>" + "<br>".join(html.escape(p) if i else p for i, p in enumerate(parts)) + "</p>"
        return head + self.table.to_html(index=False, float_format=lambda x: f"{x:.4f}")


def setting_text(params: dict) -> str:
    return ", ".join(f"{k}={general(v)}" for k, v in params.items())


def others_text(meta: dict) -> str:
    return ", ".join(p for i, p in enumerate(meta["lineup"]) if i != meta["seat"]) or "-"


def arrangements_text(meta: dict) -> str:
    a = meta["arrangements"]
    return f"{a['name']}: {a['count']} arrangements"


def baseline_text(meta: dict) -> str:
    b = meta["baseline"]
    source = "the defaults" if b["defaults"] else "as given"
    where = "one of the values" if b["row"] is not None else "not among the values, so played too on the same deals"
    return f"baseline {setting_text(b['params'])} ({source}; {where})"


def fair_text(meta: dict) -> str:
    """The fair share, and what an equal seat wins beside the baseline where draws take some."""
    b, unit = meta["baseline"], plural(meta["unit"])
    text = f"fair share {percent(meta['fair_share'])}"
    if b.get("draw_rate"):
        text += (f" of decided {unit}; with the baseline's {percent(b['draw_rate'])} draws an average seat wins "
                 f"{percent(b['seat_share'])}")
    return text


def best_text(b: dict) -> str:
    return (f"{setting_text(b['params'])}: win share {percent(b['win_rate'])} [{percent(b['win_ci_low'])}, "
            f"{percent(b['win_ci_high'])}]; vs baseline {_signed(b['win_diff'])} points "
            f"[{_signed(b['win_diff_ci_low'])}, {_signed(b['win_diff_ci_high'])}], Holm p {p_short(b['p_holm'])}")


def family_text(family: dict) -> str:
    return (f"{family['flagged']} of {family['tests']} values differ from the baseline ({family['method']}, "
            f"family-wise {100 * family['alpha']:g}%)")


def recheck_text(r: dict, unit: str = "game") -> str:
    return (f"re-check on seed {r['seed']} ({counted(r['deals'], unit)}): win share {percent(r['win_rate'])} "
            f"[{percent(r['win_ci_low'])}, {percent(r['win_ci_high'])}], vs baseline {_signed(r['win_diff'])} points; "
            f"winner's curse (best - re-check difference) {_signed(r['curse'])} points [{_signed(r['curse_ci_low'])}, "
            f"{_signed(r['curse_ci_high'])}]")


def _signed(x) -> str:
    return hundred(x, sign=True)


def load_sweep(path: str | Path) -> SweepResult:
    """Read a file written by ``sweep(..., out=...)`` / ``SweepResult.save`` back."""
    meta, frame, path = read_results(path, KIND, "a sweep (written by `analyser sweep --out`)")
    try:
        best, recheck = meta.pop("best"), meta.pop("recheck")
        missing = [n for n in [p["name"] for p in meta["parameters"]] + ["win_rate", "win_diff"] if n not in frame]
        missing += [k for k in ("arrangements", "baseline", "family") if k not in meta]   # an older layout
        if missing:
            raise KeyError(", ".join(missing))
    except (ValueError, KeyError, TypeError) as err:
        if isinstance(err, UserError):
            raise
        raise UserError(f"{path} has damaged sweep metadata or columns ({type(err).__name__}: {err})") from None
    return SweepResult(frame, best, recheck, meta)
