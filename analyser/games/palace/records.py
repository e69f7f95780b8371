"""Palace's record and counters as plain numpy dtypes (no numba: listing games
and reading results files must not load the compiler)."""
import numpy as np

from analyser.games.palace.constants import MAX_PLAYERS
from analyser.kernels.outcome import STATUS_COUNTERS, record_dtype

P = MAX_PLAYERS

# The game's counters: kept in the hidden record while playing, copied into the result record.
COUNTERS = [
    ("picked_up", np.int16, (P,)),
    ("pickups", np.int16, (P,)),
    ("voluntary", np.int16, (P,)),
    ("burns", np.int16, (P,)),
    ("actions", np.int32),
    ("turns", np.int32),
    *STATUS_COUNTERS,
]

# One row per game: the outcome block (rank = finishing place; win = not the
# loser; score = win), then Palace's own fields.
RECORD_DTYPE = record_dtype(P, [
    ("players", np.int8),
    ("first", np.int8),
    ("loser", np.int8),
], COUNTERS, length="actions")
