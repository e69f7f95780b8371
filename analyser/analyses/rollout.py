"""Position rollouts: from one position of a traced unit, which action is best, and by how much.

``rollout(game, seed, deal, step)`` takes the position at ``step`` of unit ``deal`` (step K: after
K of its steps, 0 the start, as the replay page numbers them; the decision there makes the trace's
move K + 1; ``steps`` says what a step is), and for each legal action of the seat to move plays
``trials`` worlds out with the line-up's policies:

- **Worlds** are drawn by analyser.games.worlds from what that seat knows there (its cards,
  the public ones, the cards it saw go into other hands, what the play showed), uniformly
  among the consistent ones; trial t's world and its random streams come from (rollout seed,
  step, t) alone, so more trials extend a rollout without changing those done, and no trial
  repeats another's (nor another step's).
- **Common random numbers**: every action is played on the same worlds with the same streams,
  so the differences between actions are paired, with intervals from the paired differences.
- **Values**: the seat's win share and score of the unit with 95% intervals (in a match, of the
  current hand or round too), the paired difference in win share from the best action, and what
  the action the seat's own policy chose there costs against the best; intervals by the
  project's conventions (stats.intervals: bounded means, floored variance, exact ties).
- **Picked on half, measured on the other half** (DIFFERENCE): the best action is picked on the
  even worlds (0, 2, 4, ...) and every difference from it measured on the odd ones, as review's
  cost is; ``top`` and ``drop`` choose on the even worlds too. Picking the best of many close
  means and measuring it on the same worlds biases every difference down (the winner's curse:
  12 close Enemy Anemone actions, 300 worlds, -3.2 points and 87% coverage); on independent
  worlds the pick is a fixed action and its paired interval is an ordinary one.
- **Played as a plan**: the worlds are a plan through engine.pipeline like every command's
  units (WorldPlay plays a batch of BATCH worlds a chunk and keeps them, WorldStop is the stop
  rule, the pipeline warns of play-outs cut at the action cap).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.engine.config import RunConfig, whole_number
from analyser.engine.pipeline import Plan, Sink, execute
from analyser.engine.progress import in_notebook, progress_bar
from analyser.errors import UserError, counted
from analyser.games.common import quiet_first_class
from analyser.games.kit import RolloutKit
from analyser.games.worlds import WorldSampler, follow
from analyser.io.results_file import read_results, write_frame
from analyser.stats.intervals import differences_ci, values_ci, widest_stop_half_width

DEFAULT_TRIALS = 1000
MAX_TRIALS = 10_000_000
BATCH = 2048                   # worlds drawn and played at a time


@dataclass
class RolloutResult:
    """A rollout's table (one row an action, best first), how it was made (``meta``), and the
    seat's win in each world after each action (``wins[t, i]``: trial t, action ``table.id`` order
    as legal, i.e. ``actions``)."""
    table: pd.DataFrame
    meta: dict
    wins: np.ndarray | None          # None when read back from a results file (it keeps the table)
    actions: np.ndarray

    def best(self) -> str:
        return str(self.table.iloc[0]["action"])

    def to_dict(self) -> dict:
        return {**self.meta, "actions": self.table.to_dict(orient="records")}

    def plot(self):
        from analyser.plots.rollout import rollout_figure

        return rollout_figure(self)

    def save(self, path) -> Path:
        """The table and the metadata as a results file (``analyser show`` and ``plot`` read it)."""
        path = Path(path)
        write_frame(path, self.table, {**self.meta, "kind": "rollout"})
        return path

    def __repr__(self) -> str:
        m = self.meta
        return (f"<RolloutResult {m['game']} seed {m['seed']} {m['unit']} {m['first_deal']} step {m['step']}: seat "
                f"{m['seat']}, {len(self.table)} actions x {m['trials']:,} worlds; best {self.best()}>")


def position_at(config: RunConfig, step: int | None, worlds: bool = False):
    """The unit's positions up to the one at ``step`` (None: to the end; the kit's
    play), the kit and the configuration's runner. A game whose kit is no RolloutKit (or, with
    ``worlds``, has no ``play_worlds`` of its own) is refused in one line naming the hook."""
    name = config.game.name
    kit = config.game.kit() if config.game.kit is not None else None
    if not isinstance(kit, RolloutKit):
        raise UserError(f"{name} has no rollout hooks: its kit (GameSpec.kit) is no analyser.games.kit.RolloutKit")
    if worlds and not plays_worlds(kit):
        raise UserError(f"{name} cannot play worlds out: its kit has no play_worlds hook "
                        "(analyser.games.kit.RolloutKit.play_worlds)")
    from analyser.engine.local import ChunkRunner

    runner = ChunkRunner(config)
    history = []
    with quiet_first_class():
        for position in kit.play(config.seed, config.first_deal, config.players, runner.settings, runner.fns,
                                 runner.params, runner.streams):
            history.append(position.relocate(position.locations()))       # a copy: the kit's are live
            if step is not None and len(history) > step:
                break
    if step is not None and len(history) <= step:
        raise UserError(f"{config.game.unit} {config.first_deal} of seed {config.seed} ends at step {len(history) - 1} "
                        f"(after {steps(kit, len(history) - 1)}), so there is no step {step}")
    return history, kit, runner


def steps(kit, n: int) -> str:
    """``n`` steps of a unit in the game's word for them (RolloutKit.steps): "97 turns", "1 action".
    The one count of a unit that the trace ends with, the replay pages through and a rollout's
    ``--step`` indexes."""
    return counted(n, *kit.steps)


def fresh(args: tuple) -> list:
    """Copies of a policy's arguments (``Position.decision``'s), as the kit makes them: a policy
    writes into its stream and memory; a seat number is passed as it is."""
    return [a.copy() if isinstance(a, (np.ndarray, np.void)) else a for a in args]


def plays_worlds(kit) -> bool:
    """Whether a game's kit plays worlds out (its own RolloutKit.play_worlds), so it can be rolled out."""
    return isinstance(kit, RolloutKit) and type(kit).play_worlds is not RolloutKit.play_worlds


def rollout(game: str = "palace", seed: int = 0, deal: int = 0, step: int = 1, seat: int | None = None,
            policies=None, players: int | None = None, rules: dict | None = None, trials: int | None = None,
            precision: float | None = None, drop: bool = False, top: int | None = None, rollout_seed: int = 0,
            threads: int | None = None, open_cards: bool = False, progress: bool | None = None) -> RolloutResult:
    """Roll out every legal action of the seat to move at ``step`` (after that many of the unit's
    steps: 0 is the start, and the decision makes the trace's move ``step`` + 1) of unit ``deal`` of
    ``seed``, the line-up ``policies`` playing on (see
    the module docstring). ``seat``, if given, must be the seat to move (a check).

    How many worlds: ``trials`` (default 1,000); or, with ``precision`` H, worlds are added in
    batches until every action still rolled out has a 95% half-width of at most H (``trials`` is
    then the cap, default 100,000). ``drop``: after each batch from MIN_DROP_TRIALS on, stop
    rolling out an action whose paired difference from the best is more than DROP_SE standard
    errors below zero. ``top`` K: after the first batch, roll out only the K best. Both judge on the
    even worlds only (DIFFERENCE), so the odd worlds measure every difference unbiased.
    ``open_cards``: every world is the true position, every card known (double dummy): what a
    seat that saw every card could do, which overstates what a player can. ``progress``: a bar of the
    worlds (default: in a notebook; a precision target's total is an estimate: Progress)."""
    from analyser.engine.pipeline import set_threads

    step = whole_number(step, "the step")
    rule = Stopping.of(trials, precision, drop, top, open_cards)
    rollout_seed = whole_number(rollout_seed, "the rollout seed")
    config = RunConfig.build(game, players=players, policies=policies, deals=1, seed=seed, rules=rules, first_deal=deal)
    if seat is not None:
        seat = whole_number(seat, "the seat", 0, config.players - 1)
    threads = set_threads(threads)
    with quiet_first_class():
        history, kit, runner = position_at(config, step, worlds=True)
        decision = history[-1].decision(forced=True)
        if decision is None:
            raise UserError(f"no seat is to move at step {step}: the {config.game.unit} is over")
        if seat is not None and seat != decision[0]:
            raise UserError(f"seat {seat} is not to move at step {step}; seat {decision[0]} is")
        shown = in_notebook() if progress is None else bool(progress)
        with progress_bar(Progress.first(rule), Progress.label("rolling out", rule), shown) as bar:
            result = roll(history, kit, runner, rule, rollout_seed, step, threads, Progress(bar, 1, rule))
    if len(result.table) == 1:
        result.meta["forced"] = "a forced move: the seat has one legal action, so there is nothing to compare"
    result.meta.update({"kind": "rollout", **config.metadata(), "step": step, "threads": threads,
                        "steps": steps(kit, step), "position": seat_position(history[-1], decision[0], config)})
    return result


def seat_position(position, seat: int, config: RunConfig) -> list[str]:
    """The position as the seat to move sees it, in lines (position_text), or none for a game without a
    replay view to name its places."""
    from analyser.analyses.position_text import game_view, position_lines

    return [] if config.game.view is None else position_lines(position, seat, game_view(config.game), config.players)


MIN_DROP_TRIALS = 500          # no action is dropped before this many worlds
DROP_SE = 3.0                  # ... nor unless it is this many standard errors below the best
DEFAULT_CAP = 100_000          # the cap of a precision target


@dataclass(frozen=True)
class Stopping:
    """How many worlds a rollout plays (see :func:`rollout`)."""
    trials: int
    precision: float | None = None
    drop: bool = False
    top: int | None = None
    open_cards: bool = False       # not a stop, but how the worlds are made: carried with the rule

    @classmethod
    def of(cls, trials, precision, drop, top, open_cards=False) -> Stopping:
        from analyser.engine.stopping import check_precision

        precision = check_precision(precision)
        cap = DEFAULT_CAP if precision is not None else DEFAULT_TRIALS
        trials = whole_number(cap if trials is None else trials, "the trials", 1, MAX_TRIALS)
        if not isinstance(drop, bool):
            raise UserError(f"drop is True or False, not {drop!r}")
        top = None if top is None else whole_number(top, "top", 1)
        if not isinstance(open_cards, bool):
            raise UserError(f"open_cards is True or False, not {open_cards!r}")
        return cls(trials, precision, drop, top, open_cards)

    def text(self) -> str:
        parts = [f"at most {self.trials:,} worlds, to a 95% half-width of {self.precision:g}"
                 if self.precision is not None else f"{self.trials:,} worlds"]
        if self.top is not None:
            parts.append(f"only the {self.top} best (on the even worlds) after the first {min(BATCH, self.trials):,}")
        if self.drop:
            parts.append(f"an action dropped once it is {DROP_SE:g} standard errors below the best on the even "
                         f"worlds, after at least {MIN_DROP_TRIALS} worlds")
        return "; ".join(parts)


def knowledge_of(history: list, seat: int, kit, runner):
    """The table as dealt when the kit has it (RolloutKit.dealt, else None), the last position of
    ``history`` and what ``seat`` knows there, followed from the table as dealt."""
    config = runner.config
    dealt = kit.dealt(config.seed, config.first_deal, config.players, runner.settings, runner.streams)
    return (dealt, *follow(([dealt] if dealt is not None else []) + list(history), seat, kit))


def roll(history: list, kit, runner, rule: Stopping, rollout_seed: int, step: int,
         threads: int | None = None, track: Progress | None = None) -> RolloutResult:
    """The rollout of the decision at ``history[-1]``, at ``step`` (its seat's information
    from the whole history). Trial t's world comes from the stream (rollout_seed, move, t), ``move``
    the number of the move the decision makes (step + 1, as the trace numbers it: the streams a
    position's worlds have always had), so the rollouts of a review's steps are independent, and each
    is the one ``rollout`` gives. The worlds are a plan through the pipeline (WorldPlay plays and keeps
    them, WorldStop says how many; ``track`` shows them played)."""
    position, move = history[-1], step + 1
    mover, args = position.decision(forced=True)
    legal = kit.legal_actions(args)
    copies = fresh(args)
    played = int(runner.fns[mover](*copies, runner.params[mover]))
    dealt, _, knowledge = knowledge_of(history, mover, kit, runner)
    sampler = kit.world_sampler(history, mover, knowledge, dealt)
    track = track or Progress(None, 1, rule)
    play = WorldPlay(position, kit, runner, sampler, first_draws(sampler, kit, rollout_seed, move), legal, mover,
                     rule, rollout_seed, move, track)
    plan = Plan(((runner.config,),), 0, min(BATCH, rule.trials), BATCH, unit="world", lost=True)
    execute(plan, play, WorldStop(rule, play), threads=threads, progress=False, executor=play)
    done = play.done
    track.finish(done)
    wins, scores = play.wins[:done], play.scores[:done]
    table = _table(wins, scores, legal, played, kit, play.dropped_at)
    meta = {"step": step, "seat": mover, "trials": done, "rollout_seed": rollout_seed,
            "played": kit.action_text(played), "stopping": rule.text(),
            "sampler": OPEN_CARDS if rule.open_cards else SAMPLER + sampler.note, "statistics": STATISTICS,
            "best": str(table.loc[table["best"], "action"].iloc[0]), "difference": DIFFERENCE}
    if play.current is not None:
        sub = runner.config.game.sub_unit
        table = _with_current(table, play.current[:done], legal, sub)
        meta["current"] = sub
    return RolloutResult(table, meta, wins, legal)


class WorldPlay(Sink):
    """A rollout's worlds played and kept: the executor of its plan (pipeline.Executor: a chunk is
    trials start .. start + count - 1, each drawn and played out after every action still rolled
    out) and its sink (each world's win share and score of the seat per action, and of the current
    hand or round in a match; after each batch, ``top`` and ``drop`` narrow the actions)."""

    def __init__(self, position, kit, runner, sampler, spread, legal, mover, rule: Stopping, rollout_seed, move,
                 track: Progress):
        self.position, self.kit, self.runner, self.sampler, self.spread = position, kit, runner, sampler, spread
        self.legal, self.mover, self.rule, self.rollout_seed, self.move = legal, mover, rule, rollout_seed, move
        self.track = track
        self.wins = np.full((rule.trials, legal.size), np.nan)
        self.scores = np.full((rule.trials, legal.size), np.nan)
        sub = runner.config.game.sub_unit                       # a match's hand or round: its value too
        self.current = np.full((rule.trials, legal.size, 2), np.nan) if sub else None
        self.active = np.ones(legal.size, bool)
        self.dropped_at = np.zeros(legal.size, np.int64)
        self.done = self.batches = 0
        self.played = None                                      # the chunk results() played last: (out, now)

    def prepare(self, plan, reuse_buffers: bool = False, held: int = 0) -> None:
        pass

    def results(self, chunks):
        for chunk in chunks:
            start, n = chunk.start, chunk.count
            worlds = [self.position.relocate(self.position.locations()) if self.rule.open_cards else
                      self.sampler.draw(np.random.default_rng([self.rollout_seed, self.move, start + t]),
                                        self.spread(start + t))
                      for t in range(n)]
            runner = self.runner
            self.played = self.kit.play_worlds(worlds, self.legal[self.active], runner.fns, runner.params,
                                               runner.settings, self.rollout_seed, (self.move << 32) + start)
            out = self.played[0]
            yield chunk, [out[:, i] for i in range(out.shape[1])]      # one play-out an action still rolled out

    def note(self) -> str:
        return ""

    def close(self, run=None) -> None:
        """Nothing to close, as the executor (no argument) or as the sink (the plan's RunStats)."""

    def add(self, chunk, records) -> None:
        out, now = self.played
        at = slice(chunk.start, chunk.start + chunk.count)
        self.wins[at, self.active] = out["win"][:, :, self.mover]
        self.scores[at, self.active] = out["score"][:, :, self.mover]
        if self.current is not None:
            self.current[at, self.active] = now[:, :, :, self.mover]
        self.done = chunk.start + chunk.count
        self.track.played(chunk.count)

    def flush(self) -> None:
        """After a batch: the ``top`` best only after the first, and ``drop`` what is clearly worse, both
        judged on the even worlds (the odd ones measure the differences: DIFFERENCE)."""
        rule, done, wins = self.rule, self.done, self.wins[: self.done: 2]
        self.batches += 1
        if rule.top is not None and self.batches == 1 and self.active.sum() > rule.top:
            keep = np.argsort(-np.nanmean(wins, axis=0), kind="stable")[: rule.top]
            self.dropped_at[~np.isin(np.arange(self.legal.size), keep)] = done
            self.active[:] = np.isin(np.arange(self.legal.size), keep)
        if rule.drop and MIN_DROP_TRIALS <= done < rule.trials:
            worse = _clearly_worse(wins, self.active)
            self.dropped_at[worse] = done
            self.active &= ~worse


class WorldStop:
    """A rollout's stop rule (engine.stopping.StopRule): batches of BATCH worlds up to the trials,
    or, with a precision target, until every action still rolled out is precise enough."""

    def __init__(self, rule: Stopping, play: WorldPlay):
        self.rule, self.play = rule, play
        self.batches: list[dict] = []

    def next(self, done: int) -> int:
        rule = self.rule
        if rule.precision is None:
            return min(BATCH, rule.trials - done)
        widest = widest_stop_half_width(self.play.wins[:done, self.play.active])
        if done >= rule.trials or widest <= rule.precision:
            return 0
        # a half-width shrinks as 1 / sqrt(worlds): about done (widest / H)^2 worlds in all
        need = done * (widest / rule.precision) ** 2 if np.isfinite(widest) else rule.trials
        self.play.track.expect(int(min(rule.trials, max(done + 1, np.ceil(need)))))
        return min(BATCH, rule.trials - done)

    def result(self, done: int) -> dict:
        return {"rule": "fixed" if self.rule.precision is None else "precision", "trials": done}


class Progress:
    """The worlds of a rollout, or of a review's rollouts, played toward the end, on a bar
    (engine.progress; None: not shown). The total is the decisions x the worlds each plays, or, with a
    precision target, an estimate revised after each batch from the widest half-width (WorldStop.next)
    and the worlds the decisions done needed, so the bar goes toward the target, not the batch."""

    def __init__(self, bar, decisions: int, rule: Stopping):
        self.bar, self.decisions, self.rule = bar, decisions, rule
        self.past = self.finished = self.now = 0       # worlds of the decisions done, how many, and of this one
        self.start, self.total = time.perf_counter(), decisions * self.first(rule)

    @staticmethod
    def first(rule: Stopping) -> int:
        """A decision's worlds as first expected: all of them, or one batch toward a precision target."""
        return rule.trials if rule.precision is None else min(BATCH, rule.trials)

    @staticmethod
    def label(what: str, rule: Stopping) -> str:
        """The bar's label: with a precision target, that its total is an estimate."""
        return what if rule.precision is None else f"{what} to ±{rule.precision:g} (total estimated)"

    def played(self, n: int) -> None:
        self.now += n
        if self.bar:
            rate = (self.past + self.now) / max(time.perf_counter() - self.start, 1e-9)
            self.bar.advance(n, f"{rate:,.0f} worlds/s")

    def expect(self, worlds: int) -> None:
        """The decision being rolled out needs about ``worlds`` in all."""
        self._total(worlds)

    def finish(self, done: int) -> None:
        self.past, self.finished, self.now = self.past + done, self.finished + 1, 0
        self._total(None)

    def _total(self, current: int | None) -> None:
        left = self.decisions - self.finished - (current is not None)
        typical = (self.past / self.finished if self.finished else current or self.first(self.rule)) \
            if self.rule.precision is not None else self.rule.trials
        total = self.past + (current or 0) + round(left * typical)
        if self.bar:
            self.bar.retotal(total)
        self.total = total


BLOCKS = 1 << 40               # the block streams' place among the trials' (rollout seed, move, t)


def first_draws(sampler: WorldSampler, kit, rollout_seed: int, move: int):
    """``trial -> first`` for sample_world: the stock's next card (RolloutKit.first_draw) cycles
    through the cards the seat cannot place, each once in every block of as many trials, in an
    order drawn per block, as GNU Backgammon rotates the first dice over its trials; the rest of
    each world as sample_world draws it. None for every trial when there is no stock to draw."""
    place = kit.first_draw(sampler.position)
    pool, free = sampler.pool, sampler.free
    if place is None or not sampler.spreads or not pool or not free.get(place[0], [False] * (place[1] + 1))[place[1]]:
        return lambda t: None
    orders: dict[int, list] = {}

    def first(t: int):
        block, at = divmod(t, len(pool))
        if block not in orders:
            orders[block] = np.random.default_rng([rollout_seed, move, BLOCKS + block]).permutation(pool).tolist()
        return (*place, orders[block][at])

    return first


SAMPLER = ("uniform over the worlds consistent with the seat's information (analyser.games.worlds): its own "
           "and the public cards fixed, cards it saw go into hidden places kept there, what the play showed "
           "kept, the rest shuffled over the unknown places; the stock's next card spread evenly over the trials "
           "(each unknown card once in every block of as many trials)")
OPEN_CARDS = ("OPEN CARDS: every world is the true position, every hidden card known (double dummy), which "
              "overstates what a player can do; only the random streams differ between worlds")
STATISTICS = ("common random numbers: every action on the same worlds and streams; 95% effective-n Wilson "
              "intervals on the floored variance (stats.intervals); differences paired per world, from the best "
              "picked on the even worlds, measured on the odd ones")
DIFFERENCE = ("vs best (diff): the action's win share less the best action's, where the best is the action with "
              "the highest mean win share on the even worlds (among those rolled out on every world; `best` in "
              "the table) and the difference is measured on the odd worlds, paired (diff_trials of them), with "
              "Tango's 95% interval; so the pick does not bias it (picking and measuring on the same worlds "
              "does: the winner's curse). What it estimates is the difference from that picked action; the "
              "best's own row is 0 [0, 0]. --top and --drop choose on the even worlds too.")


def _clearly_worse(wins: np.ndarray, active: np.ndarray) -> np.ndarray:
    """The active actions more than DROP_SE paired standard errors below the best active one."""
    mean = np.where(active, np.nanmean(wins, axis=0), -np.inf)
    best = int(np.argmax(mean))
    diff = wins - wins[:, [best]]
    se = np.nanstd(diff, axis=0, ddof=1) / np.sqrt(wins.shape[0])
    return active & (np.nanmean(diff, axis=0) + DROP_SE * se < 0) & (np.arange(wins.shape[1]) != best)


def pick_best(wins: np.ndarray, complete: np.ndarray) -> int:
    """The best action as picked on the even worlds: the highest mean there among the ``complete``
    actions (rolled out on every world). The odd worlds, independent of the pick, measure the
    differences from it (DIFFERENCE), as review's cost does."""
    return int(np.argmax(np.where(complete, np.nanmean(wins[0::2], axis=0), -np.inf)))


def _table(wins: np.ndarray, scores: np.ndarray, legal: np.ndarray, played: int, kit,
           dropped_at: np.ndarray) -> pd.DataFrame:
    """One row an action, the picked best first (``best``: pick_best), the others by mean win share;
    an action dropped early is measured on the worlds it was played on. The intervals are the
    project's (stats.intervals): a win share's the effective-n Wilson interval within [0, 1] on the
    floored variance over every world (values_ci), a score's the normal interval on it, the paired
    difference from the best Tango's score interval within [-1, 1] over the odd worlds (DIFFERENCE;
    differences_ci; the best against itself is the only exact tie, 0 [0, 0])."""
    mean = np.nanmean(wins, axis=0)
    best = pick_best(wins, dropped_at == 0)
    judge = wins[1::2]
    share = [values_ci(wins[:, i], bounds=(0.0, 1.0)) for i in range(legal.size)]
    diff = [differences_ci(judge[:, i] - judge[:, best], 1.0, tie=i == best) for i in range(legal.size)]
    score = [values_ci(scores[:, i]) for i in range(legal.size)]
    n = np.array([c["n"] for c in share])
    rows = pd.DataFrame({
        "action": [kit.action_text(int(a)) for a in legal], "id": legal.astype(int), "trials": n,
        "win": mean, "win_se": np.array([c["sd"] for c in share]) / np.sqrt(n),
        "win_ci_low": [c["low"] for c in share], "win_ci_high": [c["high"] for c in share],
        "score": np.nanmean(scores, axis=0), "score_ci_low": [c["low"] for c in score],
        "score_ci_high": [c["high"] for c in score],
        "diff": [c["mean"] for c in diff], "diff_ci_low": [c["low"] for c in diff],
        "diff_ci_high": [c["high"] for c in diff], "diff_trials": np.array([c["n"] for c in diff], np.int64),
        "best": np.arange(legal.size) == best, "dropped_at": dropped_at, "played": legal == played,
    })
    rows["order"] = np.where(np.arange(legal.size) == best, np.inf, mean)
    return rows.sort_values("order", ascending=False, kind="stable").drop(columns="order").reset_index(drop=True)


def _with_current(table: pd.DataFrame, current: np.ndarray, legal: np.ndarray, sub: str) -> pd.DataFrame:
    """The table with each action's win share (95% interval as the unit's) and score of the current
    ``sub`` (hand or round) of a match, from ``current[t, i, 0 | 1]``: what the action does to this
    hand beside what it does to the match, which a seat may value differently."""
    share = [values_ci(current[:, i, 0], bounds=(0.0, 1.0)) for i in range(legal.size)]
    score = [values_ci(current[:, i, 1]) for i in range(legal.size)]
    extra = pd.DataFrame({
        "id": legal.astype(int), f"{sub}_win": [c["mean"] for c in share],
        f"{sub}_win_ci_low": [c["low"] for c in share], f"{sub}_win_ci_high": [c["high"] for c in share],
        f"{sub}_score": np.nanmean(current[:, :, 1], axis=0), f"{sub}_score_ci_low": [c["low"] for c in score],
        f"{sub}_score_ci_high": [c["high"] for c in score],
    })
    at = list(table.columns).index("diff")
    merged = table.merge(extra, on="id", how="left", sort=False)
    order = list(table.columns[:at]) + list(extra.columns[1:]) + list(table.columns[at:])
    return merged[order]

def load_rollout(path) -> RolloutResult:
    """Read a file written by ``rollout(...).save`` / ``analyser rollout --out`` back."""
    meta, frame, path = read_results(path, "rollout", "a rollout (written by `analyser rollout --out`)")
    if not {"action", "id", "win", "diff", "played"} <= set(frame.columns):
        raise UserError(f"{path} has damaged rollout columns")
    return RolloutResult(frame, meta, None, frame["id"].to_numpy())


def decisions(game: str = "palace", seed: int = 0, deal: int = 0, policies=None, players: int | None = None,
              rules: dict | None = None) -> pd.DataFrame:
    """Every real decision of a unit (two or more legal actions): its step (what ``rollout``
    takes: the position after that many steps), the seat, how many choices, and what it played."""
    config = RunConfig.build(game, players=players, policies=policies, deals=1, seed=seed, rules=rules, first_deal=deal)
    history, kit, runner = position_at(config, None)
    rows = []
    with quiet_first_class():
        for step, position in enumerate(history):
            decision = position.decision()
            if decision is None:
                continue
            seat, args = decision
            chosen = int(runner.fns[seat](*fresh(args), runner.params[seat]))
            rows.append({"step": step, "seat": seat, "choices": len(kit.legal_actions(args)),
                         "played": kit.action_text(chosen)})
    return pd.DataFrame(rows, columns=["step", "seat", "choices", "played"])
