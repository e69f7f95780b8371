"""Enemy Anemone state dtypes and the policy signature.

The state is split by who may see it, so that honesty is structural:
- ``PUBLIC_DTYPE``: what every player sees: the trick, the cards played this
  hand, the score piles (won cards lie face up), every seat's tokens and side,
  hand sizes, discard counts, scores;
- ``PRIVATE_DTYPE``: one record per seat: its hand and its own discards (as
  card masks, see analyser.kernels.bits), the cards it may choose from now, its
  policy's random stream and memory;
- ``HIDDEN_DTYPE``: the draw pile, the deal's stream and the match's counters;
  never handed to a policy.
A policy is called with the public record and its own seat's private record.
"""
import numpy as np
from numba import njit

import analyser.kernels.cache  # noqa: F401  (before any @njit here: it picks where numba caches them)
from analyser.games.enemy_anemone.constants import DRAW_PILE, MAX_HANDS, MAX_PLAYERS, MAX_TRICK, N_CARDS, N_SUITS
from analyser.games.enemy_anemone.records import COUNTERS
from analyser.kernels.signatures import state_types

P = MAX_PLAYERS

PUBLIC_DTYPE = np.dtype([
    ("players", np.int8),
    ("hand", np.int8),                  # this hand's index in the match, from 0
    ("hands", np.int8),                 # hands in the match (setting)
    ("trick", np.int8),                 # this trick's index in the hand, from 0
    ("tricks", np.int8),                # tricks in a hand: 10 (3-5 players), 8 (2 and 6)
    ("turn", np.int8),                  # this turn's index in the trick
    ("turns", np.int8),                 # turns in a trick: the players, or 4 with 2 players
    ("seat", np.int8),                  # the seat to decide now
    ("leader", np.int8),
    ("starter", np.int8),               # this hand's starting player
    ("discard", np.bool_),              # the seat holds no unplayed suit: it discards, without tokens
    ("spent_tokens", np.int8),          # settings a policy may reason with: 0 supply, 1 removed
    ("next_leader", np.int8),           # 0 winner, 1 lowest
    ("catchup", np.int8),               # 0 hand, 1 total
    ("trick_len", np.int8),             # cards played into this trick (discards excluded)
    ("trick_card", np.int8, (MAX_TRICK,)),
    ("trick_seat", np.int8, (MAX_TRICK,)),
    ("trick_value", np.int8, (MAX_TRICK,)),    # rank + tokens attached
    ("best", np.int8),                  # index in the trick of the card winning so far (-1: none)
    ("low", np.int8),                   # index of the card taking the token so far
    ("to_beat", np.int8),               # the value of the card winning so far (0: no card yet)
    ("trick_points", np.int8),          # the points of this trick's cards so far (3s, 5s, 8s: 2; others 1)
    ("ones", np.int8, (P,)),            # tokens held showing +1
    ("twos", np.int8, (P,)),            # tokens held showing +2
    ("supply", np.int8),
    ("removed", np.int8),               # spent_tokens=removed: tokens out of the match
    ("hand_len", np.int8, (P,)),
    ("discards", np.int8, (P,)),        # face-down discards this hand
    ("draw_len", np.int8),              # the 2-player draw pile
    ("trick_mask", np.uint64),          # the suits in this trick, as card masks (bits of every card of them)
    ("played", np.uint64),              # cards played face up this hand, this trick's included
    ("won", np.uint64, (P,)),           # each score pile's won cards this hand
    ("won_points", np.int16, (P,)),     # their points
    ("totals", np.int16, (P,)),         # match totals of the hands scored so far
    ("hand_score", np.int16, (P, MAX_HANDS)),
    # What the discards showed (the rule book, "A trick": a seat discards only holding no suit of the
    # deck missing from the trick): voided[s, u] is seat s's discard count this hand at the discard
    # that first showed it held no card of suit u (1: its first discard), 0 while none has. At 3-6
    # players that holds to the hand's end; at 2 a seat's row is cleared when it draws (the draw may
    # bring the suit back), so it keeps only the voids shown since the seat's last draw.
    ("voided", np.int8, (P, N_SUITS)),
], align=True)

MEMORY = 8          # slots of a policy's scratch memory (zero at the start of the match)

PRIVATE_DTYPE = np.dtype([
    ("hand", np.uint64),                # card mask of the hand
    ("legal", np.uint64),               # the cards it may play (or discard) now
    ("discarded", np.uint64),           # its own face-down discards this hand
    ("rng", np.uint64, (1,)),           # the seat policy's own random stream (one per hand)
    ("memory", np.float64, (MEMORY,)),  # the policy's own scratch, kept between its decisions in one match
], align=True)

HIDDEN_DTYPE = np.dtype([
    ("draw", np.int8, (DRAW_PILE,)),    # the draw pile, top at draw_len - 1
    ("deck", np.int8, (N_CARDS,)),      # the shuffle buffer
    ("rng", np.uint64, (1,)),           # this hand's deal stream
    ("first", np.int8),                 # the first hand's starter
    ("over", np.bool_),
    ("tiebreak", np.bool_),
    ("hands_played", np.int8),
    *COUNTERS,
], align=True)

assert MAX_HANDS <= 8


@njit(cache=True)
def new_state_nb():
    """Zeroed arrays for one match, ``(pub, priv, hid, legal)``; from numba or Python."""
    return (np.zeros(1, PUBLIC_DTYPE), np.zeros(MAX_PLAYERS, PRIVATE_DTYPE), np.zeros(1, HIDDEN_DTYPE),
            np.zeros(64, np.bool_))


(PUBLIC_T, PRIVATE_T, HIDDEN_T,
 POLICY_SIG, POLICY_T, POLICIES_T) = state_types(PUBLIC_DTYPE, PRIVATE_DTYPE, HIDDEN_DTYPE, MAX_PLAYERS)
