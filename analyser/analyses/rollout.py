"""Position rollouts: from one position of a traced unit, which action is best, and by how much.

``rollout(game, seed, deal, step)`` takes the position before action ``step`` of unit ``deal``
(``trace`` numbers the actions from 1), and for each legal action of the seat to move plays
``trials`` worlds out with the line-up's policies:

- **Worlds** are drawn by analyser.games.worlds from what that seat knows there (its cards,
  the public ones, the cards it saw go into other hands, what the play showed), uniformly
  among the consistent ones; trial t's world and its random streams come from (rollout seed,
  t) alone, so more trials extend a rollout without changing those done, and no trial repeats
  another's.
- **Common random numbers**: every action is played on the same worlds with the same streams,
  so the differences between actions are paired, with intervals from the paired differences.
- **Values**: the seat's win share (and score) of the unit, with its standard error and a 95%
  normal interval (a mean of many 0/1 or bounded trials); the paired difference from the best
  action, and what the action the seat's own policy chose there costs against the best.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyser.engine.config import RunConfig, whole_number
from analyser.errors import UserError
from analyser.games.kit import RolloutKit
from analyser.games.worlds import follow, sample_world

Z95 = 1.959963984540054
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
    wins: np.ndarray
    actions: np.ndarray

    def best(self) -> str:
        return str(self.table.iloc[0]["action"])

    def to_dict(self) -> dict:
        return {**self.meta, "actions": self.table.to_dict(orient="records")}

    def plot(self):
        from analyser.plots.rollout import rollout_figure

        return rollout_figure(self)

    def __repr__(self) -> str:
        m = self.meta
        return (f"<RolloutResult {m['game']} seed {m['seed']} {m['unit']} {m['first_deal']} step {m['step']}: seat "
                f"{m['seat']}, {len(self.table)} actions x {m['trials']:,} worlds; best {self.best()}>")


def position_at(config: RunConfig, step: int | None):
    """The unit's positions up to the one before action ``step`` (None: to the end; the kit's
    play), the kit and the configuration's runner."""
    kit = config.game.kit()
    if not isinstance(kit, RolloutKit):
        raise UserError(f"rollouts are not built for {config.game.name} yet")
    from analyser.engine.local import ChunkRunner

    runner = ChunkRunner(config)
    history = []
    for position in kit.play(config.seed, config.first_deal, config.players, runner.settings, runner.fns,
                             runner.params, runner.streams):
        history.append(position.relocate(position.locations()))       # a copy: the kit's are live
        if len(history) == step:
            break
    if step is not None and len(history) < step:
        raise UserError(f"{config.game.unit} {config.first_deal} of seed {config.seed} has "
                        f"{len(history) - 1} actions, so no step {step}")
    return history, kit, runner


def rollout(game: str = "palace", seed: int = 0, deal: int = 0, step: int = 1, seat: int | None = None,
            policies=None, players: int | None = None, rules: dict | None = None, trials: int = DEFAULT_TRIALS,
            rollout_seed: int = 0, threads: int | None = None) -> RolloutResult:
    """Roll out every legal action of the seat to move before action ``step`` (1, 2, ... as
    ``trace`` numbers them) of unit ``deal`` of ``seed``, ``trials`` worlds each, the line-up
    ``policies`` playing on (see the module docstring). ``seat``, if given, must be the seat to
    move (a check)."""
    from analyser.engine.pipeline import set_threads

    step = whole_number(step, "the step", 1)
    trials = whole_number(trials, "the trials", 1, MAX_TRIALS)
    rollout_seed = whole_number(rollout_seed, "the rollout seed")
    config = RunConfig.build(game, players, policies, 1, seed, rules, deal)
    if seat is not None:
        seat = whole_number(seat, "the seat", 0, config.players - 1)
    threads = set_threads(threads)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
        return _rollout(config, step, seat, trials, rollout_seed, threads)


def _rollout(config: RunConfig, step: int, seat, trials: int, rollout_seed: int, threads: int) -> RolloutResult:
    history, kit, runner = position_at(config, step)
    position = history[-1]
    decision = position.decision()
    if decision is None:
        raise UserError(f"no seat has a choice before action {step} (a forced move, or the "
                        f"{config.game.unit} is over): roll out a step where `trace` shows a decision")
    mover, args = decision
    if seat is not None and seat != mover:
        raise UserError(f"seat {seat} is not to move before action {step}; seat {mover} is")
    legal = kit.legal_actions(args)
    copies = [a.copy() for a in args]
    played = int(runner.fns[mover](*copies, runner.params[mover]))
    _, knowledge = follow(history, mover, kit.shuffled)
    consistent = kit.consistent(history, mover)
    wins = np.zeros((trials, legal.size))
    scores = np.zeros((trials, legal.size))
    for first in range(0, trials, BATCH):
        n = min(BATCH, trials - first)
        worlds = [sample_world(position, knowledge, np.random.default_rng([rollout_seed, first + t]), consistent)
                  for t in range(n)]
        out = kit.play_worlds(worlds, legal, runner.fns, runner.params, runner.settings, rollout_seed, first)
        wins[first: first + n] = out["win"][:, :, mover]
        scores[first: first + n] = out["score"][:, :, mover]
    table = _table(wins, scores, legal, played, kit)
    meta = {"kind": "rollout", **config.metadata(), "step": step, "seat": mover, "trials": trials,
            "rollout_seed": rollout_seed, "threads": threads, "played": kit.action_text(played),
            "sampler": "uniform over the worlds consistent with the seat's information "
                       "(analyser.games.worlds): its own and the public cards fixed, cards it saw go into "
                       "hidden places kept there, the rest shuffled over the unknown places",
            "statistics": "common random numbers: every action on the same worlds and streams; 95% normal "
                          "intervals; differences paired per world"}
    return RolloutResult(table, meta, wins, legal)


def _table(wins: np.ndarray, scores: np.ndarray, legal: np.ndarray, played: int, kit) -> pd.DataFrame:
    """One row an action, best (highest mean win share) first."""
    n = wins.shape[0]
    mean = wins.mean(axis=0)
    se = wins.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(legal.size, np.nan)
    best = int(np.argmax(mean))
    diff = wins - wins[:, [best]]
    d_mean = diff.mean(axis=0)
    d_se = diff.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(legal.size, np.nan)
    rows = pd.DataFrame({
        "action": [kit.action_text(int(a)) for a in legal], "id": legal.astype(int),
        "win": mean, "win_se": se, "win_ci_low": mean - Z95 * se, "win_ci_high": mean + Z95 * se,
        "score": scores.mean(axis=0),
        "diff": d_mean, "diff_ci_low": d_mean - Z95 * d_se, "diff_ci_high": d_mean + Z95 * d_se,
        "played": legal == played,
    })
    return rows.sort_values("win", ascending=False, kind="stable").reset_index(drop=True)
