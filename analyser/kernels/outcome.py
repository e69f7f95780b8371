"""The outcome block: the fields every game's record starts with.

The generic layer (tallies, tables, comparisons, ratings) reads a record only
through these fields and what the game's ``GameSpec`` declares, never through a
game's own names. One record is one unit: a game of Palace, a match of the
others.

Per seat (arrays of ``max_seats``; seats beyond the player count stay zero):
  score  the game's payoff: Palace 1 for a win and 0 for the loser; a match
         score where the game has one;
  win    the win share: 1/k for each of k tied winners (shares sum to the
         game's ``GameSpec.win_total``: 1 for most games, the number of
         non-losers in Palace, where the outcome is "not being the loser",
         the team's size in team games, where partners share their result);
  rank   1 + the number of seats (teams, in a team game) that did strictly
         better: tied seats share a rank and the next rank is skipped
         (1, 1, 3); partners share their team's rank (1 or 2);
  team   the seat's team (its own seat number in games without teams).
Per record:
  unit     the unit's index in the run (with the seed, all that fixes it);
  aborted  the unit hit the action cap: it has no result (score, win and
           rank stay 0) and is counted apart, never folded into a rate;
  draw     no winner (every win share is 0);
  length   the unit's length in the game's own steps (Palace: actions).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np


class _RecordError(NamedTuple):
    """Codes of the ``error`` field that the games' records carry beside ``error_seat``
    (registry.illegal_action_seat reads them)."""
    NONE: int = 0
    ILLEGAL_ACTION: int = 1      # a policy answered an action that was not legal: the unit stops, aborted


ERROR = _RecordError()


def outcome_fields(max_seats: int) -> list[tuple]:
    """The outcome block as dtype fields: put them first in a game's record dtype."""
    return [
        ("unit", np.int64),
        ("score", np.float64, (max_seats,)),
        ("win", np.float64, (max_seats,)),
        ("rank", np.int8, (max_seats,)),
        ("team", np.int8, (max_seats,)),
        ("aborted", np.bool_),
        ("draw", np.bool_),
        ("length", np.int32),
    ]


# The counters every game keeps last in its hidden record while playing and copies into
# its result record (analyser.kernels.records.record_status_nb).
STATUS_COUNTERS = [
    ("decisions", np.int32),     # policy calls with two or more legal actions
    ("aborted", np.bool_),
    ("error", np.int8),          # ERROR
    ("error_seat", np.int8),
]


def record_dtype(max_seats: int, own: list[tuple], counters: list[tuple], length: str) -> np.dtype:
    """A game's record: the outcome block, its ``own`` fields, then its ``counters`` but
    the two the block holds already (``length``, the counter it is, and ``aborted``)."""
    return np.dtype([*outcome_fields(max_seats), *own, *[f for f in counters if f[0] not in (length, "aborted")]],
                    align=True)


def check_record_dtype(dtype: np.dtype, max_seats: int, game: str) -> None:
    """Raise ValueError unless ``dtype`` carries the outcome block for ``max_seats`` seats."""
    want = np.dtype(outcome_fields(max_seats))
    for name in want.names:
        if name not in (dtype.names or ()):
            raise ValueError(f"game {game}: the record has no outcome field '{name}' "
                             f"(build the record dtype with analyser.kernels.outcome.outcome_fields)")
        have, expect = dtype.fields[name][0], want.fields[name][0]
        if have != expect:
            raise ValueError(f"game {game}: outcome field '{name}' is {have}, not {expect}")
