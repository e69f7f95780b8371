"""Palace state dtypes and the policy signature.

The state is split by who may see it, so that honesty is structural:
- ``PUBLIC_DTYPE``: what every player sees (one record per game);
- ``PRIVATE_DTYPE``: one record per seat: its hand, its policy's stream and
  the policy's own memory (kept between its decisions in one game);
- ``HIDDEN_DTYPE``: face-down cards, the draw pile, the deal's stream and the
  game's counters; never handed to a policy.
A policy is called with the public record and its own seat's private record.
"""
import numpy as np
from numba import njit

import analyser.kernels.cache  # noqa: F401  (before any @njit here: it picks where numba caches them)
from analyser.games.palace.constants import ACTION, MAX_PLAYERS, MAX_SLOTS, N_CARDS, N_RANKS
from analyser.games.palace.records import COUNTERS
from analyser.kernels.jit import inline_kernel
from analyser.kernels.records import view_nb
from analyser.kernels.signatures import state_types

P, S = MAX_PLAYERS, MAX_SLOTS

PUBLIC_DTYPE = np.dtype([
    ("phase", np.int8),
    ("seat", np.int8),                  # the seat to decide now
    ("players", np.int8),
    ("n", np.int8),                     # hand size to draw up to
    ("ten_on_anything", np.bool_),
    ("source", np.int8),                # SOURCE of the seat to decide
    ("first_play", np.bool_),           # the opening play of the game
    ("pile_len", np.int16),
    ("top_rank", np.int8),              # -1 on an empty pile
    ("top_run", np.int8),               # cards of top_rank on top of the pile
    ("pile", np.int8, (N_CARDS,)),      # card ids, bottom first
    ("face_up", np.int8, (P, S)),       # card ids, -1 for an empty slot
    ("face_up_len", np.int8, (P,)),
    ("face_down_len", np.int8, (P,)),
    ("hand_len", np.int16, (P,)),
    ("draw_len", np.int8),
    ("place", np.int8, (P,)),           # finishing place, 0 while playing
    ("n_out", np.int8),
    ("gone", np.int8, (N_RANKS,)),      # burned cards by rank
    ("known", np.uint64, (P,)),         # card ids every seat saw go into seat s's hand (a pickup, a swap),
                                        # as a mask (analyser.kernels.bits), until they leave it
], align=True)

PLAY_WORDS = 7      # legal[:56] as uint64 words: PLAY(rank, 1..4) of two ranks a word

MEMORY = 8          # slots of a policy's scratch memory (zero at the deal)

PRIVATE_DTYPE = np.dtype([
    # byte r*4 + k-1 of plays is 1 while the hand holds k or more cards of rank r:
    # the hand's PLAY entries of the legal mask if every rank could be played
    ("plays", np.uint64, (PLAY_WORDS,)),
    ("has", np.uint8, (N_CARDS,)),     # hand membership by card id (numba has no nested bools)
    ("counts", np.int8, (N_RANKS,)),    # hand cards by rank
    ("rng", np.uint64, (1,)),           # the seat policy's own random stream
    ("memory", np.float64, (MEMORY,)),  # the policy's own scratch, kept between its decisions in one game
], align=True)

# A copy of the position (public record and private records, as 32-bit words),
# the window it is compared over and the counters at one moment, for finding a
# repeating cycle (see cycles.py).
POSITION_BYTES = PUBLIC_DTYPE.itemsize + P * PRIVATE_DTYPE.itemsize
assert PUBLIC_DTYPE.itemsize % 4 == 0 and PRIVATE_DTYPE.itemsize % 4 == 0, "records are compared as 32-bit words"
CYCLE_COUNTERS = ("picked_up", "pickups", "voluntary", "burns", "actions", "turns", "decisions")
SNAPSHOT = [("snap", np.uint32, (POSITION_BYTES // 4,)), ("snap_window", np.int32)] + [
    ("snap_" + name, *shape) for name, *shape in COUNTERS if name in CYCLE_COUNTERS
]

HIDDEN_DTYPE = np.dtype([
    ("face_down", np.int8, (P, S)),
    ("draw", np.int8, (N_CARDS,)),      # draw pile, top at draw_len - 1
    ("unused", np.int8, (N_CARDS,)),    # short_game: cards left out of the deal
    ("unused_len", np.int8),
    ("rng", np.uint64, (1,)),           # the deal's stream
    ("first", np.int8),
    ("swap_up", np.int8, (P, S)),       # the swap: face-up rows as dealt, then each seat's final row
    *COUNTERS,
    *SNAPSHOT,
], align=True)


@njit(cache=True)   # not a kernel: it allocates (NRT)
def new_state_nb():
    """Zeroed arrays for one game, ``(pub, priv, hid, legal)``; from numba or Python."""
    return (np.zeros(1, PUBLIC_DTYPE), np.zeros(MAX_PLAYERS, PRIVATE_DTYPE), np.zeros(1, HIDDEN_DTYPE),
            np.zeros(ACTION.COUNT, np.bool_))


(PUBLIC_T, PRIVATE_T, HIDDEN_T,
 POLICY_SIG, POLICY_T, POLICIES_T) = state_types(PUBLIC_DTYPE, PRIVATE_DTYPE, HIDDEN_DTYPE, MAX_PLAYERS)


@inline_kernel
def legal_words_nb(legal):
    """legal[:56] as uint64 words, PLAY(r, 1..4) of two ranks a word: what
    fill_play_legal_nb writes through (made once per game there: a view checks
    its shape each time it is made) and the built-in policies read."""
    return view_nb(legal[:8 * PLAY_WORDS], np.uint64)
