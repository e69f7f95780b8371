"""Palace's hooks for the compiled search players (analyser.kernels.search) and ``pimc_policy``.

A world for the seat to play is dealt from what it knows: its hand, the pile, every face-up
card and the cards every seat saw go into a hand (``pub["known"]``: a pickup, a swapped face-up
card, a failed face-down card) stay where they are; the rest, the pool, is shuffled over the other
hands' unknown cards, every face-down card (its own too), the draw pile and, in a short game, the
cards left out. Burned cards are public by rank only (``pub["gone"]``), and the rules read ranks
only, so of each rank's unplaced cards the lowest ids are taken as the burned ones.

The sampler is simpler than the rollouts' (analyser.games.palace.opening): it leaves out the
opening clue (who opened, and with what, says something of the other hands' lowest cards). That
is honest, the clue is only forgotten, and it changes little after the first round of play; the
rollouts, which measure, keep it. A world's action count starts at 0, so a rollout may run to the
action cap from the decision on (the count is public, but the search does not need it).

The search only plays: the swap before the first play is its rollout policy's (``searching_nb``).
"""
from __future__ import annotations

import numpy as np

from analyser.games.palace.constants import ACTION, MAX_PLAYERS, MAX_SLOTS, N_CARDS, PHASE, SETTING
from analyser.games.palace.dispatch import decide_nb
from analyser.games.palace.engine import RECORD_DTYPE, record_nb
from analyser.games.palace.playouts import forced_policy
from analyser.games.palace.rules import add_to_hand_nb, fill_play_legal_nb, step_nb
from analyser.games.palace.state import POLICIES_T, POLICY_SIG, legal_words_nb, new_state_nb
from analyser.kernels.bits import BIT, NONE, count_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.rng import next_u64_nb, shuffle_nb
from analyser.kernels.search import SearchPlayers, marked_actions_nb, sample_worlds

MAX_CHOICES = ACTION.SWAP          # plays, the pickup and the face-down cards
N_SETTINGS = len(SETTING)


@inline_kernel
def actions_nb(pb, pv, legal, out):
    """The legal plays, pickup and face-down cards, in id order."""
    return marked_actions_nb(legal, ACTION.SWAP, out)


@inline_kernel
def fill_legal_nb(pb, pv, legal):
    """The seat's legal plays, pickup and face-down cards, as the rules mark them before asking it."""
    fill_play_legal_nb(pb, pv, pb["seat"], legal, legal_words_nb(legal))


@inline_kernel
def searching_nb(pb):
    return pb["phase"] == PHASE.PLAY


@inline_kernel
def part_nb(pub):
    """A game of Palace is one part."""
    return 0


@inline_kernel
def settled_nb(pub, seat, part, horizon):
    """The seat's result is known once it is out (it is not the loser) or the game is over."""
    return pub[0]["place"][seat] != 0


@inline_kernel
def value_nb(start_pub, start_hid, pub, hid, seat, horizon, rec, current, row):
    """1 unless the seat is the loser, or the world reached the action cap first."""
    pb = pub[0]
    return 0.0 if hid[0]["aborted"] or pb["place"][seat] == pb["players"] else 1.0


@kernel
def world_nb(pb, pv, rng, pub, priv, hid):
    """One world for the seat to play (the module docstring); always found (no play-shown test)."""
    seat = pb["seat"]
    players = pb["players"]
    pub[0] = pb
    priv[seat] = pv
    hd = hid[0]
    placed = NONE
    for c in range(N_CARDS):
        if pv["has"][c]:
            placed |= BIT[c]
    for i in range(pb["pile_len"]):
        placed |= BIT[pb["pile"][i]]
    for s in range(players):
        for j in range(MAX_SLOTS):
            if pb["face_up"][s, j] >= 0:
                placed |= BIT[pb["face_up"][s, j]]
        if s != seat:
            placed |= pb["known"][s]
    pool = hd["unused"]               # the pool, built in the left-out cards' buffer (they are dealt last)
    m = 0
    burned = np.uint64(0)             # 4 bits a rank: its unplaced cards taken as burned so far
    for c in range(N_CARDS):
        if placed & BIT[c]:
            continue
        r = c >> 2
        shift = np.uint64(4 * r)
        if (burned >> shift) & np.uint64(15) < pb["gone"][r]:
            burned += np.uint64(1) << shift
            continue
        pool[m] = c
        m += 1
    shuffle_nb(rng, pool[:m])
    k = 0
    for s in range(players):
        if s == seat:
            continue
        held = pb["hand_len"][s]
        pub[0]["hand_len"][s] = 0
        known = pb["known"][s]
        for c in range(N_CARDS):
            if known & BIT[c]:
                add_to_hand_nb(pub[0], priv[s], s, c)
        for _ in range(held - count_nb(known)):
            add_to_hand_nb(pub[0], priv[s], s, pool[k])
            k += 1
    for s in range(MAX_PLAYERS):
        for j in range(MAX_SLOTS):
            if s < players and j < pb["face_down_len"][s]:
                hd["face_down"][s, j] = pool[k]
                k += 1
            else:
                hd["face_down"][s, j] = -1
    for i in range(pb["draw_len"]):
        hd["draw"][i] = pool[k]
        k += 1
    for i in range(m - k):
        pool[i] = pool[k + i]
    hd["unused_len"] = m - k
    hd["rng"][0] = next_u64_nb(rng)
    return True


sample_worlds_nb = sample_worlds(__file__, world_nb=world_nb, new_state_nb=new_state_nb)


_PLAYERS = SearchPlayers(
    __file__, POLICY_SIG, POLICIES_T,
    actions_nb=actions_nb, fill_legal_nb=fill_legal_nb, world_nb=world_nb, searching_nb=searching_nb,
    decide_nb=decide_nb,
    step_nb=step_nb, record_nb=record_nb, current_nb=None, part_nb=part_nb, settled_nb=settled_nb,
    value_nb=value_nb, new_state_nb=new_state_nb,
    FORCED=forced_policy, RECORD_DTYPE=RECORD_DTYPE, PLAYERS=MAX_PLAYERS, N_SETTINGS=N_SETTINGS,
    MAX_CHOICES=MAX_CHOICES)


def __getattr__(name):
    """``pimc_policy`` and ``ismcts_policy``, each compiled (or loaded from the cache) when first asked
    for (analyser.kernels.search.SearchPlayers)."""
    return _PLAYERS.policy(name)
