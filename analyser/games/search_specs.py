"""The compiled search players as users name them, the same in every game (analyser.kernels.search).

``search_policies`` gives a game's catalog its search players: ``pimc`` with ``worlds`` (how many
worlds a decision draws), ``rollout`` (which of the game's heuristics plays the worlds out) and,
in a game played in parts, ``horizon`` (the unit's win share or the part's). Their ``context``
fills what the engine appends to a search seat's params row (analyser.kernels.search_row): the
rollout policy's parameter row (its defaults) and the run's rule settings.
"""
from __future__ import annotations

import importlib

import numpy as np

from analyser.games.policy_specs import MAX_PARAMS, ParamSpec, PolicySpec
from analyser.kernels.search_row import ROLLOUT_AT, ROW, SETTINGS_AT

MAX_WORLDS = 100_000


class _Context:
    """The tail of a search seat's row: the rollout heuristic's defaults, then the rules."""

    def __init__(self, package: str, heuristics: tuple[PolicySpec, ...]):
        self.package, self.heuristics = package, heuristics

    def __call__(self, seat, game, settings: np.ndarray) -> np.ndarray:
        built_in = importlib.import_module(f"{self.package}.dispatch").BUILT_IN
        if tuple(h.function for h in self.heuristics) != tuple(built_in):
            raise ValueError(f"{self.package}: the search's rollout options are not the engine's BUILT_IN, in order")
        out = np.zeros(ROW - MAX_PARAMS)
        rollout = self.heuristics[int(seat.values["rollout"])]
        out[ROLLOUT_AT - MAX_PARAMS: ROLLOUT_AT] = rollout.bind().row()
        out[SETTINGS_AT - MAX_PARAMS: SETTINGS_AT - MAX_PARAMS + settings.size] = settings
        return out


def search_policies(package: str, heuristics: tuple[PolicySpec, ...], rollout: str,
                    part: str | None = None) -> tuple[PolicySpec, ...]:
    """The search players of the game in ``package`` (its ``search`` module compiles them), whose
    worlds are played by one of ``heuristics`` (the game's built-ins, in its BUILT_IN order),
    ``rollout`` by default; ``part``: what the game is played in ("hand", "round"), if anything."""
    names = tuple(h.name for h in heuristics)
    params = [ParamSpec("worlds", 32, "worlds drawn at each decision; every legal action is played out in each",
                        low=1, high=MAX_WORLDS, integer=True),
              ParamSpec("rollout", names.index(rollout), "the heuristic that plays every seat in the worlds",
                        options=names)]
    if part:
        params.append(ParamSpec("horizon", 1, f"a world is played to the end of the unit, or of the {part} "
                                "the decision is in (its win share is what the search maximises)",
                                options=("unit", part)))
    return (PolicySpec("pimc", f"{package}.search:pimc_policy",
                       "perfect-information Monte Carlo search: deals worlds consistent with what the seat knows, "
                       "plays each legal action out in every one with the rollout heuristic, plays the best on "
                       "average", tuple(params), context=_Context(package, heuristics), search=True),)
