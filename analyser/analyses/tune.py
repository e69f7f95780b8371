"""Tuning: a policy's best parameters against given opponents, and how much better they really are.

``tune("enemy_anemone", "timing:min_points=0..10,only_to_win=0|1", against=["greedy", "lowball"])``
searches the policy's parameters, races the best settings found against its defaults, and confirms the
winner on deals nothing before it saw. The best of many noisy estimates overstates itself (with 100
equally good settings the best looks about 2.5 standard errors better than it is), so the search's
numbers are never the answer; each step is visible in the result:

1. Three streams of deals of one seed, which never overlap (``check_streams`` asserts it): the search
   stream (deals 0 ..), the selection stream (from 2**40) and the confirmation stream (from 2**41).
2. Search (analyser.analyses.tune_search): Optuna's TPE, or random search (the baseline any optimizer
   must beat), or NTBEA for small discrete spaces (several independent runs). A trial scores a setting on
   the search stream's blocks of ``block`` duplicate deals, in an order shuffled from its seed; a block is
   one instance of Optuna's Wilcoxon pruner. ``budget`` is the search's deals (per setting tried).
3. Selection (analyser.stats.race): the ``top`` settings of each run and the defaults race on the
   selection stream, in STAGES stages, paired by deal, the ones below the leader eliminated under
   Holm's control (Bonferroni over the looks); the defaults stay unless beaten.
4. Confirmation: the winner, and the best other setting of the race (the challenger: what the search
   would have switched to), on the confirmation stream only, against the defaults and against each
   opponent, each margin with its 95% interval; the search's estimate is shown beside the confirmed
   one, and their difference is the winner's curse.
5. Sensitivity: every one-step deviation of each parameter around the winner, on the confirmation
   deals, against the winner (paired) and against the defaults.

What one setting scores on a block: every deal is played, for each opponent, in every rotation of the
line-up (the tuned policy in seat 0, the opponent's policies in the others, as a sweep plays it,
analyser.analyses.sweep_plays); per deal the tuned seat's win share averaged over the arrangements and
the opponents (one deal = one observation); the score is its mean difference from the defaults on the
same deals (a deal aborted in any play of either is dropped). Every policy instance keeps its stream id
as it moves, so a setting that plays as the defaults differs from them by exactly 0.

Deterministic: every number depends on the seed and the arguments alone, not on threads, chunking, the
backend or a study stopped and resumed (tune_search says how).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analyser.analyses.sweep_plays import Plays, setting_row
from analyser.analyses.tune_lineup import Opponent, Tuned, neighbours, opponents, tuned_policy
from analyser.analyses.tune_result import KIND, TuneResult
from analyser.analyses.tune_search import OPTIMIZERS, Search, ranked
from analyser.engine.backend import make_executor
from analyser.engine.config import DEFAULT_CHUNK, RunConfig, function_name, whole_number
from analyser.engine.pipeline import Gather, Plan, execute
from analyser.engine.play_args import play_args
from analyser.engine.progress import in_notebook, progress_bar
from analyser.errors import Interrupted, UserError, stop_word, was_terminated
from analyser.games.policy_specs import SeatPolicy, same_policy
from analyser.games.registry import get_game
from analyser.io.jsonable import jsonable
from analyser.io.results_file import check_results_path
from analyser.stats.intervals import differences_ci, exact
from analyser.stats.race import race

DEFAULT_BLOCK = 100
DEFAULT_BLOCKS = 10
DEFAULT_TRIALS = 30
STAGES = 4
TOP = 4
NTBEA_RUNS = 3
STREAM_SPAN = 2**40
ALPHA = 0.05


def stream_layout(search: int, selection: int, confirmation: int) -> dict[str, tuple[int, int]]:
    """Each stream's (first deal, deals), each in its own span of STREAM_SPAN deals."""
    streams = {"search": (0, search), "selection": (STREAM_SPAN, selection),
               "confirmation": (2 * STREAM_SPAN, confirmation)}
    check_streams(streams)
    return streams


def check_streams(streams: dict[str, tuple[int, int]]) -> None:
    """Assert that no two streams share a deal: the selection and confirmation must be on deals the steps
    before them never saw."""
    spans = sorted(streams.items(), key=lambda item: item[1][0])
    for (a, (first_a, count_a)), (b, (first_b, _)) in zip(spans, spans[1:], strict=False):
        if first_a + count_a > first_b:
            raise AssertionError(f"the {a} and {b} streams overlap (deals {first_b:,} to "
                                 f"{first_a + count_a - 1:,} are in both)")


def pooled(plays: list[Plays]) -> Plays:
    """One Plays over the opponents: each per-deal value averaged over them, aborted if aborted in any."""
    def mean(name):
        return exact(np.mean([getattr(p, name) for p in plays], axis=0))

    return Plays(mean("win"), mean("score"), mean("rank"), mean("draw"), mean("seats"),
                 np.any([p.aborted for p in plays], axis=0), mean("win_done"), mean("missing"))


def wins(plays: Plays) -> np.ndarray:
    """The per-deal win share, NaN where a play aborted (the race drops such a deal from each pair)."""
    return np.where(plays.aborted, np.nan, plays.win)


class Player:
    """Plays a setting of the tuned policy against every opponent on a range of deals (one plan: one group
    per opponent, its arrangements), each range kept once played (the defaults meet every block)."""

    def __init__(self, base: RunConfig, tuned: Tuned, rivals: list[Opponent], rules, executor, threads, chunk_size):
        self.base, self.tuned, self.rivals, self.rules = base, tuned, rivals, rules
        self.executor, self.threads, self.chunk_size = executor, threads, chunk_size
        self.kept: dict = {}
        self.deals = 0
        self.runs: list = []
        self.bar = None            # a progress bar of the deals played, advanced as they are

    def group(self, seat: SeatPolicy, rival: Opponent, first: int, count: int) -> tuple:
        lineup = rival.lineup(seat)
        return tuple(RunConfig.build(self.base.game, players=self.base.players, policies=[lineup[h] for h in ids],
                                     deals=count, seed=self.base.seed, rules=self.rules, first_deal=first,
                                     streams=ids) for ids in rival.homes)

    def plays(self, seat: SeatPolicy, first: int, count: int) -> list[Plays]:
        key = (tuple(seat.row()), first, count)
        if key not in self.kept:
            blocks: list[list[Plays]] = [[] for _ in self.rivals]

            def add(chunk, recs):
                blocks[chunk.group].append(Plays.of(recs, self.rivals[chunk.group].positions, self.base.players))

            plan = Plan(tuple(self.group(seat, r, first, count) for r in self.rivals), first, count,
                        self.chunk_size, "", "opponents")
            self.runs.append(execute(plan, Gather(add), threads=self.threads, progress=False,
                                     executor=self.executor))
            self.deals += count
            if self.bar is not None:
                self.bar.advance(count)
            self.kept[key] = [Plays.concat(b) for b in blocks]
        return self.kept[key]


def tune(game: str = "palace", policy=None, against=None, players: int | None = None, budget: int | None = None,
         optimizer: str = "tpe", seed: int = 0, block: int | None = None, blocks: int = DEFAULT_BLOCKS,
         confirm: int | None = None, runs: int | None = None, top: int = TOP, space: dict | None = None,
         study=None, rules: dict | None = None, threads: int | None = None, unit: str | None = None, out=None,
         backend=None, run_dir=None, chunk_size: int = DEFAULT_CHUNK, progress: bool | None = None) -> TuneResult:
    """Tune one policy's parameters against opponents (see the module docstring).

    policy: the policy with values for the tuned parameters (``"timing:min_points=0..10,only_to_win=0|1"``),
    or a policy (a name, PolicySpec of one's own, SeatPolicy) with ``space={"min_points": range(11)}``.
    against: opponents, each a policy for every other seat or the other seats' policies joined by ``+``
    (default: the game's default policy). budget: the search's deals (default DEFAULT_TRIALS full trials);
    block: deals per block (default 100); blocks: blocks per trial; confirm: the confirmation's deals
    (default: the selection's); runs: independent search runs (NTBEA: 3); top: candidates per run;
    study: a directory holding the study's JournalStorage file, to resume from. backend, run_dir: as
    simulate's. ``progress`` is accepted for the CLI's sake; a tuning plays many small plans, shown by none.
    """
    spec = get_game(game) if isinstance(game, str) else game
    args = play_args(spec, players, spec.default_policy, seed, rules, unit, n=block, default_count=DEFAULT_BLOCK,
                     chunk_size=chunk_size, backend=backend, run_dir=run_dir)
    base, block = args.base, args.count
    if optimizer not in OPTIMIZERS:
        raise UserError(f"unknown optimizer '{optimizer}'; choose from: {', '.join(OPTIMIZERS)}")
    blocks = whole_number(blocks, "blocks per trial", 1, 10_000)
    top = whole_number(top, "candidates per run", 1, 1_000)
    runs = whole_number((NTBEA_RUNS if optimizer == "ntbea" else 1) if runs is None else runs, "search runs", 1, 100)
    budget = DEFAULT_TRIALS * blocks * block if budget is None else whole_number(budget, "the budget", 0)
    if budget < block * runs:
        raise UserError(f"the budget ({budget:,} deals) is smaller than one block ({block:,} deals)"
                        + (f" per run ({runs} runs)" if runs > 1 else "") + f": give --budget {block * runs:,} or more")
    stage = math.ceil(blocks / 2) * block
    confirm = STAGES * stage if confirm is None else whole_number(confirm, "the confirmation's deals", 2)
    if out is not None:
        check_results_path(out)                 # before the run, not after it
    tuned = tuned_policy(base.game, policy, space)
    rivals = opponents(base.game, base.players, against)
    streams = stream_layout(blocks * block, STAGES * stage, confirm)
    identity = {"game": base.game.name, "unit": base.game.unit, "players": base.players, "policy": tuned.text,
                "function": function_name(tuned.spec.function),
                "against": [r.label for r in rivals], "seed": base.seed, "block": block, "blocks": blocks,
                "settings": base.settings, "space": [list(v) for v in tuned.space.values]}
    executor = make_executor(args.backend, args.run_dir, False)
    label = f"{base.game.name} x{base.players}, tuning {tuned.spec.name}"
    player = Player(base, tuned, rivals, rules, executor, threads, args.chunk_size)
    try:
        with progress_bar(budget + STAGES * stage * (1 + runs * top) + confirm * (3 + 2 * len(tuned.space.names)),
                          label, in_notebook() if progress is None else progress) as bar:
            player.bar = bar
            raced, trials, picks, seats, confirmed, around, searched = _protocol(
                player, tuned, streams, optimizer, budget, block, blocks, stage, runs, top, study, identity)
    except (Interrupted, KeyboardInterrupt) as err:    # said for the tuning, not for its last small plan
        kept = f"; the trials finished are kept in {study}: run it again to resume" if study is not None else \
            "; give --study DIR to keep a tuning's trials"
        raise Interrupted(f"{stop_word(err)} after {player.deals:,} deals of the tuning{kept}",
                          was_terminated(err)) from None
    finally:
        executor.close()
    frames = _frames(tuned, rivals, picks, seats, raced, confirmed, around, base)
    meta = _metadata(base, tuned, rivals, streams, optimizer, budget, block, blocks, runs, top, study, trials,
                     raced, player, searched)
    result = TuneResult(*frames, meta)
    if out is not None:
        result.save(out)
    return result


def _protocol(player: Player, tuned: Tuned, streams, optimizer, budget, block, blocks, stage, runs, top, study,
              identity):
    """Search, race, confirmation and sensitivity (the module docstring's steps 2 to 5)."""
    defaults = tuned.defaults

    def evaluate(point: dict, b: int) -> float:
        first = streams["search"][0] + b * block
        mine = pooled(player.plays(tuned.seat(point), first, block))
        theirs = pooled(player.plays(defaults, first, block))
        d = wins(mine) - wins(theirs)
        return float(np.nanmean(d)) if np.isfinite(d).any() else -1.0

    trials = Search(tuned.space, evaluate, optimizer=optimizer, budget=budget, block=block, blocks=blocks,
                    seed=player.base.seed, runs=runs, study_dir=study, identity=identity).run()
    searched = player.deals
    picks = _candidates(tuned, trials, optimizer, runs, top)
    seats = [tuned.seat(p["params"]) for p in picks]

    def play_stage(s: int, alive: list[int]) -> np.ndarray:
        first = streams["selection"][0] + s * stage
        return np.array([wins(pooled(player.plays(seats[c], first, stage))) for c in alive])

    raced = race(play_stage, len(picks), STAGES, incumbent=0, alpha=ALPHA)
    first, count = streams["confirmation"]
    confirmed = {c: player.plays(seats[c], first, count) for c in {0, raced["winner"], raced["challenger"]}
                 if c is not None}
    winner = picks[raced["winner"]]["params"]
    around = [(name, value, step, player.plays(tuned.seat({**winner, name: value}), first, count))
              for name, value, step in neighbours(tuned.space, winner)]
    return raced, trials, picks, seats, confirmed, around, searched


def _candidates(tuned: Tuned, trials: list[dict], optimizer: str, runs: int, top: int) -> list[dict]:
    """The defaults, then each run's ``top`` best distinct settings (the defaults among them left out)."""
    default = dict(zip(tuned.space.names, tuned.space.default, strict=True))
    out = [{"params": default, "run": None, "search": _estimate(trials, default)}]
    seen = {tuple(sorted(default.items()))}
    for run in range(runs):
        kept = 0
        for params, estimate in ranked(tuned.space, trials, optimizer, run):
            key = tuple(sorted(params.items()))
            if kept == top:
                break
            if key in seen:
                continue
            seen.add(key)
            kept += 1
            out.append({"params": params, "run": run, "search": estimate})
    return out


def _estimate(trials: list[dict], params: dict) -> float:
    """The search's mean for ``params`` (its trials' blocks), NaN if it was never tried."""
    values = [v for t in trials if t["params"] == params for v in t["values"]]
    return float(np.mean(values)) if values else float("nan")


def _frames(tuned, rivals, picks, seats, raced, confirmed, around, base):
    names = tuned.space.names
    fair = base.game.win_total(base.players) / base.players
    rows, conf_rows = [], []
    base_values = raced["values"][0]
    for c, pick in enumerate(picks):
        row = {n: pick["params"][n] for n in names}
        d = raced["values"][c][: base_values.size] - base_values[: raced["values"][c].size]
        race_diff = differences_ci(d, 1.0, tie=c == 0)
        row.update(label=seats[c].label(), defaults=c == 0, run=pick["run"], search_estimate=pick["search"],
                   race_deals=raced["deals"][c], race_out=raced["out"][c], race_p_holm=raced["p_holm"][c],
                   race_diff=race_diff["mean"], race_diff_ci_low=race_diff["low"], race_diff_ci_high=race_diff["high"],
                   winner=c == raced["winner"], challenger=c == raced["challenger"])
        if c in confirmed:
            same = same_policy(seats[c], seats[0])
            whole = setting_row(pooled(confirmed[c]), pooled(confirmed[0]), same)
            row.update(confirmed=whole["win_diff"], confirmed_ci_low=whole["win_diff_ci_low"],
                       confirmed_ci_high=whole["win_diff_ci_high"],
                       curse=pick["search"] - whole["win_diff"] if np.isfinite(pick["search"]) else float("nan"))
            role = "winner" if c == raced["winner"] else "challenger" if c == raced["challenger"] else "defaults"
            for label, mine, theirs in [*((r.label, confirmed[c][i], confirmed[0][i]) for i, r in enumerate(rivals)),
                                        ("all", pooled(confirmed[c]), pooled(confirmed[0]))]:
                cells = setting_row(mine, theirs, same)
                conf_rows.append({"label": seats[c].label(), "role": role, "opponent": label, "fair_share": fair,
                                  "margin": cells["win_rate"] - fair, "margin_ci_low": cells["win_ci_low"] - fair,
                                  "margin_ci_high": cells["win_ci_high"] - fair, **cells})
        rows.append(row)
    winner = raced["winner"]
    sens = []
    for name, value, step, plays in around:
        vs_winner = setting_row(pooled(plays), pooled(confirmed[winner]))
        vs_defaults = setting_row(pooled(plays), pooled(confirmed[0]))
        sens.append({"parameter": name, "value": value, "step": step, "win_rate": vs_winner["win_rate"],
                     "vs_winner": vs_winner["win_diff"], "vs_winner_ci_low": vs_winner["win_diff_ci_low"],
                     "vs_winner_ci_high": vs_winner["win_diff_ci_high"], "vs_defaults": vs_defaults["win_diff"],
                     "vs_defaults_ci_low": vs_defaults["win_diff_ci_low"],
                     "vs_defaults_ci_high": vs_defaults["win_diff_ci_high"], "games": vs_winner["games"]})
    candidates = pd.DataFrame(rows)
    for col in ("confirmed", "confirmed_ci_low", "confirmed_ci_high", "curse"):
        if col not in candidates:
            candidates[col] = np.nan
    return (candidates, pd.DataFrame(conf_rows),
            pd.DataFrame(sens, columns=["parameter", "value", "step", "win_rate", "vs_winner", "vs_winner_ci_low",
                                        "vs_winner_ci_high", "vs_defaults", "vs_defaults_ci_low",
                                        "vs_defaults_ci_high", "games"]))


METHOD = ("three streams of deals of the run seed that never overlap: search, selection, confirmation; a "
          "setting's value on a deal: the tuned seat's win share averaged over every arrangement of each "
          "opponent's line-up ({scheme}) and over the opponents; search: {optimizer} over blocks of {block} "
          "duplicate deals, a trial's blocks in an order shuffled from its seed, a block one instance of the "
          "Wilcoxon pruner (p < {prune}); selection: the defaults and each run's {top} best settings raced in "
          "{stages} stages on the selection stream, paired by deal, a setting below the leader eliminated when "
          "its Holm-adjusted score-test p-value is under {level:g} (5% / {stages} looks); the defaults stay "
          "unless eliminated; confirmation: the winner and the challenger (the best other setting of the race) "
          "against the defaults on the confirmation stream only, paired by deal (Tango's interval), and their "
          "win share against each opponent (effective-n Wilson); curse = search estimate - confirmed "
          "difference; sensitivity: each parameter one step either side of the winner, on the confirmation "
          "deals, paired against the winner and the defaults")


def _metadata(base, tuned, rivals, streams, optimizer, budget, block, blocks, runs, top, study, trials, raced,
              player, searched) -> dict:
    from analyser.analyses.tune_search import PRUNE_P

    config = RunConfig.build(base.game, players=base.players, policies=rivals[0].lineup(tuned.defaults), deals=1,
                             seed=base.seed, rules=None, streams=None)
    meta = config.metadata()
    meta.pop("deals")
    meta.pop("first_deal")
    space = tuned.space
    pruned = sum(t["state"] == "pruned" for t in trials)
    return {"kind": KIND, **{k: meta[k] for k in ("game", "unit", "players", "seed", "versions")},
            "settings": {s.name: s.show(base.settings[s.name]) for s in base.game.settings},
            "policy": tuned.spec.name, "tuned": tuned.text, "fixed": jsonable(tuned.fixed),
            "parameters": [{"name": n, "values": list(v), "default": d}
                           for n, v, d in zip(space.names, space.values, space.default, strict=True)],
            "space_size": space.size, "defaults": tuned.defaults.label(),
            "against": [{"label": r.label, "seats": [s.label() for s in r.seats], "arrangements": len(r.homes),
                         "scheme": r.scheme} for r in rivals],
            "optimizer": optimizer, "budget": budget, "block": block, "blocks": blocks, "runs": runs, "top": top,
            "study": None if study is None else str(study),
            "streams": {k: {"first": f, "deals": n} for k, (f, n) in streams.items()},
            "trials": {"count": len(trials), "pruned": pruned, "search_deals": sum(len(t["values"]) for t in trials)
                       * block, "played_deals": searched},
            "trial_rows": [{k: t[k] for k in ("run", "number", "k", "state", "params", "value", "blocks", "values")}
                           for t in trials],
            "race": {"stages": raced["stages"], "level": raced["level"], "alpha": ALPHA, "kept": raced["kept"]},
            "deals_played": player.deals, "plays": sum(r.plays for r in player.runs),
            "seconds": sum(r.seconds for r in player.runs), "threads": player.runs[0].threads if player.runs else None,
            "fair_share": base.game.win_total(base.players) / base.players, "confidence": 0.95,
            "method": METHOD.format(scheme=rivals[0].scheme, optimizer=optimizer, block=block, prune=PRUNE_P, top=top,
                                    stages=raced["stages"], level=raced["level"])}
