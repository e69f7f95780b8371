"""Spite & Malice state dtypes and the policy signature.

The state is split by who may see it, so that honesty is structural:
- ``PUBLIC_DTYPE``: what both players see: the settings, both payoff tops and
  sizes, every side-pile card, the build piles, hand sizes, the stock's size,
  the points;
- ``PRIVATE_DTYPE``: one record per seat: its hand (counts by value), its
  policy's random stream and memory;
- ``HIDDEN_DTYPE``: the stock's order, the face-down payoff cards, the
  round's stream and the match's counters; never handed to a policy.
A policy is called with the public record and its own seat's private record.
"""
import numpy as np
from numba import njit

import analyser.kernels.cache  # noqa: F401  (before any @njit here: it picks where numba caches them)
from analyser.games.spite_and_malice.constants import (
    COMPLETE,
    LEGAL_SIZE,
    MAX_CENTRE,
    MAX_PAYOFF,
    N_CARDS,
    N_VALUES,
    PLAYERS,
    SIDE_CAP,
    SIDES,
)
from analyser.games.spite_and_malice.records import COUNTERS
from analyser.kernels.jit import inline_kernel
from analyser.kernels.signatures import state_types

P = PLAYERS

PUBLIC_DTYPE = np.dtype([
    ("round", np.int32),                # this round's index in the match, from 0
    ("centre", np.int8),                # build piles in play (setting centre_piles)
    ("refill", np.int8),                # setting refill_empty_hand
    ("stock_out", np.int8),             # 0 on_draw, 1 at_once
    ("target", np.int32),
    ("starter", np.int8),               # this round's starter
    ("seat", np.int8),                  # the seat to act
    ("turn", np.int32),                 # turns begun in this round
    ("points", np.int32, (P,)),         # match points so far
    ("payoff_len", np.int8, (P,)),
    ("payoff_top", np.int8, (P,)),      # the face-up top (0: empty)
    ("hand_len", np.int8, (P,)),
    ("stock_len", np.int16),
    ("build_len", np.int8, (MAX_CENTRE,)),          # = the pile's value (0: empty)
    ("build", np.int8, (MAX_CENTRE, COMPLETE)),     # the cards as they are (a King stays 13)
    ("side_len", np.int16, (P, SIDES)),
    ("side", np.int8, (P, SIDES, SIDE_CAP)),        # bottom first; only the top can be played
], align=True)

MEMORY = 8          # slots of a policy's scratch memory (zero at the start of the match)

PRIVATE_DTYPE = np.dtype([
    ("hand", np.int8, (N_VALUES + 1,)),   # cards of each value held (index 0 unused)
    ("rng", np.uint64, (1,)),             # the seat policy's own random stream (one per round)
    ("memory", np.float64, (MEMORY,)),    # the policy's own scratch, kept between its decisions in one match
], align=True)

HIDDEN_DTYPE = np.dtype([
    ("stock", np.int8, (N_CARDS,)),       # stock[:stock_len], top last; also the deal's shuffle buffer
    ("payoff", np.int8, (P, MAX_PAYOFF)),  # bottom first; the top is public too
    ("rng", np.uint64, (1,)),             # this round's stream: the deal, the tie, the completed-pile shuffles
    ("key", np.uint64),                   # what the match's stream seeds share (analyser.kernels.rng.unit_key_nb)
    ("first", np.int8),                   # the first round's starter
    ("over", np.bool_),
    ("winner", np.int8),                  # the match's winner (-1: none, or a drawn match)
    ("rounds_played", np.int32),
    ("round_moves", np.int32),            # builds and discards in this round (the cap counts them)
    *COUNTERS,
], align=True)


@njit(cache=True)
def new_state_nb():
    """Zeroed arrays for one match, ``(pub, priv, hid, legal)``; from numba or Python."""
    return (np.zeros(1, PUBLIC_DTYPE), np.zeros(PLAYERS, PRIVATE_DTYPE), np.zeros(1, HIDDEN_DTYPE),
            np.zeros(LEGAL_SIZE, np.bool_))


(PUBLIC_T, PRIVATE_T, HIDDEN_T,
 POLICY_SIG, POLICY_T, POLICIES_T) = state_types(PUBLIC_DTYPE, PRIVATE_DTYPE, HIDDEN_DTYPE, PLAYERS)


@inline_kernel
def side_top_nb(pb, seat, i):
    """The top card of the seat's side pile ``i`` (0: empty): what the rules and the policies read."""
    size = pb["side_len"][seat, i]
    return int(pb["side"][seat, i, size - 1]) if size > 0 else 0
