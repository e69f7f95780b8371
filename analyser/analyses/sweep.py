"""Parameter sweeps: one policy played over a range of parameter values, in every seat, on common deals.

``sweep("palace", ["pickup:max_pile=0..12", "saver"], players=4)`` plays the same
deals (first_deal .. first_deal + n - 1, same seed) once per value of the swept
parameter(s), each deal in every seat arrangement of the line-up, and reports
per value the swept policy's win share and mean score against the fair share,
and its paired difference from a baseline value, with 95% intervals; the values
that differ from the baseline under family-wise error control; the best value;
and that best value re-checked on a fresh seed.

Value syntax, in one ``--policy`` (``name:param=VALUES,...``): ``lo..hi``,
``lo..hi:step`` or ``a|b|c`` (analyser.games.sweep_values).

One or two parameters may be swept (two: every pair, the first varying slowest);
at most MAX_VALUES settings in all. Every value is checked against the
parameter's range and kind (whole number or not).

The modules: the line-up and its swept values (analyses.sweep_lineup), the
arrangements and per-deal values (analyses.sweep_plays), the result and its
file (analyses.sweep_result); here, the run.

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
baseline b is the mean of w[v, d] - w[b, d] with intervals.differences_ci
(Tango's score interval on the deals where it is not 0; win share differences
within [-1, 1]; an exact tie [0, 0] only for the baseline itself: a value that
played identically on every deal keeps the interval of the deals not seen). A deal aborted in any
arrangement of v (or of b, for the difference) is dropped and counted; each row also has the difference's
bounds over all deals (stats.paired.abort_bounds: v's aborted plays lost and b's won, then the other way),
printed for the best setting, with the count of settings past 1% aborted, when it is past 1%. A baseline
with fewer than two completed deals is one line (TooFewCompleted): there is nothing to differ from. The
fair share is win_total / players, a seat's share when every seat is equally
good; in a game with draws an equally strong policy wins less, the average
seat's share in the same plays (the ``seat_share`` column).

Baseline: the swept policy with the swept parameters at their defaults (or
``baseline={...}``); if no value equals it, it is played too, on the same
deals, and the metadata says so.

Many values at once: each difference gets a two-sided paired score test (the
one of its interval, intervals.difference_p; no deal differing gives p = 1), and the
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

import math

import numpy as np
import pandas as pd

from analyser.analyses.aborts import require_completed
from analyser.analyses.seatings import is_team_game, seat_groups
from analyser.analyses.sweep_lineup import SweptLineup, swept_lineup
from analyser.analyses.sweep_plays import Plays, best_index, setting_row, sweep_arrangements
from analyser.analyses.sweep_result import KIND, SweepResult
from analyser.engine.backend import make_executor
from analyser.engine.config import DEFAULT_CHUNK, MAX_INDEX, RunConfig, whole_number
from analyser.engine.pipeline import Gather, Plan, execute
from analyser.engine.play_args import play_args
from analyser.errors import UserError
from analyser.games.policy_specs import SeatPolicy
from analyser.games.registry import get_game
from analyser.io.jsonable import jsonable
from analyser.stats.intervals import Z95, exact
from analyser.stats.multiple import holm
from analyser.stats.paired import BOUND_COLUMNS

CHECK_SEED_OFFSET = 1_000_003
ALPHA = 0.05
TABLE_COLUMNS = ("games", "aborted", "win_rate", "win_ci_low", "win_ci_high", "score_mean", "score_ci_low",
                 "score_ci_high", "win_diff", "win_diff_ci_low", "win_diff_ci_high", "score_diff",
                 "score_diff_ci_low", "score_diff_ci_high", "p_value", "p_holm", "significant", "baseline",
                 "identical", "mean_rank", "draw_rate", "seat_share", *BOUND_COLUMNS)
FLAGS = ("significant", "baseline", "identical")     # identical: 0 on every deal, yet not the baseline itself


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
    lineup = swept_lineup(base.game, base.players, policies, values, baseline)
    seed = base.seed
    check_seed = (seed + CHECK_SEED_OFFSET) % (MAX_INDEX + 1) if check_seed is None else \
        whole_number(check_seed, "the re-check seed")
    if check_seed == seed:
        raise UserError(f"the re-check seed must differ from the run seed ({seed})")
    homes, scheme = sweep_arrangements(base.game.team_of(base.players),
                                       ["swept" if i == lineup.seat else p.label()
                                        for i, p in enumerate(lineup.seats)])
    positions = [ids.index(lineup.seat) for ids in homes]

    def group(setting: SeatPolicy, run_seed: int) -> tuple:
        """The arrangements of the line-up with the swept seat at ``setting``, on seed ``run_seed``."""
        seats = [setting if h == lineup.seat else lineup.seats[h] for h in range(base.players)]
        return tuple(RunConfig.build(base.game, players=base.players, policies=[seats[h] for h in ids], deals=count,
                                     seed=run_seed, rules=rules, first_deal=first_deal, streams=ids) for ids in homes)

    def play(settings: list[SeatPolicy], run_seed: int, label: str, name: str, done) -> None:
        """Each setting on common deals in every arrangement; ``done(i, plays)`` as soon as setting i's
        last chunk is in. The plan plays its groups one after the other and the sink takes chunks in
        plan order, so one setting's per-deal values are held at a time (besides what ``done`` keeps)."""
        held = {"group": 0, "blocks": []}

        def add(chunk, recs):
            if chunk.group != held["group"]:
                done(held["group"], Plays.concat(held["blocks"]))
                held.update(group=chunk.group, blocks=[])
            held["blocks"].append(Plays.of(recs, positions, base.players))

        schedule = Plan(tuple(group(s, run_seed) for s in settings), first_deal, count, chunk_size, label, name)
        runs.append(execute(schedule, Gather(add, out), threads=threads, progress=progress, executor=executor))
        done(held["group"], Plays.concat(held["blocks"]))

    runs: list = []
    executor = make_executor(args.backend, args.run_dir, progress)   # one for both plans: compiled once
    try:
        label = f"{base.game.name} x{base.players}, {len(lineup.policies)} settings x {len(homes)} arrangements"
        baseline_row = lineup.baseline_row
        others = [i for i in range(len(lineup.policies)) if i != baseline_row]
        kept: dict = {}      # the baseline's Plays (group 0, played first) and each setting's row
        by_setting: dict = {}

        def row(group_index: int, plays: Plays) -> None:
            if group_index == 0:
                kept["base"] = plays
                if baseline_row is not None:
                    by_setting[baseline_row] = setting_row(plays, plays, True)
            else:
                by_setting[others[group_index - 1]] = setting_row(plays, kept["base"])

        play([lineup.baseline] + [lineup.policies[i] for i in others], seed, label, "settings", row)
        base_plays = kept["base"]
        require_completed(int((~base_plays.aborted).sum()), count, args.unit,
                          f"the differences from the baseline ({lineup.baseline.label()})")
        rows = [by_setting[i] for i in range(len(lineup.policies))]
        table = _table(lineup, rows)
        k = best_index(table)
        again = f"{base.game.name} x{base.players}, re-check of the best setting"
        checked: list[Plays] = []
        play([lineup.baseline, lineup.policies[k]], check_seed, again, "re-check runs",
             lambda _, plays: checked.append(plays))
        check_base, check_best = checked
    finally:
        executor.close()
    check = setting_row(check_best, check_base, k == lineup.baseline_row)
    seconds = sum(r.seconds for r in runs)
    plays = sum(r.plays for r in runs)
    meta = _metadata(group(lineup.policies[0], seed)[0], lineup, check_seed, homes, scheme,
                     setting_row(base_plays, base_plays, True), table)
    meta.update(threads=runs[0].threads, seconds=seconds, simulation_seconds=sum(r.simulation_seconds for r in runs),
                plays=plays, games_per_second=plays / seconds if seconds > 0 else None)
    best = _best(lineup, table, rows, k)
    table["best"] = np.arange(len(table)) == k
    result = SweepResult(table, best, _recheck(check, best, check_seed, count), meta)
    if out is not None:
        result.save(out)
    return result


def _table(lineup: SweptLineup, rows: list[dict]) -> pd.DataFrame:
    """The settings' rows with their parameter columns, Holm over the values other than the baseline."""
    cols = {}
    for name in lineup.names:
        vals = np.array([s.values[name] for s in lineup.policies[: len(rows)]])
        integer = next(p for p in lineup.policies[0].spec.params if p.name == name).integer
        cols[name] = vals.astype(np.int64) if integer else vals
    frame = pd.DataFrame(cols)
    is_base = np.arange(len(rows)) == (-1 if lineup.baseline_row is None else lineup.baseline_row)
    p = np.array([np.nan if b else r["p_value"] for r, b in zip(rows, is_base, strict=True)], dtype=float)
    adjusted = holm(p)
    for key in TABLE_COLUMNS:
        frame[key] = [r.get(key) for r in rows]
    frame["p_holm"] = adjusted
    frame["significant"] = np.nan_to_num(adjusted, nan=1.0) < ALPHA
    frame["baseline"] = is_base
    return frame.astype({k: float for k in TABLE_COLUMNS if k not in ("games", "aborted", "aborted_deals", *FLAGS)})


STATS = ("win_rate", "win_ci_low", "win_ci_high", "score_mean", "score_ci_low", "score_ci_high", "win_diff",
         "win_diff_ci_low", "win_diff_ci_high", "score_diff", "score_diff_ci_low", "score_diff_ci_high")


def _best(lineup: SweptLineup, table: pd.DataFrame, rows: list[dict], k: int) -> dict:
    row = rows[k]
    return {"row": k, "params": {n: jsonable(table[n].iloc[k]) for n in lineup.names},
            "policy": lineup.policies[k].label(), "games": row["games"], **{key: row.get(key) for key in STATS},
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
          "per-deal differences, 95% interval from them (Tango's score interval on the deals where they are not 0, "
          "within [-1, 1] for win shares; an exact tie [0, 0] only for the baseline itself, 0 on every deal "
          "otherwise 'played identically' with the interval of the deals not seen); p-value: the same score "
          "test at 0, Holm-adjusted "
          "over the values other than the baseline, flagged when below 5% (family-wise); a deal aborted in "
          "any arrangement is dropped (bounds over all deals: the setting's aborted plays counted as lost, the "
          "baseline's as won, then the other way, each with its Tango interval); best = highest difference "
          "from the baseline (first in sweep order "
          "among equals); re-check: the best setting and the baseline on check_seed with the same deals and "
          "arrangements; curse = best - re-check difference, interval treating the two as independent")


def _metadata(config: RunConfig, lineup: SweptLineup, check_seed: int, homes, scheme: str, base_row: dict,
              table: pd.DataFrame) -> dict:
    meta = config.metadata()
    spec = lineup.policies[0].spec
    params = {p.name: p for p in spec.params}
    labels = [lineup.seats[s].label() for s in range(config.players)]
    labels[lineup.seat] = lineup.text
    game = config.game
    teams = is_team_game(seat_groups(game.team_of(config.players)))
    tests = int(np.isfinite(table["p_holm"].to_numpy(float)).sum())
    return {"kind": KIND, "game": meta["game"], "unit": meta["unit"], "players": config.players,
            "lineup": labels, "seat": lineup.seat, "policy": spec.name, "swept": lineup.text,
            "fixed": {k: v for k, v in lineup.policies[0].values.items() if k not in lineup.names},
            "parameters": [{"name": n, "values": list(v), "low": params[n].low, "high": params[n].high,
                            "integer": params[n].integer, "default": params[n].default}
                           for n, v in zip(lineup.names, lineup.values, strict=True)],
            "arrangements": {"count": len(homes), "name": scheme, "seats": [list(h) for h in homes],
                             "streams": [list(h) for h in homes], "swept_seat": [h.index(lineup.seat) for h in homes],
                             "teams": teams},
            "baseline": {"params": {n: _whole(lineup.baseline.values[n], params[n].integer) for n in lineup.names},
                         "policy": lineup.baseline.label(), "row": lineup.baseline_row,
                         "defaults": all(lineup.baseline.values[n] == params[n].default for n in lineup.names),
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


def _whole(v: float, integer: bool):
    return int(v) if integer else float(v)
