"""Spite & Malice's record and counters as plain numpy dtypes (no numba: listing
games and reading results files must not load the compiler)."""
import numpy as np

from analyser.games.spite_and_malice.constants import PLAYERS
from analyser.kernels.outcome import STATUS_COUNTERS, record_dtype

P = PLAYERS

# The match's counters: kept in the hidden record while playing, copied into the result record.
COUNTERS = [
    ("rounds_won", np.int32, (P,)),
    ("payoff_left", np.int32, (P,)),     # payoff cards left at the end of each round (won or drawn), summed
    ("kings", np.int32, (P,)),           # Kings played onto build piles
    ("payoff_played", np.int32, (P,)),   # payoff cards played onto build piles
    ("builds", np.int32, (P,)),          # cards played onto build piles (any source)
    ("discards", np.int32, (P,)),        # cards put onto side piles
    ("completed", np.int32, (P,)),       # build piles this seat completed (shuffled into the stock)
    ("drawn_rounds", np.int32),
    ("turns", np.int32),                 # turns in the match (each player's turn counts one)
    ("moves", np.int32),                 # builds and discards in the match
    *STATUS_COUNTERS,
]

# One row per match: the outcome block (score = match points; win = 1 for the
# match's winner; rank 1 or 2, both 1 in a drawn match; team = seat), then the
# game's own fields.
RECORD_DTYPE = record_dtype(P, [
    ("players", np.int8),
    ("first", np.int8),                  # the first round's starter
    ("rounds", np.int32),                # rounds played (an aborted match: its last round included)
    ("points", np.int32, (P,)),          # match points (kept for aborted matches too, unlike score)
], COUNTERS, length="moves")
