"""Built-in Spite & Malice policies.

A policy is an ``@njit`` function ``(pub, pv, legal, params) -> action`` with
``POLICY_SIG``: ``pub`` the public record (``pub["seat"]`` is the deciding
seat), ``pv`` its private record (``pv["hand"][v]``: cards of value v held),
``legal`` the legal actions (see constants.py), ``params`` the seat's
parameter row in the order of its ParamSpecs (catalog.py). A policy is only
asked with two or more legal actions. It is a pure function of its arguments
(randomness from ``pv["rng"]``); it never writes to ``pub`` or ``legal``.

random builds at random before it discards at random (random_policy). builder and
patient share ``choose_nb``, a fixed order of preferences:
1. play the payoff top if it fits a build pile;
2. else build toward it: the pile from which the payoff card can be reached
   this turn with the hand and side tops (fewest Kings, then fewest cards);
   the next card of that chain, a side top before a hand card, a natural card
   before a King;
3. else a natural card that brings a pile closer to the payoff top (side tops
   first); with ``dump`` then any other natural card that fits (``block``: not
   where it leaves the pile one below the opponent's payoff top); with
   ``save_kings=0`` last a King that brings a pile closer to the payoff top;
4. else discard (a King only when the hand holds nothing else): see discard_nb;
5. with an empty hand and nothing of 1-3 to do: stop.
"""
from numba import njit

from analyser.games.spite_and_malice.constants import (
    ACTION,
    COMPLETE,
    DST_SIDE,
    KING,
    N_VALUES,
    SIDES,
    SRC_HAND,
    SRC_PAYOFF,
    SRC_SIDE,
)
from analyser.games.spite_and_malice.state import POLICY_SIG, side_top_nb
from analyser.kernels.bits import count_nb, lowest_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.rng import below_nb


@inline_kernel
def masks_nb(pb, hand, seat):
    """``(held, tops)``: bit v set when the hand holds a card of value v, and when
    one of the seat's side tops is v. Asking these is what a chain search does most."""
    held = 0
    for v in range(1, N_VALUES + 1):
        if hand[v] > 0:
            held |= 1 << v
    tops = 0
    for i in range(SIDES):
        tops |= 1 << side_top_nb(pb, seat, i)
    return held, tops & ~1


@inline_kernel
def side_with_nb(pb, seat, tops, value):
    """A side pile of the seat whose top is ``value`` (the first), or -1."""
    if (tops >> value) & 1 == 0:
        return -1
    for i in range(SIDES):
        if side_top_nb(pb, seat, i) == value:
            return i
    return -1


@inline_kernel
def helps_nb(pb, seat, b, block):
    """With ``block``: a card onto pile ``b`` would leave it one below the
    opponent's payoff top (a completed pile counts as empty, below an Ace)."""
    if not block:
        return False
    top = int(pb["payoff_top"][1 - seat])
    after = int(pb["build_len"][b]) + 1
    if after == COMPLETE:
        after = 0
    return top != KING and after == top - 1


@inline_kernel
def card_onto_nb(pb, hand, seat, tops, value, b, side_first):
    """An action playing a card of ``value`` onto pile ``b`` (from a side top or
    the hand, in the order ``side_first`` says), or -1 if neither has one."""
    i = side_with_nb(pb, seat, tops, value)
    if side_first and i >= 0:
        return (SRC_SIDE + i) * 8 + b
    if hand[value] > 0:
        return (SRC_HAND + value) * 8 + b
    if i >= 0:
        return (SRC_SIDE + i) * 8 + b
    return -1


@inline_kernel
def payoff_nb(pb, seat, block):
    """Step 1: the payoff top onto a pile it fits; a King onto the highest pile
    (with ``block``, one that does not help the opponent if there is one); -1: none."""
    t = int(pb["payoff_top"][seat])
    best = -1
    score = -1
    for b in range(pb["centre"]):
        v = int(pb["build_len"][b])
        if t == v + 1:
            return SRC_PAYOFF * 8 + b
        s = v + (0 if helps_nb(pb, seat, b, block) else 16)
        if t == KING and s > score:
            score = s
            best = b
    return SRC_PAYOFF * 8 + best if best >= 0 else -1


@inline_kernel
def chain_nb(pb, hand, seat, held, tops):
    """Step 2: the first card of the cheapest chain up to the payoff top, or -1. A
    pile's chain misses the values between it and the payoff top that neither the
    hand nor a side top holds; Kings fill in for them."""
    t = int(pb["payoff_top"][seat])
    kings = int(hand[KING]) + ((tops >> KING) & 1)
    have = held | tops
    below_top = (1 << t) - 1
    best = -1
    cost = 1 << 20
    for b in range(pb["centre"]):
        v = int(pb["build_len"][b])
        if v + 1 >= t:
            continue
        missing = count_nb(below_top & ~((2 << v) - 1) & ~have)     # values v+1 .. t-1 not at hand
        if missing <= kings and missing * 64 + t - v < cost:
            cost = missing * 64 + t - v
            best = b
    if best < 0:
        return -1
    a = card_onto_nb(pb, hand, seat, tops, int(pb["build_len"][best]) + 1, best, True)
    return a if a >= 0 else card_onto_nb(pb, hand, seat, tops, KING, best, True)


@inline_kernel
def closer_nb(pb, hand, seat, tops, block, dump, kings):
    """Step 3: the best build that keeps its pile below the payoff top, a side top
    before a hand card; with ``dump`` any natural card after those (a side top
    first); with ``kings`` a King toward the payoff top last; -1: none."""
    t = int(pb["payoff_top"][seat])
    best = -1
    score = 0
    for b in range(pb["centre"]):
        need = int(pb["build_len"][b]) + 1
        toward = need < t
        if not toward and helps_nb(pb, seat, b, block):
            continue
        i = side_with_nb(pb, seat, tops, need)
        s = 0
        a = -1
        if i >= 0 and (toward or dump):
            s = (8 if toward else 2) + 2
            a = (SRC_SIDE + i) * 8 + b
        elif hand[need] > 0 and (toward or dump):
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


@inline_kernel
def discard_nb(pb, hand, seat, held, runs):
    """Step 4: the discard with the best side pile for the card, then the highest
    card. ``runs``: a pile whose top is one above the card (a descending run),
    then one of the same value, then an empty pile; otherwise an empty pile, then
    the pile with the highest top. Never a King while the hand holds another card."""
    if pb["hand_len"][seat] > hand[KING]:
        held &= ~(1 << KING)
    sides = (side_top_nb(pb, seat, 0), side_top_nb(pb, seat, 1), side_top_nb(pb, seat, 2),
             side_top_nb(pb, seat, 3))
    best = -1
    score = -1
    while held:
        v = lowest_nb(held)          # the values held, lowest first
        held &= held - 1
        for i in range(SIDES):
            top = sides[i]
            if runs:
                s = 4 if top == v + 1 else 3 if top == v else 2 if top == 0 else 1 if top > v else 0
                s = s * 16
            else:
                s = 16 * 14 if top == 0 else top * 16
            s = s * 16 + v
            if s > score:
                score = s
                best = (SRC_HAND + v) * 8 + DST_SIDE + i
    return best


@kernel   # not inlined: builder and patient share one compiled copy (half the first run's compile time)
def choose_nb(pb, pv, save_kings, block, runs, dump):
    seat = pb["seat"]
    hand = pv["hand"]
    a = payoff_nb(pb, seat, block)
    if a >= 0:
        return a
    held, tops = masks_nb(pb, hand, seat)
    a = chain_nb(pb, hand, seat, held, tops)
    if a < 0:
        a = closer_nb(pb, hand, seat, tops, block, dump, not save_kings)
    if a < 0:
        a = discard_nb(pb, hand, seat, held, runs) if pb["hand_len"][seat] > 0 else ACTION.STOP
    return a


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def random_policy(pub, pv, legal, params):
    """A beginner who plays legally at random but finishes: uniform over the legal builds
    (any source onto any build pile) while there is one, else uniform over the discards, a
    stop only when nothing else is legal. Not uniform over every legal action: a player who
    is, discards nearly at once every turn (four side piles per hand card outnumber the
    builds), so the build piles hardly grow, every round ends in a stock-out draw and no
    match between two of them ends. One draw from its stream at every decision."""
    builds = 0
    discards = 0
    for a in range(ACTION.STOP):
        if legal[a]:
            if (a & 7) < DST_SIDE:
                builds += 1
            else:
                discards += 1
    building = builds > 0
    n = builds if building else discards
    if n == 0:
        return ACTION.STOP if legal[ACTION.STOP] else -1
    k = below_nb(pv["rng"], n)
    for a in range(ACTION.STOP):
        if legal[a] and ((a & 7) < DST_SIDE) == building:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def builder_policy(pub, pv, legal, params):
    """choose_nb with Kings kept for chains to the payoff card, no blocking,
    side runs, and every natural card played that fits."""
    return choose_nb(pub, pv, True, False, True, True)


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def patient_policy(pub, pv, legal, params):
    """choose_nb with params: save_kings, block, side_runs, dump."""
    return choose_nb(pub, pv, params[0] > 0, params[1] > 0, params[2] > 0, params[3] > 0)
