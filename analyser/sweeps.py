"""Parameter sweeps: one seat's policy played over a range of parameter values on common deals.

``sweep("palace", ["pickup:max_pile=0..12", "saver"], players=4)`` plays the same
deals (first_deal .. first_deal + n - 1, same seed) once per value of the swept
parameter(s), the other seats fixed, and reports the swept seat's win share and
mean score with 95% intervals per value, the best value, and that best value
re-checked on a fresh seed.

Value syntax, in one ``--policy`` (``name:param=VALUES,...``):

  lo..hi          lo, lo + 1, ..., hi (step 1)
  lo..hi:step     lo, lo + step, ... up to hi (``0..1:0.25``: 0, 0.25, 0.5, 0.75, 1)
  a|b|c           a list (``|``, since commas separate parameters)

One or two parameters may be swept (two: every pair, the first varying slowest);
at most MAX_VALUES settings in all. Every value is checked against the
parameter's range and kind (whole number or not).

Line-up: one policy per seat (the one with VALUES is swept); or, with more than
two players, the swept policy then one policy for every other seat; or the
swept policy alone, when every other seat plays that policy with the swept
parameters at their defaults (the other parameters as given).

Common deals and no recompiling: the engine takes a policy's parameters as a
float64 row, so ONE ChunkRunner is built (compiled or loaded once) and its
``params[seat]`` row is replaced before each value's run; the deals depend only
on (seed, deal index), so every value meets the same cards.

Best and re-check: the best setting is the one with the highest win share (the
first in sweep order among equals). The best of many noisy estimates overstates
itself (the winner's curse), so the best setting is played again on a fresh
seed (``check_seed``, default seed + 1,000,003) with the same number of deals;
``recheck["curse"]`` is the best estimate minus the re-check estimate, with a
95% interval treating the two as independent estimates.
"""
from __future__ import annotations

import dataclasses
import html
import itertools
import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.core.config import DEFAULT_CHUNK, MAX_INDEX, RunConfig, whole_number
from analyser.core.errors import Interrupted, UserError, choices
from analyser.core.policy import PolicySpec, SeatPolicy, as_seat_policy, split_spec
from analyser.core.registry import get_game, plural
from analyser.results_file import read_results
from analyser.stats.intervals import Z95

KIND = "sweep"
DEFAULT_DEALS = 10_000
CHECK_SEED_OFFSET = 1_000_003
MAX_SWEPT = 2
MAX_VALUES = 10_000
SYNTAX = "lo..hi, lo..hi:step or a|b|c"
TABLE_COLUMNS = ("games", "aborted", "win_rate", "win_ci_low", "win_ci_high", "score_mean", "score_ci_low",
                 "score_ci_high", "mean_rank", "draw_rate")


# ---------------------------------------------------------------- values

def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"{where}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise UserError(f"{where}: '{text}' is not a finite number")
    return value


def parse_values(text: str, where: str = "sweep values") -> list[float] | None:
    """The values of ``lo..hi``, ``lo..hi:step`` or ``a|b|c``; None for a plain value (not swept)."""
    text = text.strip()
    if "|" in text:
        items = [s.strip() for s in text.split("|")]
        if any(not s for s in items):
            raise UserError(f"{where}: the list '{text}' has an empty item (lists look like a|b|c)")
        values = [_number(s, where) for s in items]
        if len(set(values)) != len(values):
            raise UserError(f"{where}: the list '{text}' names a value twice")
        return values
    if ".." not in text:
        return None
    span, colon, step_text = text.partition(":")
    lo_text, _, hi_text = span.partition("..")
    lo, hi = _number(lo_text.strip(), where), _number(hi_text.strip(), where)
    step = _number(step_text.strip(), where) if colon else 1.0
    if step <= 0:
        raise UserError(f"{where}: the step of '{text}' must be more than 0")
    if hi < lo:
        raise UserError(f"{where}: the range '{text}' ends below its start ({hi:g} < {lo:g})")
    count = math.floor((hi - lo) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise UserError(f"{where}: the range '{text}' has {count:,} values; at most {MAX_VALUES:,}")
    return [round(lo + i * step, 12) for i in range(count)]


@dataclass(frozen=True)
class SweepPlan:
    """What to play: the line-up, the swept seat, and its policy at every setting."""
    seats: tuple[SeatPolicy, ...]          # the line-up, the swept seat at the first setting
    seat: int                              # the swept seat
    names: tuple[str, ...]                 # the swept parameters
    values: tuple[tuple[float, ...], ...]  # each parameter's values
    settings: tuple[SeatPolicy, ...]       # the swept seat's policy at each setting (cartesian product)
    text: str                              # the swept policy as given


def _has_values(item) -> bool:
    if not isinstance(item, str):
        return False
    return any(parse_values(v, "") is not None for v in split_spec(item)[1].values()) if ":" in item else False


def _swept_policy(item, available: dict[str, PolicySpec], values: dict | None, signature):
    """(the policy's spec, fixed parameter values, swept name -> values) of the swept policy."""
    if values is not None:
        seat = as_seat_policy(item, available, signature)
        if not isinstance(values, dict) or not values:
            raise UserError("values must be a dict of parameter name -> values, e.g. {'max_pile': range(13)}")
        swept = {}
        for key, vals in values.items():
            if isinstance(vals, str):
                vals = parse_values(vals, key) or [vals]
            try:
                vals = [float(v) for v in vals]
            except (TypeError, ValueError):
                raise UserError(f"the values of {key} must be numbers") from None
            if not vals:
                raise UserError(f"no values given for {key}")
            swept[key] = vals
        fixed = {k: v for k, v in seat.values.items() if k not in swept}
        text = seat.spec.name + ":" + ",".join(
            [f"{k}={_g(v)}" for k, v in fixed.items() if v != seat.spec.defaults()[k]]
            + [f"{k}={'|'.join(_g(v) for v in vals)}" for k, vals in swept.items()])
        return seat.spec, fixed, swept, text
    name, items = split_spec(item)
    if name not in available:
        raise UserError(f"unknown policy '{name}'; valid: {choices(available)}")
    fixed, swept = {}, {}
    for key, text in items.items():
        vals = parse_values(text, f"{name}:{key}")
        if vals is None:
            fixed[key] = text
        else:
            swept[key] = vals
    return available[name], fixed, swept, item.strip()


def plan_sweep(game_spec, players: int, policies, values: dict | None = None) -> SweepPlan:
    """Read the line-up and the swept values (see the module docstring); every value checked."""
    available, signature = game_spec.policy_map, game_spec.policy_signature
    if policies is None:
        raise UserError(f"give the policy to sweep, e.g. --policy 'pickup:max_pile=0..12' ({SYNTAX})")
    items = list(policies) if isinstance(policies, (list, tuple)) else [policies]
    if not items:
        raise UserError(f"give the policy to sweep, e.g. --policy 'pickup:max_pile=0..12' ({SYNTAX})")
    if values is not None:
        marked = [0]
    else:
        marked = [i for i, item in enumerate(items) if _has_values(item)]
    if not marked:
        raise UserError(f"nothing to sweep: give one parameter values as {SYNTAX} in one --policy, "
                        f"e.g. pickup:max_pile=0..12")
    if len(marked) > 1:
        raise UserError(f"only one seat's policy can be swept; --policy {marked[0] + 1} and {marked[1] + 1} "
                        f"both have values ({SYNTAX})")
    k = marked[0]
    if len(items) == players:
        order = list(range(players))
    elif len(items) == 2 and players > 2:
        if k != 0:
            raise UserError("with one policy for all the other seats, the swept policy comes first")
        order = [0] + [1] * (players - 1)
    elif len(items) == 1:
        order = [0] * players
    else:
        raise UserError(f"give one policy per seat ({players}), or the swept policy and one for all the other "
                        f"seats, not {len(items)}")
    spec, fixed, swept, text = _swept_policy(items[k], available, values, signature)
    if len(swept) > MAX_SWEPT:
        raise UserError(f"at most {MAX_SWEPT} parameters can be swept at once, not {len(swept)} "
                        f"({', '.join(swept)})")
    known = {p.name: p for p in spec.params}
    for key in swept:
        if key not in known:
            raise UserError(f"unknown parameter '{key}' for policy '{spec.name}'; valid: "
                            f"{choices(known) or '(none)'}")
    names = tuple(swept)
    total = math.prod(len(v) for v in swept.values())
    if total > MAX_VALUES:
        raise UserError(f"the sweep has {total:,} settings; at most {MAX_VALUES:,}")
    for key, vals in swept.items():          # one message naming the range, for the first bad value
        for v in vals:
            known[key].check(v, spec.name)
    settings = tuple(spec.bind(**fixed, **dict(zip(names, combo, strict=True)))
                     for combo in itertools.product(*swept.values()))
    swept_seat = order.index(k)
    seats = []
    for s, i in enumerate(order):
        if s == swept_seat:
            seats.append(settings[0])
        elif i == k:                          # the swept policy alone: others at its defaults for swept params
            seats.append(spec.bind(**fixed))
        else:
            seats.append(as_seat_policy(items[i], available, signature))
    if not isinstance(spec.fn, str):
        as_seat_policy(settings[0], available, signature)        # a user function: check its arity
    return SweepPlan(tuple(seats), swept_seat, names, tuple(tuple(v) for v in swept.values()), settings, text)


# ---------------------------------------------------------------- the result

def best_index(table: pd.DataFrame, value: str = "win_rate") -> int:
    """The row with the highest ``value`` (the first among equals; NaN never wins)."""
    v = table[value].to_numpy(float)
    if not np.isfinite(v).any():
        raise UserError("no setting completed a single game: no best value")
    return int(np.nanargmax(np.where(np.isfinite(v), v, -np.inf)))


@dataclass(eq=False)
class SweepResult:
    """One seat's policy over parameter values on common deals.

    table    one row per setting: the parameter column(s), games, aborted, win_rate, win_ci_low,
             win_ci_high, score_mean, score_ci_low, score_ci_high, mean_rank, draw_rate, best
    best     the best setting (highest win share): params, row, win_rate, its interval, score_mean
    recheck  the best setting on a fresh seed: seed, deals, win_rate and interval, score_mean, curse
             (best estimate - re-check estimate) with curse_ci_low / curse_ci_high
    meta     kind, game, unit, players, lineup, seat, policy, parameters (name, values, low, high,
             integer, default), seed, check_seed, deals, first_deal, settings, streams, versions, timing
    """
    table: pd.DataFrame
    best: dict
    recheck: dict
    meta: dict

    @property
    def parameters(self) -> list[str]:
        return [p["name"] for p in self.meta["parameters"]]

    def plot(self, value: str = "win_rate"):
        """The curve of ``value`` against the parameter with its 95% band (a heat map for two parameters)."""
        from analyser.plots.figures import sweep_curve, sweep_heatmap

        cols = [*self.parameters, *(c for c in self.table.columns if c not in self.parameters)]
        frame = self.table[cols]
        meta = {**self.meta, "policy": self.meta["policy"]}
        if len(self.parameters) == 1:
            return sweep_curve(frame, meta, x=self.parameters[0], value=value)
        return sweep_heatmap(frame, meta, x=self.parameters[1], y=self.parameters[0], value=value)

    def to_dict(self) -> dict:
        m = self.meta
        out = {k: m.get(k) for k in ("kind", "game", "unit", "players", "lineup", "seat", "policy", "swept",
                                     "parameters", "deals", "first_deal", "seed", "check_seed", "settings",
                                     "streams", "method")}
        out.update(table=[{k: _plain(v) for k, v in r.items()} for r in self.table.to_dict("records")],
                   best=self.best, recheck=self.recheck, threads=m.get("threads"), seconds=m.get("seconds"),
                   games_per_second=m.get("games_per_second"), versions=m.get("versions"))
        return out

    def save(self, path: str | Path) -> Path:
        """Parquet: the table, with the metadata (best and re-check included) under the analyser key."""
        from analyser.comparison import _write

        path = Path(path)
        _write(path, self.table, {**self.meta, "best": self.best, "recheck": self.recheck})
        return path

    def __repr__(self) -> str:
        m, b, r = self.meta, self.best, self.recheck
        lines = [f"<SweepResult {m['game']}: seat {m['seat']} {m['swept']} against "
                 f"{', '.join(p for i, p in enumerate(m['lineup']) if i != m['seat']) or '-'}; "
                 f"{m['players']} players, {len(self.table)} settings x {m['deals']:,} {plural(m['unit'])}, "
                 f"seed {m['seed']}>",
                 f"  best: {setting_text(b['params'])}: win share {_pc(b['win_rate'])} "
                 f"[{_pc(b['win_ci_low'])}, {_pc(b['win_ci_high'])}]",
                 f"  {recheck_text(r, m['unit'])}",
                 "  .table .best .recheck .meta .plot() .save(path) .to_dict()"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m, b = self.meta, self.best
        head = (f"<p><b>{html.escape(m['game'])}</b>: seat {m['seat']} plays {html.escape(m['swept'])} "
                f"against {html.escape(', '.join(m['lineup']))}; {m['players']} players, "
                f"{m['deals']:,} {plural(m['unit'])} per setting (common deals), seed {m['seed']}.<br>"
                f"Best: {html.escape(setting_text(b['params']))}, win share {_pc(b['win_rate'])}; "
                f"{html.escape(recheck_text(self.recheck, m['unit']))}</p>")
        return head + self.table.to_html(index=False, float_format=lambda x: f"{x:.4f}")


def setting_text(params: dict) -> str:
    return ", ".join(f"{k}={_g(v)}" for k, v in params.items())


def recheck_text(r: dict, unit: str = "game") -> str:
    return (f"re-check on seed {r['seed']} ({r['deals']:,} {plural(unit)}): win share {_pc(r['win_rate'])} "
            f"[{_pc(r['win_ci_low'])}, {_pc(r['win_ci_high'])}]; winner's curse (best - re-check) "
            f"{_pp(r['curse'])} points [{_pp(r['curse_ci_low'])}, {_pp(r['curse_ci_high'])}]")


def _g(v) -> str:
    return str(int(v)) if float(v).is_integer() else f"{float(v):g}"


def _pc(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.2f}%"


def _pp(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:+.2f}"


def _plain(v):
    from analyser.comparison import _plain as plain

    return plain(v)


# ---------------------------------------------------------------- running

def _new_tally(players: int):
    from analyser.stats.tally import OUTCOME_QUANTITIES, Tally

    return Tally(players, {"seat": tuple((s,) for s in range(players))}, OUTCOME_QUANTITIES, ())


def _row(tally, seat: int, unit: str) -> dict:
    from analyser.stats.summary import group_table

    row = group_table(tally, "seat", unit).iloc[seat].to_dict()
    out = {k: _plain(row[k]) for k in TABLE_COLUMNS if k in row}
    out["games"], out["aborted"] = int(tally.completed), int(tally.aborted)
    mean, sd = tally.mean_and_sd("seat", "win")
    out["win_se"] = float(sd[seat] / math.sqrt(tally.completed)) if tally.completed else None
    return out


def sweep(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
          seed: int = 0, rules: dict | None = None, threads: int | None = None, values: dict | None = None,
          check_seed: int | None = None, first_deal: int = 0, unit: str | None = None, out=None,
          progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK, n: int | None = None) -> SweepResult:
    """Sweep one seat's policy parameters on common deals (see the module docstring).

    policies: the line-up; the swept policy carries VALUES (``"pickup:max_pile=0..12"``), or give
    ``values={"max_pile": range(13)}`` to sweep the first policy (a name, spec or SeatPolicy).
    deals (or n): deals per setting (default 10,000). check_seed: the re-check's seed
    (default seed + 1,000,003). out: also write the table and metadata to this Parquet file.
    """
    from analyser.core.progress import in_notebook, preparing, progress_bar
    from analyser.core.runner import ChunkRunner, chunks, set_threads

    if n is not None and deals is not None and n != deals:
        raise UserError(f"give the number of deals once (n={n!r}, deals={deals!r})")
    count = n if n is not None else deals
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise UserError(f"chunk size must be a whole number of at least 1, not {chunk_size!r}")
    if progress is None:
        progress = in_notebook()
    spec = (get_game(game) if isinstance(game, str) else game).for_unit(unit)
    base = RunConfig.build(game, players, spec.default_policy, 1, seed, rules, 0, None, unit)  # players, rules, seed
    count = whole_number(count if count is not None else DEFAULT_DEALS, f"the number of {plural(spec.unit)}", 1)
    plan = plan_sweep(base.game, base.players, policies, values)
    seed = base.seed
    check_seed = (seed + CHECK_SEED_OFFSET) % (MAX_INDEX + 1) if check_seed is None else \
        whole_number(check_seed, "the re-check seed")
    if check_seed == seed:
        raise UserError(f"the re-check seed must differ from the run seed ({seed})")
    config = RunConfig.build(base.game, base.players, list(plan.seats), count, seed, rules, first_deal, None)
    threads = set_threads(threads)
    if out is not None:
        from analyser.results_file import check_target

        check_target(Path(out))
    meta = _metadata(config, plan, check_seed)
    with preparing(progress):
        runner = ChunkRunner(config)
    unit_name = config.game.unit
    rows, sim_seconds = [], 0.0
    t_start = time.perf_counter()
    total = count * (len(plan.settings) + 1)
    label = f"{config.game.name} x{config.players}, {len(plan.settings)} settings"
    try:
        with progress_bar(total, label, progress) as bar:
            def play(seat_policy, run_config):
                nonlocal sim_seconds
                runner.config = run_config
                runner.params[plan.seat] = seat_policy.row()
                tally = _new_tally(config.players)
                for start, size in chunks(config.first_deal, count, chunk_size):
                    t0 = time.perf_counter()
                    rec = runner.run(start, size)
                    sim_seconds += time.perf_counter() - t0
                    tally.add(rec)
                    if bar:
                        done = len(rows) * count + tally.units
                        rate = done / max(time.perf_counter() - t_start, 1e-9)
                        bar.advance(size, f"{rate:,.0f} {plural(unit_name)}/s")
                return _row(tally, plan.seat, unit_name)

            for setting in plan.settings:
                rows.append(play(setting, config))
            table = _table(plan, rows)
            k = best_index(table)
            check = play(plan.settings[k], dataclasses.replace(config, seed=check_seed))
    except KeyboardInterrupt:
        kept = "; no file was written" if out is not None else ""
        raise Interrupted(f"interrupted after {len(rows)} of {len(plan.settings)} settings{kept}") from None
    finally:
        runner.config = config
    seconds = time.perf_counter() - t_start
    played = count * (len(plan.settings) + 1)
    meta.update(threads=threads, seconds=seconds, simulation_seconds=sim_seconds,
                games_per_second=played / seconds if seconds > 0 else None)
    best = _best(plan, table, rows, k)
    recheck = _recheck(check, best, check_seed, count)
    table["best"] = np.arange(len(table)) == k
    result = SweepResult(table, best, recheck, meta)
    if out is not None:
        result.save(out)
    return result


def _table(plan: SweepPlan, rows: list[dict]) -> pd.DataFrame:
    cols = {}
    for name in plan.names:
        vals = np.array([s.values[name] for s in plan.settings[: len(rows)]])
        integer = next(p for p in plan.settings[0].spec.params if p.name == name).integer
        cols[name] = vals.astype(np.int64) if integer else vals
    frame = pd.DataFrame(cols)
    for key in TABLE_COLUMNS:
        frame[key] = [r.get(key) for r in rows]
    return frame.astype({k: float for k in TABLE_COLUMNS if k not in ("games", "aborted")})


def _best(plan: SweepPlan, table: pd.DataFrame, rows: list[dict], k: int) -> dict:
    row = rows[k]
    return {"row": k, "params": {n: _plain(table[n].iloc[k]) for n in plan.names},
            "policy": plan.settings[k].label(), "games": row["games"],
            **{key: row.get(key) for key in ("win_rate", "win_ci_low", "win_ci_high", "score_mean",
                                             "score_ci_low", "score_ci_high")},
            "win_se": row["win_se"]}


def _recheck(row: dict, best: dict, check_seed: int, count: int) -> dict:
    curse = low = high = None
    if row["win_rate"] is not None and best["win_rate"] is not None:
        curse = best["win_rate"] - row["win_rate"]
        se = math.hypot(best["win_se"] or 0.0, row["win_se"] or 0.0)
        low, high = curse - Z95 * se, curse + Z95 * se
    return {"seed": check_seed, "deals": count, "games": row["games"], "aborted": row["aborted"],
            **{key: row.get(key) for key in ("win_rate", "win_ci_low", "win_ci_high", "score_mean",
                                             "score_ci_low", "score_ci_high")},
            "curse": curse, "curse_ci_low": low, "curse_ci_high": high}


METHOD = ("every setting plays deals first_deal .. first_deal + deals - 1 with the run seed (common deals), the "
          "other seats fixed; win share and mean score of the swept seat with 95% intervals (Wilson's for a 0/1 "
          "value, else normal); best = highest win share (first in sweep order among equals); re-check: the best "
          "setting on check_seed with the same deals; curse = best - re-check win share, interval treating the "
          "two as independent")


def _metadata(config: RunConfig, plan: SweepPlan, check_seed: int) -> dict:
    base = config.metadata()
    spec = plan.settings[0].spec
    params = {p.name: p for p in spec.params}
    lineup = list(base["policies"])
    lineup[plan.seat] = plan.text
    return {"kind": KIND, "game": base["game"], "unit": base["unit"], "players": config.players,
            "lineup": lineup, "seat": plan.seat, "policy": spec.name, "swept": plan.text,
            "fixed": {k: v for k, v in plan.settings[0].values.items() if k not in plan.names},
            "parameters": [{"name": n, "values": list(v), "low": params[n].low, "high": params[n].high,
                            "integer": params[n].integer, "default": params[n].default}
                           for n, v in zip(plan.names, plan.values, strict=True)],
            "deals": config.deals, "first_deal": config.first_deal, "seed": config.seed, "check_seed": check_seed,
            "settings": base["settings"], "streams": base["streams"], "outcome": config.game.outcome,
            "method": METHOD, "confidence": 0.95, "versions": base["versions"]}


def load_sweep(path: str | Path) -> SweepResult:
    """Read a file written by ``sweep(..., out=...)`` / ``SweepResult.save`` back."""
    meta, frame, path = read_results(path, KIND, "a sweep (written by `analyser sweep --out`)")
    try:
        best, recheck = meta.pop("best"), meta.pop("recheck")
        missing = [n for n in [p["name"] for p in meta["parameters"]] + ["win_rate"] if n not in frame]
        if missing:
            raise KeyError(", ".join(missing))
    except (ValueError, KeyError, TypeError) as err:
        if isinstance(err, UserError):
            raise
        raise UserError(f"{path} has damaged sweep metadata or columns ({type(err).__name__}: {err})") from None
    return SweepResult(frame, best, recheck, meta)
