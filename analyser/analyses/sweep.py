"""Parameter sweeps: one policy played over a range of parameter values, in every seat, on common deals.

``sweep("palace", ["pickup:max_pile=0..12", "saver"], players=4)`` plays the same
deals (first_deal .. first_deal + n - 1, same seed) once per value of the swept
parameter(s), each deal in every seat arrangement of the line-up, and reports
per value the swept policy's win share and mean score against the fair share,
and its paired difference from a baseline value, with 95% intervals; the values
that differ from the baseline under family-wise error control; the best value;
and that best value re-checked on a fresh seed.

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

Arrangements: a seat's advantage is not a strategy's, so every deal is played
in each rotation of the line-up over the seats (over the teams in a team game,
so partners stay together: analyser.analyses.seatings.rotations), the swept policy in
every seat (team) once; when the other seats hold two or more different
policies, in each of the neighbour-balanced cyclic orders of the line-up
(analyser.analyses.seatings.neighbour_orders), so who sits after whom is balanced too.
Each policy instance keeps its stream id (its seat in
the line-up) as it moves. Every value and the baseline meet the same deals,
arrangements and streams, so a value that plays exactly as the baseline
differs from it by exactly 0.

Per deal d and value v: w[v, d] = the swept seat's win share (score) averaged
over the arrangements of deal d; one deal is one observation. The win share's
interval is the effective-n Wilson interval of the mean of w[v, .] over deals
(analyser.stats.intervals.mean_ci, bounds (0, 1)); the difference from the
baseline b is the mean of w[v, d] - w[b, d] with intervals.values_ci (an exact
tie is [0, 0]; win share differences within (-1, 1)). A deal aborted in any
arrangement of v (or of b, for the difference) is dropped and counted. The
fair share is win_total / players, a seat's share when every seat is equally
good; in a game with draws an equally strong policy wins less, the average
seat's share in the same plays (the ``seat_share`` column).

Baseline: the swept policy with the swept parameters at their defaults (or
``baseline={...}``); if no value equals it, it is played too, on the same
deals, and the metadata says so.

Many values at once: each difference gets a two-sided paired z-test (the
floored variance of intervals.floored_var; an exact tie has p = 1), and the
p-values of the values other than the baseline are adjusted by Holm's
step-down method; a value is flagged as different from the baseline when its
Holm-adjusted p-value is below 5%, so a sweep of values that change nothing
flags any value in at most 5% of runs (fewer, since the tests share the
baseline and are positively correlated). Holm rather than a max-|t| band: it
needs only each value's own test, so a sweep of thousands of values keeps one
value's per-deal data at a time.

Common deals and no recompiling: the engine takes a policy's parameters as a
float64 row, so one ChunkRunner per arrangement is built (compiled or loaded
once) and the swept seat's ``params`` row is replaced before each value's run;
the deals depend only on (seed, deal index), so every value meets the same cards.

Best and re-check: the best setting is the one with the highest difference from
the baseline (the same order as the rotated win share, on the same deals; the
first in sweep order among equals). The best of many noisy estimates overstates
itself (the winner's curse), so the best setting and the baseline are played
again on a fresh seed (``check_seed``, default seed + 1,000,003) with the same
number of deals and arrangements; ``recheck["curse"]`` is the best difference
minus the re-check difference, with a 95% interval treating the two as
independent estimates.
"""
from __future__ import annotations

import dataclasses
import html
import itertools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.analyses.seatings import is_team_game, neighbour_orders, rotations, seat_groups
from analyser.engine.backend import make_executor
from analyser.engine.config import DEFAULT_CHUNK, MAX_INDEX, RunConfig, whole_number
from analyser.engine.pipeline import Gather, Plan, execute
from analyser.engine.play_args import play_args
from analyser.errors import UserError, choices
from analyser.games.policy_specs import PolicySpec, SeatPolicy, as_seat_policy, same_policy, split_spec, unknown_policy
from analyser.games.registry import get_game
from analyser.io.jsonable import jsonable, rows
from analyser.io.numbers import general, hundred, p_short, percent, plural
from analyser.io.results_file import read_results, write_frame
from analyser.stats.intervals import Z95, exact, floored_var, mean_ci, values_ci
from analyser.stats.multiple import holm, mean_p

KIND = "sweep"
DEFAULT_DEALS = 10_000
CHECK_SEED_OFFSET = 1_000_003
MAX_SWEPT = 2
MAX_VALUES = 10_000
SYNTAX = "lo..hi, lo..hi:step or a|b|c"
ALPHA = 0.05
TABLE_COLUMNS = ("games", "aborted", "win_rate", "win_ci_low", "win_ci_high", "score_mean", "score_ci_low",
                 "score_ci_high", "win_diff", "win_diff_ci_low", "win_diff_ci_high", "score_diff",
                 "score_diff_ci_low", "score_diff_ci_high", "p_value", "p_holm", "significant", "baseline",
                 "mean_rank", "draw_rate", "seat_share")
FLAGS = ("significant", "baseline")


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
    baseline: SeatPolicy                   # the swept policy at its defaults (or the baseline given)

    @property
    def baseline_row(self) -> int | None:
        """The setting that plays as the baseline (None: the baseline is played besides the values)."""
        return next((i for i, s in enumerate(self.settings) if same_policy(s, self.baseline)), None)


def _has_values(item) -> bool:
    if not isinstance(item, str):
        return False
    if ":" not in item:
        return False
    name, values = split_spec(item)
    return any(parse_values(v, f"{name}:{k}") is not None for k, v in values.items())


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
            [f"{k}={general(v)}" for k, v in fixed.items() if v != seat.spec.defaults()[k]]
            + [f"{k}={'|'.join(general(v) for v in vals)}" for k, vals in swept.items()])
        return seat.spec, fixed, swept, text
    name, items = split_spec(item)
    if name not in available:
        raise UserError(unknown_policy(name, available))
    fixed, swept = {}, {}
    for key, text in items.items():
        vals = parse_values(text, f"{name}:{key}")
        if vals is None:
            fixed[key] = text
        else:
            swept[key] = vals
    return available[name], fixed, swept, item.strip()


def _baseline_values(baseline, spec: PolicySpec, names: tuple[str, ...]) -> dict[str, float]:
    """The baseline's swept parameters: their defaults, with those given (a dict or ``p=v,q=w``)."""
    chosen = {n: spec.defaults()[n] for n in names}
    if baseline is None:
        return chosen
    given = split_spec(f"{spec.name}:{baseline}")[1] if isinstance(baseline, str) else baseline
    if not isinstance(given, dict):
        raise UserError("the baseline must be a dict of swept parameter -> value, or 'param=value,...'")
    for key, value in given.items():
        if key not in names:
            raise UserError(f"the baseline sets '{key}', which is not swept; swept: {', '.join(names)}")
        chosen[key] = value                     # bind checks it
    return chosen


def plan_sweep(game_spec, players: int, policies, values: dict | None = None, baseline=None) -> SweepPlan:
    """Read the line-up, the swept values and the baseline (see the module docstring); every value checked."""
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
    base = spec.bind(**fixed, **_baseline_values(baseline, spec, names))
    return SweepPlan(tuple(seats), swept_seat, names, tuple(tuple(v) for v in swept.values()), settings, text, base)


# ---------------------------------------------------------------- arrangements and per-deal values

def sweep_arrangements(teams, lineup: list[str] | None = None) -> tuple[list[list[int]], str]:
    """The rotations of the line-up over the seats (the teams, in a team game): per arrangement, the
    line-up seat whose policy instance sits on each seat, which is also that seat's stream id. When the
    other seats (teams) hold two or more different policies (``lineup``: a label per seat, the swept
    seat's included), who sits after whom matters, so each neighbour-balanced cyclic order of the
    line-up (analyser.analyses.seatings.neighbour_orders) is played in each rotation."""
    groups = seat_groups(teams)
    mixed = lineup is not None and len({lineup[g[0]] for g in groups}) > 2
    orders = neighbour_orders(len(groups)) if mixed else [tuple(range(len(groups)))]
    homes = [ids for order in orders for _, ids in rotations(list(order), groups, homes=order)]
    name = f"rotations of {len(orders)} neighbour-balanced orders of the line-up" if mixed else \
        "rotations of the line-up"
    return homes, name + (" over the teams" if is_team_game(groups) else "")


@dataclass(frozen=True)
class Plays:
    """Per deal, the swept seat's win share, score, rank, the draw and the average seat's win share,
    each averaged over the arrangements (``exact``: no float residues), and whether any arrangement aborted."""
    win: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    draw: np.ndarray
    seats: np.ndarray
    aborted: np.ndarray

    @classmethod
    def of(cls, records: list[np.ndarray], positions: list[int], players: int) -> Plays:
        """``records[k]``: arrangement k's records of one block of deals; the swept seat sits at positions[k]."""
        def mean(values):
            return exact(np.mean([values(r, p) for r, p in zip(records, positions, strict=True)], axis=0))

        aborted = np.any([r["aborted"].astype(bool) for r in records], axis=0)
        return cls(mean(lambda r, p: r["win"][:, p]), mean(lambda r, p: r["score"][:, p]),
                   mean(lambda r, p: r["rank"][:, p]), mean(lambda r, p: r["draw"]),
                   mean(lambda r, p: r["win"][:, :players].mean(axis=1)), aborted)

    @classmethod
    def concat(cls, blocks: list[Plays]) -> Plays:
        return cls(*(np.concatenate([getattr(b, f.name) for b in blocks]) for f in dataclasses.fields(cls)))


def _diff_se(diff: dict) -> float:
    if diff["tie"]:
        return 0.0
    return math.sqrt(float(floored_var(diff["sd"] ** 2, diff["n"])) / diff["n"]) if diff["n"] >= 2 else float("nan")


def setting_row(plays: Plays, base: Plays) -> dict:
    """A setting's share and score over its kept deals, and its paired difference from the baseline."""
    keep = ~plays.aborted
    n = int(keep.sum())
    out = {"games": n, "aborted": int(plays.aborted.sum())}
    for q, bounds in (("win", (0.0, 1.0)), ("score", None)):
        v = getattr(plays, q)[keep]
        mean = float(v.mean()) if n else float("nan")
        low, high = mean_ci(mean, v.var(ddof=1) if n > 1 else np.nan, n, bounds=bounds)
        out[f"{q}_rate" if q == "win" else "score_mean"] = mean
        out[f"{q}_ci_low"], out[f"{q}_ci_high"] = low, high
    both = ~(plays.aborted | base.aborted)
    for q, bounds in (("win", (-1.0, 1.0)), ("score", None)):
        d = values_ci(getattr(plays, q)[both] - getattr(base, q)[both], bounds=bounds)
        out[f"{q}_diff"], out[f"{q}_diff_ci_low"], out[f"{q}_diff_ci_high"] = d["mean"], d["low"], d["high"]
        if q == "win":
            out["p_value"] = mean_p(d["mean"], d["sd"] ** 2, d["n"], d["tie"])
            out["win_diff_se"], out["tie"] = _diff_se(d), d["tie"]
    out["mean_rank"] = float(plays.rank[keep].mean()) if n else float("nan")
    out["draw_rate"] = float(plays.draw[keep].mean()) if n else float("nan")
    out["seat_share"] = float(plays.seats[keep].mean()) if n else float("nan")
    return {k: jsonable(v) for k, v in out.items()}


# ---------------------------------------------------------------- the result

def best_index(table: pd.DataFrame, value: str = "win_diff") -> int:
    """The row with the highest ``value`` (the first among equals; NaN never wins)."""
    v = table[value].to_numpy(float)
    if not np.isfinite(v).any():
        raise UserError("no setting completed a single game: no best value")
    return int(np.nanargmax(np.where(np.isfinite(v), v, -np.inf)))


@dataclass(eq=False)
class SweepResult:
    """One policy over parameter values, in every seat arrangement, on common deals.

    table    one row per setting: the parameter column(s), games (kept deals), aborted (dropped deals),
             win_rate, win_ci_low, win_ci_high, score_mean, score_ci_low, score_ci_high (the swept policy,
             averaged over the arrangements), win_diff, score_diff and their intervals (paired
             difference from the baseline), p_value, p_holm (Holm-adjusted), significant (p_holm < 5%),
             baseline (this setting is the baseline), mean_rank, draw_rate, seat_share (the average seat's
             win share in the same plays: what an equally strong policy wins where draws take some), best
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
        from analyser.plots.figures import sweep_curve, sweep_heatmap

        if len(self.parameters) == 1:
            return sweep_curve(self.table, self.meta, x=self.parameters[0], value=value)
        return sweep_heatmap(self.table, self.meta, x=self.parameters[1], y=self.parameters[0], value=value)

    def to_dict(self) -> dict:
        m = self.meta
        out = {k: m.get(k) for k in ("kind", "game", "unit", "players", "lineup", "seat", "policy", "swept",
                                     "parameters", "arrangements", "baseline", "fair_share", "family", "deals",
                                     "first_deal", "seed", "check_seed", "settings", "streams", "method")}
        out.update(table=rows(self.table),
                   best=self.best, recheck=self.recheck, threads=m.get("threads"), seconds=m.get("seconds"),
                   games_per_second=m.get("games_per_second"), versions=m.get("versions"))
        return out

    def save(self, path: str | Path) -> Path:
        """Parquet: the table, with the metadata (best and re-check included) under the analyser key."""
        path = Path(path)
        write_frame(path, self.table, {**self.meta, "best": self.best, "recheck": self.recheck})
        return path

    def __repr__(self) -> str:
        m, b = self.meta, self.best
        lines = [f"<SweepResult {m['game']}: {m['swept']} against {others_text(m)}, in every seat "
                 f"({arrangements_text(m)}); {m['players']} players, {len(self.table)} settings x {m['deals']:,} "
                 f"{plural(m['unit'])}, seed {m['seed']}>",
                 f"  {baseline_text(m)}; {fair_text(m)}",
                 f"  best: {best_text(b)}",
                 f"  {family_text(m['family'])}",
                 f"  {recheck_text(self.recheck, m['unit'])}",
                 "  .table .best .recheck .meta .plot() .save(path) .to_dict()"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        m = self.meta
        parts = [f"<b>{html.escape(m['game'])}</b>: {html.escape(m['swept'])} against "
                 f"{html.escape(others_text(m))}, in every seat ({html.escape(arrangements_text(m))}); "
                 f"{m['players']} players, {m['deals']:,} {plural(m['unit'])} per setting (common deals), "
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
    return (f"re-check on seed {r['seed']} ({r['deals']:,} {plural(unit)}): win share {percent(r['win_rate'])} "
            f"[{percent(r['win_ci_low'])}, {percent(r['win_ci_high'])}], vs baseline {_signed(r['win_diff'])} points; "
            f"winner's curse (best - re-check difference) {_signed(r['curse'])} points [{_signed(r['curse_ci_low'])}, "
            f"{_signed(r['curse_ci_high'])}]")


def _signed(x) -> str:
    return hundred(x, sign=True)


def _whole(v: float, integer: bool):
    return int(v) if integer else float(v)


# ---------------------------------------------------------------- running

def sweep(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
          seed: int = 0, rules: dict | None = None, threads: int | None = None, values: dict | None = None,
          baseline=None, check_seed: int | None = None, first_deal: int = 0, unit: str | None = None, out=None,
          progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK, n: int | None = None, backend=None,
          run_dir=None) -> SweepResult:
    """Sweep one policy's parameters in every seat arrangement on common deals (see the module docstring).

    policies: the line-up; the swept policy carries VALUES (``"pickup:max_pile=0..12"``), or give
    ``values={"max_pile": range(13)}`` to sweep the first policy (a name, spec or SeatPolicy).
    baseline: the swept parameters' values the differences are taken from (a dict or ``"max_pile=0"``;
    default: their defaults). deals (or n): deals per setting (default 10,000), each played in every
    arrangement. check_seed: the re-check's seed (default seed + 1,000,003). out: also write the table
    and metadata to this Parquet file. backend, run_dir: as simulate's.
    """
    spec = (get_game(game) if isinstance(game, str) else game).for_unit(unit)
    args = play_args(game, players, spec.default_policy, seed, rules, unit, n=n, deals=deals, first_deal=first_deal,
                     chunk_size=chunk_size, backend=backend, run_dir=run_dir)
    base, count, first_deal, chunk_size = args.base, args.count, args.first_deal, args.chunk_size
    plan = plan_sweep(base.game, base.players, policies, values, baseline)
    seed = base.seed
    check_seed = (seed + CHECK_SEED_OFFSET) % (MAX_INDEX + 1) if check_seed is None else \
        whole_number(check_seed, "the re-check seed")
    if check_seed == seed:
        raise UserError(f"the re-check seed must differ from the run seed ({seed})")
    homes, scheme = sweep_arrangements(base.game.team_of(base.players),
                                       ["swept" if i == plan.seat else p.label() for i, p in enumerate(plan.seats)])
    positions = [ids.index(plan.seat) for ids in homes]

    def group(setting: SeatPolicy, run_seed: int) -> tuple:
        """The arrangements of the line-up with the swept seat at ``setting``, on seed ``run_seed``."""
        seats = [setting if h == plan.seat else plan.seats[h] for h in range(base.players)]
        return tuple(RunConfig.build(base.game, players=base.players, policies=[seats[h] for h in ids], deals=count,
                                     seed=run_seed, rules=rules, first_deal=first_deal, streams=ids) for ids in homes)

    def play(settings: list[SeatPolicy], run_seed: int, label: str, name: str) -> list[Plays]:
        """Each setting on common deals in every arrangement: its Plays."""
        blocks: list[list[Plays]] = [[] for _ in settings]
        schedule = Plan(tuple(group(s, run_seed) for s in settings), first_deal, count, chunk_size, label, name)
        sink = Gather(lambda chunk, recs: blocks[chunk.group].append(Plays.of(recs, positions, base.players)), out)
        runs.append(execute(schedule, sink, threads=threads, progress=progress, executor=executor))
        return [Plays.concat(b) for b in blocks]

    runs: list = []
    executor = make_executor(args.backend, args.run_dir, progress)   # one for both plans: compiled once
    try:
        label = f"{base.game.name} x{base.players}, {len(plan.settings)} settings x {len(homes)} arrangements"
        others = [i for i in range(len(plan.settings)) if i != plan.baseline_row]
        played = play([plan.baseline] + [plan.settings[i] for i in others], seed, label, "settings")
        base_plays = played[0]
        by_setting = dict(zip(others, played[1:], strict=True))
        rows = [setting_row(base_plays if i == plan.baseline_row else by_setting[i], base_plays)
                for i in range(len(plan.settings))]
        table = _table(plan, rows)
        k = best_index(table)
        again = f"{base.game.name} x{base.players}, re-check of the best setting"
        check_base, check_best = play([plan.baseline, plan.settings[k]], check_seed, again, "re-check runs")
    finally:
        executor.close()
    check = setting_row(check_best, check_base)
    seconds = sum(r.seconds for r in runs)
    plays = sum(r.plays for r in runs)
    meta = _metadata(group(plan.settings[0], seed)[0], plan, check_seed, homes, scheme,
                     setting_row(base_plays, base_plays), table)
    meta.update(threads=runs[0].threads, seconds=seconds, simulation_seconds=sum(r.simulation_seconds for r in runs),
                plays=plays, games_per_second=plays / seconds if seconds > 0 else None)
    best = _best(plan, table, rows, k)
    table["best"] = np.arange(len(table)) == k
    result = SweepResult(table, best, _recheck(check, best, check_seed, count), meta)
    if out is not None:
        result.save(out)
    return result


def _table(plan: SweepPlan, rows: list[dict]) -> pd.DataFrame:
    """The settings' rows with their parameter columns, Holm over the values other than the baseline."""
    cols = {}
    for name in plan.names:
        vals = np.array([s.values[name] for s in plan.settings[: len(rows)]])
        integer = next(p for p in plan.settings[0].spec.params if p.name == name).integer
        cols[name] = vals.astype(np.int64) if integer else vals
    frame = pd.DataFrame(cols)
    is_base = np.arange(len(rows)) == (-1 if plan.baseline_row is None else plan.baseline_row)
    p = np.array([np.nan if b else r["p_value"] for r, b in zip(rows, is_base, strict=True)], dtype=float)
    adjusted = holm(p)
    for key in TABLE_COLUMNS:
        frame[key] = [r.get(key) for r in rows]
    frame["p_holm"] = adjusted
    frame["significant"] = np.nan_to_num(adjusted, nan=1.0) < ALPHA
    frame["baseline"] = is_base
    return frame.astype({k: float for k in TABLE_COLUMNS if k not in ("games", "aborted", *FLAGS)})


STATS = ("win_rate", "win_ci_low", "win_ci_high", "score_mean", "score_ci_low", "score_ci_high", "win_diff",
         "win_diff_ci_low", "win_diff_ci_high", "score_diff", "score_diff_ci_low", "score_diff_ci_high")


def _best(plan: SweepPlan, table: pd.DataFrame, rows: list[dict], k: int) -> dict:
    row = rows[k]
    return {"row": k, "params": {n: jsonable(table[n].iloc[k]) for n in plan.names},
            "policy": plan.settings[k].label(), "games": row["games"], **{key: row.get(key) for key in STATS},
            "p_value": row["p_value"], "p_holm": jsonable(table["p_holm"].iloc[k]),
            "significant": bool(table["significant"].iloc[k]), "win_diff_se": row["win_diff_se"]}


def _recheck(row: dict, best: dict, check_seed: int, count: int) -> dict:
    curse = low = high = None
    if row["win_diff"] is not None and best["win_diff"] is not None:
        curse = float(exact(best["win_diff"] - row["win_diff"]))
        se = math.hypot(best["win_diff_se"], row["win_diff_se"])
        low, high = curse - Z95 * se, curse + Z95 * se
    return {"seed": check_seed, "deals": count, "games": row["games"], "aborted": row["aborted"],
            **{key: row.get(key) for key in STATS}, "p_value": row["p_value"],
            "curse": curse, "curse_ci_low": jsonable(low), "curse_ci_high": jsonable(high)}


METHOD = ("every setting and the baseline play deals first_deal .. first_deal + deals - 1 with the run seed "
          "(common deals), each deal in every arrangement ({scheme}: the swept policy in every seat{teams} "
          "equally often, each policy instance keeping its stream id); per deal, the swept seat's win share "
          "(score) averaged over the arrangements (one deal = one observation, rounded to 1e-9); win share: "
          "effective-n Wilson 95% interval of the mean over deals; difference from the baseline: mean of the "
          "per-deal differences, 95% interval from them (win share differences Wilson within (-1, 1), an "
          "exact tie [0, 0]); p-value: two-sided paired z-test (variance floored, s^2 + 1/n), Holm-adjusted "
          "over the values other than the baseline, flagged when below 5% (family-wise); a deal aborted in "
          "any arrangement is dropped; best = highest difference from the baseline (first in sweep order "
          "among equals); re-check: the best setting and the baseline on check_seed with the same deals and "
          "arrangements; curse = best - re-check difference, interval treating the two as independent")


def _metadata(config: RunConfig, plan: SweepPlan, check_seed: int, homes, scheme: str, base_row: dict,
              table: pd.DataFrame) -> dict:
    meta = config.metadata()
    spec = plan.settings[0].spec
    params = {p.name: p for p in spec.params}
    lineup = [plan.seats[s].label() for s in range(config.players)]
    lineup[plan.seat] = plan.text
    game = config.game
    teams = is_team_game(seat_groups(game.team_of(config.players)))
    tests = int(np.isfinite(table["p_holm"].to_numpy(float)).sum())
    return {"kind": KIND, "game": meta["game"], "unit": meta["unit"], "players": config.players,
            "lineup": lineup, "seat": plan.seat, "policy": spec.name, "swept": plan.text,
            "fixed": {k: v for k, v in plan.settings[0].values.items() if k not in plan.names},
            "parameters": [{"name": n, "values": list(v), "low": params[n].low, "high": params[n].high,
                            "integer": params[n].integer, "default": params[n].default}
                           for n, v in zip(plan.names, plan.values, strict=True)],
            "arrangements": {"count": len(homes), "name": scheme, "seats": [list(h) for h in homes],
                             "streams": [list(h) for h in homes], "swept_seat": [h.index(plan.seat) for h in homes],
                             "teams": teams},
            "baseline": {"params": {n: _whole(plan.baseline.values[n], params[n].integer) for n in plan.names},
                         "policy": plan.baseline.label(), "row": plan.baseline_row,
                         "defaults": all(plan.baseline.values[n] == params[n].default for n in plan.names),
                         **{k: base_row[k] for k in ("games", "aborted", "win_rate", "win_ci_low", "win_ci_high",
                                                     "score_mean", "score_ci_low", "score_ci_high",
                                                     "draw_rate", "seat_share")}},
            "fair_share": game.win_total(config.players) / config.players,
            "family": {"method": "Holm", "alpha": ALPHA, "tests": tests,
                       "flagged": int(table["significant"].sum())},
            "deals": config.deals, "first_deal": config.first_deal, "seed": config.seed, "check_seed": check_seed,
            "settings": meta["settings"], "streams": "each policy instance keeps its line-up seat as its stream id",
            "outcome": game.outcome, "method": METHOD.format(scheme=scheme, teams=" (team)" if teams else ""),
            "confidence": 0.95, "versions": meta["versions"]}


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
