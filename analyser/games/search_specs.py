"""The compiled search players as users name them, the same in every game (analyser.kernels.search).

``search_policies`` gives a game's catalog its search players: ``pimc`` with ``worlds`` (how many
worlds a decision draws) and ``ismcts`` with ``iterations`` and ``c``, each with ``rollout`` (which
of the game's heuristics plays the worlds out) and, in a game played in parts, ``horizon`` (the
unit's win share or the part's). Their ``context``
fills what the engine appends to a search seat's params row (analyser.kernels.search_row): the
rollout policy's parameter row (its defaults) and the run's rule settings.
"""
from __future__ import annotations

import importlib

import numpy as np

from analyser.games.policy_specs import MAX_PARAMS, ParamSpec, PolicySpec
from analyser.kernels.search_row import (
    BUDGET,
    HORIZON,
    KIND,
    MARGIN,
    OPEN,
    REVEAL_AT,
    ROLLOUT_AT,
    ROW,
    SCALE,
    SEATS,
    SETTINGS_AT,
    VALUE,
    C,
    reveal_words,
)

MAX_WORLDS = 100_000


class _Context:
    """The tail of a search seat's row: the rollout heuristic's defaults, then the rules."""

    def __init__(self, package: str, heuristics: tuple[PolicySpec, ...]):
        self.package, self.heuristics = package, heuristics

    def __call__(self, seat, game, settings: np.ndarray, players: int) -> np.ndarray:
        built_in = importlib.import_module(f"{self.package}.dispatch").BUILT_IN
        if tuple(h.function for h in self.heuristics) != tuple(built_in):
            raise ValueError(f"{self.package}: the search's rollout options are not the engine's BUILT_IN, in order")
        row = np.zeros(ROW)
        values = seat.values
        index = int(values["rollout"])
        row[ROLLOUT_AT: SETTINGS_AT] = self.heuristics[index].bind().row()
        row[SETTINGS_AT: SETTINGS_AT + settings.size] = settings
        row[BUDGET] = values.get("worlds", values.get("iterations"))
        row[KIND] = index + 1                               # analyser.games.dispatch: 1 + the place in BUILT_IN
        row[HORIZON] = values.get("horizon", 0)
        row[C] = values.get("c", 0)
        row[VALUE] = values.get("value", 0)
        row[MARGIN] = values.get("margin", 0)
        rules = dict(zip((s.name for s in game.settings), settings.tolist(), strict=True))
        low, high = game.score_bounds(players, rules) if game.score_bounds else (0.0, 1.0)
        row[SCALE] = 1.0 / (high - low) if high > low else 1.0
        row[SEATS] = players
        row[OPEN] = values.get("open", 0)
        if row[OPEN]:                                       # room for the table the engine reveals
            state = importlib.import_module(f"{self.package}.state")
            row = np.concatenate([row[:REVEAL_AT], np.zeros(reveal_words(
                np.zeros(game.max_seats, state.PRIVATE_DTYPE), np.zeros(1, state.HIDDEN_DTYPE)))])
        return row[MAX_PARAMS:]


def search_policies(package: str, heuristics: tuple[PolicySpec, ...], rollout: str,
                    part: str | None = None, value: str | None = None,
                    margin: float = 0.0) -> tuple[PolicySpec, ...]:
    """The search players of the game in ``package`` (its ``search`` module compiles them), whose
    worlds are played by one of ``heuristics`` (the game's built-ins, in its BUILT_IN order),
    ``rollout`` by default; ``part``: what the game is played in ("hand", "round"), if anything;
    ``value``: in a game scored in points, what the search maximises by default ("win" or "score");
    ``margin``: PIMC's default margin over its heuristic (a game whose single moves matter little
    against the deal's noise needs one, or the search plays noise)."""
    names = tuple(h.name for h in heuristics)
    shared = [ParamSpec("rollout", names.index(rollout), "the heuristic that plays every seat in the worlds",
                        options=names)]
    if part:
        shared.append(ParamSpec("horizon", 1, f"a world is played to the end of the unit, or of the {part} "
                                "the decision is in", options=("unit", part)))
    if value is not None:
        shared.append(ParamSpec("value", ("win", "score").index(value), "what the search maximises: the win "
                                "share of its horizon, or the score's margin over the best other seat",
                                options=("win", "score")))
    shared.append(ParamSpec("open", 0, "cheat: see every hidden card and the stock's order, to measure what "
                            "perfect information is worth (the label says '(cheating)')", options=("no", "yes")))
    context = _Context(package, heuristics)
    return (
        PolicySpec("pimc", f"{package}.search:pimc_policy",
                   "perfect-information Monte Carlo search: deals worlds consistent with what the seat knows, "
                   "plays each legal action out in every one with the rollout heuristic, plays the best on average",
                   (ParamSpec("worlds", 32, "worlds drawn at each decision; every legal action is played out in each",
                              low=1, high=MAX_WORLDS, integer=True), *shared,
                    ParamSpec("margin", margin, "leave the rollout heuristic's own choice only for an action this "
                              "many standard errors better on the same worlds (0: the best mean)", low=0, high=10)),
                   context=context, search=True, cheats="open"),
        PolicySpec("ismcts", f"{package}.search:ismcts_policy",
                   "information-set Monte Carlo tree search (single observer, Cowling et al. 2012): a fresh "
                   "world each iteration, one tree over every seat's actions, the most visited action played",
                   (ParamSpec("iterations", 1000, "iterations at each decision, each one world played out",
                              low=1, high=MAX_WORLDS * 10, integer=True), *shared,
                    ParamSpec("c", 0.7, "UCB1's exploration constant (results read on the range seen so far)",
                              low=0, high=100)), context=context, search=True, cheats="open"),
    )
