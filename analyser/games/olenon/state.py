"""Olenon state dtypes and the policy signature.

The state is split by who may see it, so that honesty is structural:
- ``PUBLIC_DTYPE``: what every player sees: the table and its owner, who has
  passed and the card each passer took, hand sizes, the discards, the round
  score; with ``talk=open`` also every hand (``open``; zeros with ``talk=none``);
  and the cards every player saw go into each hand (``known``: a passer's card
  back in its hand at the trick's end), which a search policy's worlds keep;
- ``PRIVATE_DTYPE``: one record per seat: its hand (seven counts), its
  policy's random stream and memory;
- ``HIDDEN_DTYPE``: the set-aside cards, the deal's stream and the match's
  counters; never handed to a policy.
A policy is called with the public record and its own seat's private record.
"""
import numpy as np
from numba import njit

import analyser.kernels.cache  # noqa: F401  (before any @njit here: it picks where numba caches them)
from analyser.games.olenon.constants import LEGAL_SIZE, N_CARDS, N_VALUES, PLAYERS, SET_ASIDE, TEAMS
from analyser.games.olenon.records import COUNTERS
from analyser.kernels.signatures import state_types

P = PLAYERS

PUBLIC_DTYPE = np.dtype([
    ("round", np.int8),                 # this round's index in the match, from 0
    ("rounds", np.int8),                # rounds a team needs to win the match (setting)
    ("talk", np.int8),                  # 0 none, 1 open (then ``open`` holds every hand)
    ("round_starter", np.int8),         # 0 rotate, 1 winner
    ("starter", np.int8),               # this round's starting player
    ("seat", np.int8),                  # the seat to act now
    ("leader", np.int8),                # who started this trick
    ("trick", np.int8),                 # this trick's index in the round, from 0
    ("table_len", np.int8),             # cards on the table, 0..4
    ("table_value", np.int8),           # their value (-1: empty)
    ("owner", np.int8),                 # the last player who put cards down in this trick (-1: none yet)
    ("passed", np.int8, (P,)),          # the card each seat took by passing this trick (-1: has not passed)
    ("hand_len", np.int8, (P,)),
    ("discarded", np.int8, (N_VALUES,)),   # cards of each value discarded this round (face up)
    ("team_rounds", np.int8, (TEAMS,)),    # rounds won so far in the match
    ("open", np.int8, (P, N_VALUES)),      # talk=open: every hand's counts
    # the cards of each value known to be in each hand: taken by passing and back in it at the trick's
    # end, less the cards of that value it put down since (which alike card went is not told: the known
    # ones first); zero at each deal. What analyser.games.worlds.Knowledge follows, kept by the rules.
    ("known", np.int8, (P, N_VALUES)),
], align=True)

MEMORY = 8          # slots of a policy's scratch memory (zero at the start of the match)

PRIVATE_DTYPE = np.dtype([
    ("hand", np.int8, (N_VALUES,)),     # cards of each value held
    ("rng", np.uint64, (1,)),           # the seat policy's own random stream (one per round)
    ("memory", np.float64, (MEMORY,)),  # the policy's own scratch, kept between its decisions in one match
], align=True)

HIDDEN_DTYPE = np.dtype([
    ("deck", np.int8, (N_CARDS,)),      # the shuffle buffer
    ("set_aside", np.int8, (SET_ASIDE,)),
    ("rng", np.uint64, (1,)),           # this round's deal stream
    ("key", np.uint64),                 # what the match's stream seeds share (analyser.kernels.rng.unit_key_nb)
    ("first", np.int8),                 # the first round's starter
    ("over", np.bool_),
    ("winner", np.int8),                # the team that won the match (-1: none yet)
    ("rounds_played", np.int8),
    ("round_actions", np.int32),        # actions in this round (the cap counts them)
    *COUNTERS,
], align=True)


@njit(cache=True)
def new_state_nb():
    """Zeroed arrays for one match, ``(pub, priv, hid, legal)``; from numba or Python."""
    return (np.zeros(1, PUBLIC_DTYPE), np.zeros(PLAYERS, PRIVATE_DTYPE), np.zeros(1, HIDDEN_DTYPE),
            np.zeros(LEGAL_SIZE, np.bool_))


(PUBLIC_T, PRIVATE_T, HIDDEN_T,
 POLICY_SIG, POLICY_T, POLICIES_T) = state_types(PUBLIC_DTYPE, PRIVATE_DTYPE, HIDDEN_DTYPE, PLAYERS)
