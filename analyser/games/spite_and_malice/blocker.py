"""The ``blocker`` policy: builder's race to the payoff card, with an eye on the opponent's.

builder (policies.py) ignores the other player. blocker reads what it shows, its payoff top and
side tops, and where builder plays a card that does not lead to its own payoff top it asks what
the card leaves for the opponent:
1. the payoff top if it fits (a King payoff top onto the highest pile the opponent cannot then
   reach its payoff top from, else the highest);
2. else builder's chain to its payoff top (policies.chain_nb);
3. else, with ``spoil``, a card that takes a pile away from the opponent's payoff top: a natural
   card (spoil >= 1; a side top first) or a King (spoil = 2) onto a pile that top would fit;
4. else builder's other builds (toward its payoff top first, side tops first, a King toward it
   with ``save_kings=0``), but none that leaves a pile from which the opponent reaches its payoff
   top with its side tops (a King among them fills a gap) and at most ``reach`` cards from its
   hand (reach -1: never held back); with ``strict`` not even toward its own payoff top;
5. else builder's discard (a descending run, a pair, an empty pile; a King last), or stop.
"""
from numba import njit

from analyser.games.spite_and_malice.constants import (
    ACTION,
    COMPLETE,
    KING,
    SIDES,
    SRC_HAND,
    SRC_PAYOFF,
    SRC_SIDE,
)
from analyser.games.spite_and_malice.policies import chain_nb, discard_nb, masks_nb, side_with_nb
from analyser.games.spite_and_malice.state import POLICY_SIG, side_top_nb
from analyser.kernels.bits import count_nb
from analyser.kernels.jit import inline_kernel, kernel


@inline_kernel
def opens_nb(pb, seat, showing, reach):
    """Whether a pile left showing ``showing`` (a completed one counts as 0) lets the opponent reach
    its payoff top next turn: the values between are its side tops but at most ``reach`` (its hand's
    guessed share; less one for a King on a side top). A King payoff top fits anywhere: no pile opens it."""
    if reach < 0:
        return False
    other = 1 - seat
    top = int(pb["payoff_top"][other])
    if showing == COMPLETE:
        showing = 0
    if top == KING or top <= showing:
        return False
    sides = 0
    for i in range(SIDES):
        sides |= 1 << side_top_nb(pb, other, i)
    wild = (sides >> KING) & 1
    gap = ((1 << top) - 1) & ~((2 << showing) - 1)       # the values showing+1 .. top-1
    return count_nb(gap & ~sides) <= reach + wild


@inline_kernel
def payoff_nb(pb, seat, reach):
    """Step 1: the payoff top onto a pile it fits; a King onto the highest pile that opens nothing for
    the opponent, else the highest; -1: none."""
    t = int(pb["payoff_top"][seat])
    best = -1
    score = -1
    for b in range(pb["centre"]):
        v = int(pb["build_len"][b])
        if t == v + 1:
            return SRC_PAYOFF * 8 + b
        s = v + (0 if opens_nb(pb, seat, v + 1, reach) else 16)
        if t == KING and s > score:
            score = s
            best = b
    return SRC_PAYOFF * 8 + best if best >= 0 else -1


@inline_kernel
def spoil_nb(pb, hand, seat, tops, spoil):
    """Step 3: a card onto a pile the opponent's payoff top would fit (the lowest such pile): a natural
    card, a side top first; with spoil 2 a King if no natural card; -1: none."""
    top = int(pb["payoff_top"][1 - seat])
    if spoil == 0 or top == KING or top == 0:
        return -1
    for b in range(pb["centre"]):
        if int(pb["build_len"][b]) + 1 != top:
            continue
        i = side_with_nb(pb, seat, tops, top)
        if i >= 0:
            return (SRC_SIDE + i) * 8 + b
        if hand[top] > 0:
            return (SRC_HAND + top) * 8 + b
        if spoil == 2:
            i = side_with_nb(pb, seat, tops, KING)
            if i >= 0:
                return (SRC_SIDE + i) * 8 + b
            if hand[KING] > 0:
                return (SRC_HAND + KING) * 8 + b
    return -1


@inline_kernel
def other_build_nb(pb, hand, seat, tops, reach, strict, kings):
    """Step 4: builder's closer_nb (policies.py) less the builds that open a pile for the opponent
    (``strict``: toward the payoff top too); -1: none."""
    t = int(pb["payoff_top"][seat])
    best = -1
    score = 0
    for b in range(pb["centre"]):
        need = int(pb["build_len"][b]) + 1
        toward = need < t
        if (strict or not toward) and opens_nb(pb, seat, need, reach):
            continue
        i = side_with_nb(pb, seat, tops, need)
        s = 0
        a = -1
        if i >= 0:
            s = (8 if toward else 2) + 2
            a = (SRC_SIDE + i) * 8 + b
        elif hand[need] > 0:
            s = (8 if toward else 2) + 1
            a = (SRC_HAND + need) * 8 + b
        elif kings and toward:
            i = side_with_nb(pb, seat, tops, KING)
            if i >= 0:
                s, a = 1, (SRC_SIDE + i) * 8 + b
            elif hand[KING] > 0:
                s, a = 1, (SRC_HAND + KING) * 8 + b
        if s > score:
            score = s
            best = a
    return best


@kernel
def block_nb(pb, pv, reach, spoil, save_kings, strict):
    seat = pb["seat"]
    hand = pv["hand"]
    a = payoff_nb(pb, seat, reach)
    if a >= 0:
        return a
    held, tops = masks_nb(pb, hand, seat)
    a = chain_nb(pb, hand, seat, held, tops)
    if a < 0:
        a = spoil_nb(pb, hand, seat, tops, spoil)
    if a < 0:
        a = other_build_nb(pb, hand, seat, tops, reach, strict, not save_kings)
    if a < 0:
        a = discard_nb(pb, hand, seat, held, True) if pb["hand_len"][seat] > 0 else ACTION.STOP
    return a


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def blocker_policy(pub, pv, legal, params):
    """block_nb with params: reach, spoil, save_kings, strict (the module docstring)."""
    return block_nb(pub, pv, int(params[0]), int(params[1]), params[2] > 0, params[3] > 0)
