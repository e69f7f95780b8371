"""Olenon's record and counters as plain numpy dtypes (no numba: listing games
and reading results files must not load the compiler)."""
import numpy as np

from analyser.games.olenon.constants import PLAYERS
from analyser.kernels.outcome import STATUS_COUNTERS, record_dtype

P = PLAYERS

# The match's counters: kept in the hidden record while playing, copied into the result record.
COUNTERS = [
    ("goes_out", np.int8, (P,)),         # rounds this seat went out (won for its team)
    ("plays", np.int16, (P,)),           # plays: onto an empty table or added to it
    ("replaces", np.int16, (P,)),
    ("passes", np.int16, (P,)),
    ("cards_played", np.int16, (P,)),    # cards put down by plays and replaces
    ("actions", np.int32),               # plays, replaces and passes in the match
    *STATUS_COUNTERS,
]

# One row per match: the outcome block (team = seat & 1; score = rounds won by
# the seat's team; win = 1 for both partners of the team that won the match;
# rank 1 or 2 by team), then the game's own fields.
RECORD_DTYPE = record_dtype(P, [
    ("players", np.int8),
    ("rounds", np.int8),                 # rounds played (an aborted match: its last round included)
    ("first", np.int8),                  # the first round's starter
    ("rounds_won", np.int8, (P,)),       # by the seat's team (partners hold the same number)
], COUNTERS, length="actions")
