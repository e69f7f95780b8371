"""Built-in Palace policies.

A policy is an ``@njit`` function ``(pub, pv, legal, params) -> action`` with
``POLICY_SIG``: ``pub`` is the public record, ``pv`` the deciding seat's own
private record (its hand and its random stream), ``legal`` the legal-action
mask and ``params`` the seat's parameter row, in the order of its ParamSpecs.
It is only called when there is a choice, must leave ``legal`` as it found it
(the random swap rule restores what it changes), and must be a pure function of
its arguments (randomness from ``pv["rng"]``, anything remembered between its
decisions in ``pv["memory"]``, which is zero at the deal): reproducibility and
the cycle skip in cycles.py rely on it. Ranks in parameters are written as
on the cards: 2..10, J=11, Q=12, K=13, A=14.

Swap rules (the ``swap`` parameter every policy has):
  0 keep   - keep the deal as it is;
  1 strong - face-up gets the strongest cards (10 > 2 > A > K > ... > 3),
             the hand keeps the weak ones to shed early;
  2 weak   - the opposite: strongest cards in hand, weakest face up;
  3 random - after each exchange, stop with probability 1/2, else make a
             uniformly random exchange.
"""
import numpy as np
from numba import njit

from analyser.games.palace.catalog import VOLUNTARY_NO_LIMIT
from analyser.games.palace.constants import ACTION, MAX_SLOTS, N_RANKS, PHASE, RANK, SOURCE
from analyser.games.palace.state import PLAY_WORDS, POLICY_SIG, legal_words_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.rng import below_nb, uniform_choice_nb

SWAP_KEEP, SWAP_STRONG, SWAP_WEAK, SWAP_RANDOM = 0, 1, 2, 3
# How much a card is worth keeping, by rank: 10 > 2 > A > K > ... > 3.
STRENGTH = np.array([14 if r == RANK.TEN else 13 if r == RANK.TWO else r for r in range(N_RANKS)], np.int64)
_NO_SLOT = 1 << 10


@kernel
def swap_nb(pub, pv, legal, rule):
    """One swap decision under a swap rule (see the module docstring)."""
    if rule == SWAP_RANDOM:
        if below_nb(pv["rng"], 2) == 0:
            return ACTION.SWAP_DONE
        legal[ACTION.SWAP_DONE] = False
        a = uniform_choice_nb(pv["rng"], legal)
        legal[ACTION.SWAP_DONE] = True
        return a
    if rule != SWAP_STRONG and rule != SWAP_WEAK:
        return ACTION.SWAP_DONE
    sign = 1 if rule == SWAP_STRONG else -1
    # The hand rank that most wants to go face up and the face-up slot that least
    # does, each as one number (key * 16 + rank or slot) kept by max/min: no
    # branch on the cards. Ranks have distinct keys; equal slots go to the lowest.
    hand = -1
    for r in range(N_RANKS):
        v = (sign * STRENGTH[r] + 16) * 16 + r
        hand = max(hand, v if pv["counts"][r] > 0 else -1)
    seat = pub["seat"]
    slot = _NO_SLOT
    for j in range(MAX_SLOTS):
        c = pub["face_up"][seat, j]
        v = (sign * STRENGTH[c >> 2] + 16) * 16 + j
        slot = min(slot, v if c >= 0 else _NO_SLOT)
    if hand >= 0 and slot < _NO_SLOT and hand >> 4 > slot >> 4:
        return ACTION.SWAP + (hand & 15) * MAX_SLOTS + (slot & 15)
    return ACTION.SWAP_DONE


SPECIALS = (1 << RANK.TWO) | (1 << RANK.TEN)
ALL_RANKS = (1 << N_RANKS) - 1
_LOW_BYTES = np.uint64(0x01010101)


@inline_kernel
def legal_ranks_nb(legal):
    """The ranks with a legal PLAY, as a bit mask (bit r: PLAY(r, 1) is legal).
    Reads legal[:56] as words, PLAY(r, 1) of two ranks a word: no branch
    depends on the cards, which is most of what a policy costs."""
    words = legal_words_nb(legal)
    ranks = 0
    for w in range(PLAY_WORDS):
        x = words[w]
        ranks |= np.int64(x & np.uint64(1)) << (2 * w)
        ranks |= np.int64((x >> np.uint64(32)) & np.uint64(1)) << (2 * w + 1)
    return ranks & ALL_RANKS


# The index of a single set bit b < 2**32: _BIT_INDEX[(b * 0x077CB531 >> 27) & 31] (de Bruijn).
_BIT_INDEX = np.zeros(32, np.int64)
for _i in range(32):
    _BIT_INDEX[((1 << _i) * 0x077CB531 >> 27) & 31] = _i


@inline_kernel
def lowest_rank_nb(ranks):
    """The lowest rank in a rank mask, -1 if none."""
    if ranks == 0:
        return -1
    return _BIT_INDEX[((ranks & -ranks) * 0x077CB531 >> 27) & 31]


@inline_kernel
def all_of_rank_nb(legal, r):
    """PLAY of every legal copy of rank r (its PLAY entries are the first k)."""
    x = (legal_words_nb(legal)[r >> 1] >> np.uint64(32 * (r & 1))) & _LOW_BYTES
    k = np.int64(((x * _LOW_BYTES) >> np.uint64(24)) & np.uint64(0xFF))
    return r * 4 + k - 1


@inline_kernel
def specials_held_nb(pub, pv):
    """2s and 10s in the seat's current source."""
    if pub["source"] == SOURCE.HAND:
        return pv["counts"][RANK.TWO] + pv["counts"][RANK.TEN]
    n = 0
    for j in range(MAX_SLOTS):
        c = np.int64(pub["face_up"][pub["seat"], j])
        if c >= 0 and SPECIALS >> (c >> 2) & 1:
            n += 1
    return n


@inline_kernel
def saver_play_nb(pub, pv, legal, ranks, keep, burn_at):
    """Lowest legal rank (``ranks``: legal_ranks_nb), all copies, holding back up
    to ``keep`` specials; when only specials are legal, one 2, or one 10 once the
    pile has ``burn_at`` cards."""
    two, ten = ranks >> RANK.TWO & 1, ranks >> RANK.TEN & 1
    if specials_held_nb(pub, pv) <= keep:
        ranks &= ~SPECIALS
    r = lowest_rank_nb(ranks)
    if r >= 0:
        return all_of_rank_nb(legal, r)
    if ten and (pub["pile_len"] >= burn_at or not two):
        return RANK.TEN * 4
    if two:
        return RANK.TWO * 4
    return ACTION.PICKUP


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def random_policy(pub, pv, legal, params):
    if pub["phase"] == PHASE.SWAP:
        return swap_nb(pub, pv, legal, params[0])
    return uniform_choice_nb(pv["rng"], legal)


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def lowest_policy(pub, pv, legal, params):
    if pub["phase"] == PHASE.SWAP:
        return swap_nb(pub, pv, legal, params[0])
    if legal[ACTION.FACE_DOWN]:
        return ACTION.FACE_DOWN
    r = lowest_rank_nb(legal_ranks_nb(legal))
    if r >= 0:
        return all_of_rank_nb(legal, r)
    return ACTION.PICKUP


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def saver_policy(pub, pv, legal, params):
    if pub["phase"] == PHASE.SWAP:
        return swap_nb(pub, pv, legal, params[0])
    if legal[ACTION.FACE_DOWN]:
        return ACTION.FACE_DOWN
    return saver_play_nb(pub, pv, legal, legal_ranks_nb(legal), params[1], params[2])


VOLUNTARY_SLOT = 0      # pickup_policy: pv["memory"][0] counts its voluntary pickups this game


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def pickup_policy(pub, pv, legal, params):
    """Picks up a pile of at most max_pile cards rather than spend a card of
    spend_rank or higher or a special, at most max_voluntary times a game; else
    plays like saver. It is only asked when it has a choice, so every pickup
    it answers is voluntary: it counts them in pv["memory"][VOLUNTARY_SLOT]
    (zero at the deal). Without a limit (VOLUNTARY_NO_LIMIT) it counts
    nothing: a count is part of the position, and a growing one would keep the
    cycle skip (cycles.py) from ever seeing a looping game repeat."""
    if pub["phase"] == PHASE.SWAP:
        return swap_nb(pub, pv, legal, params[0])
    if legal[ACTION.FACE_DOWN]:
        return ACTION.FACE_DOWN
    ranks = legal_ranks_nb(legal)
    if legal[ACTION.PICKUP] and pub["pile_len"] <= params[3] and pv["memory"][VOLUNTARY_SLOT] < params[5]:
        spend = int(params[4]) - 2          # card value -> rank index
        if not ranks & ~SPECIALS & ((1 << spend) - 1):     # nothing cheap to play
            pv["memory"][VOLUNTARY_SLOT] += 1.0 if params[5] < VOLUNTARY_NO_LIMIT else 0.0
            return ACTION.PICKUP
    return saver_play_nb(pub, pv, legal, ranks, params[1], params[2])
