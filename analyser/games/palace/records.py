"""Palace's record and counters as plain numpy dtypes (no numba: listing games
and reading results files must not load the compiler)."""
import numpy as np

from analyser.games.palace.constants import MAX_PLAYERS
from analyser.kernels.outcome import outcome_fields

P = MAX_PLAYERS

# The game's counters: kept in the hidden record while playing, copied into the result record.
COUNTERS = [
    ("picked_up", np.int16, (P,)),
    ("pickups", np.int16, (P,)),
    ("voluntary", np.int16, (P,)),
    ("burns", np.int16, (P,)),
    ("actions", np.int32),
    ("turns", np.int32),
    ("decisions", np.int32),
    ("aborted", np.bool_),
    ("error", np.int8),
    ("error_seat", np.int8),
]
# In the record, ``actions`` is the outcome block's ``length`` and ``aborted`` is the block's own.
_IN_OUTCOME = ("actions", "aborted")

# One row per game: the outcome block (rank = finishing place; win = not the
# loser; score = win), then Palace's own fields.
RECORD_DTYPE = np.dtype([
    *outcome_fields(P),
    ("players", np.int8),
    ("first", np.int8),
    ("loser", np.int8),
    *[f for f in COUNTERS if f[0] not in _IN_OUTCOME],
], align=True)
