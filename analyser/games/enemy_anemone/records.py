"""Enemy Anemone's record and counters as plain numpy dtypes (no numba: listing
games and reading results files must not load the compiler)."""
import numpy as np

from analyser.games.enemy_anemone.constants import MAX_HANDS, MAX_PLAYERS
from analyser.kernels.outcome import STATUS_COUNTERS, record_dtype

P = MAX_PLAYERS

# The match's counters: kept in the hidden record while playing, copied into the result record.
COUNTERS = [
    ("tricks", np.int16, (P,)),          # tricks won
    ("tokens_taken", np.int16, (P,)),    # tokens taken: from the supply, a flip, or another seat
    ("tokens_spent", np.int16, (P,)),    # tokens attached to played cards
    ("value_spent", np.int16, (P,)),     # their value (+1 or +2 each)
    ("discards", np.int16, (P,)),
    ("actions", np.int32),               # plays and discards
    *STATUS_COUNTERS,
]

# One row per match: the outcome block (score = match total; win = share of the
# match won; rank by match total, then tokens held), then the game's own fields.
RECORD_DTYPE = record_dtype(P, [
    ("players", np.int8),
    ("hands", np.int8),                  # hands played
    ("first", np.int8),                  # the first hand's starter
    ("tiebreak", np.bool_),              # tokens decided between tied totals
    ("hand_score", np.int16, (P, MAX_HANDS)),
    ("tokens_held", np.int8, (P,)),      # at the end of the match
], COUNTERS, length="actions")
