"""Built-in Olenon policies.

A policy is an ``@njit`` function ``(pub, pv, legal, params) -> action`` with
``POLICY_SIG``: ``pub`` the public record, ``pv`` the deciding seat's private
record (``pv["hand"]``: seven counts), ``legal`` the legal actions (29 of
them, see constants.py), ``params`` the seat's parameter row in the order of
its ParamSpecs (catalog.py). ``put(value, count)`` and ``ACTION.PASS`` build
actions, from numba or Python. With ``talk=open``, ``pub["open"]`` holds every
hand; with ``talk=none`` it is zero. A policy is a pure function of its
arguments (randomness from ``pv["rng"]``); it never writes to ``pub`` or ``legal``.
"""
from numba import njit

from analyser.games.olenon.constants import ACTION, N_VALUES, PLAYERS, TABLE
from analyser.games.olenon.state import POLICY_SIG
from analyser.kernels.jit import inline_kernel
from analyser.kernels.rng import uniform_choice_nb


@inline_kernel
def put_nb(value, count):
    """The action putting ``count`` cards of ``value`` down (constants.put in numba)."""
    return value * 4 + count - 1


@inline_kernel
def values_held_nb(hand):
    """How many different values ``hand`` holds, and the highest of them (-1: none)."""
    n = 0
    top = -1
    for w in range(N_VALUES):
        if hand[w] > 0:
            n += 1
            top = w
    return n, top


@inline_kernel
def lead_nb(hand, keep_high):
    """On an empty table: the largest group (up to 4), the lowest value among equals;
    with ``keep_high`` and two or more values held, never the highest value."""
    n, top = values_held_nb(hand)
    skip = top if keep_high and n > 1 else -1
    best = -1
    size = 0
    for w in range(N_VALUES):
        c = min(hand[w], TABLE)
        if c > size and w != skip:
            best = w
            size = c
    return put_nb(best, size)


@inline_kernel
def replace_with_nb(hand, v, k):
    """The lowest value that beats ``v`` (higher, or 0 over 6) held ``k`` times or more; -1: none."""
    if v == N_VALUES - 1:
        return 0 if hand[0] >= k else -1
    for w in range(v + 1, N_VALUES):
        if hand[w] >= k:
            return w
    return -1


@inline_kernel
def shed_nb(pub, hand):
    """Lead the largest group; on a table, add all it can, else replace with the
    lowest value that beats it, else pass."""
    k = pub["table_len"]
    if k == 0:
        return lead_nb(hand, False)
    v = pub["table_value"]
    if hand[v] > 0:
        return put_nb(v, min(hand[v], TABLE - k))
    w = replace_with_nb(hand, v, k)
    return put_nb(w, k) if w >= 0 else ACTION.PASS


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def random_policy(pub, pv, legal, params):
    return uniform_choice_nb(pv["rng"], legal)


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def shed_policy(pub, pv, legal, params):
    return shed_nb(pub, pv["hand"])


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def tempo_policy(pub, pv, legal, params):
    """shed, with limits on replacing (params: margin, spend, zeros, finish, keep_high)."""
    hand = pv["hand"]
    seat = pub["seat"]
    free = pub["hand_len"][seat] <= params[3]          # finish: few cards left, every limit off
    k = pub["table_len"]
    if k == 0:
        return lead_nb(hand, params[4] > 0 and not free)
    v = pub["table_value"]
    if hand[v] > 0:
        return put_nb(v, min(hand[v], TABLE - k))
    w = replace_with_nb(hand, v, k)
    if w < 0:
        return ACTION.PASS
    if free:
        return put_nb(w, k)
    rise = 1 if w == 0 else w - v                    # 0 over 6 counts as one step up
    if rise > params[0] or k > params[1] or (w == 0 and params[2] > 0):
        return ACTION.PASS
    return put_nb(w, k)


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def partner_policy(pub, pv, legal, params):
    """Pass on the partner's table when the partner can go out soon (params: soon); else shed."""
    k = pub["table_len"]
    seat = pub["seat"]
    mate = (seat + 2) % PLAYERS
    if k > 0 and pub["owner"] == mate:
        if pub["talk"] == 1:
            groups, top = values_held_nb(pub["open"][mate])
            if groups == 1 and pub["open"][mate, top] <= TABLE:    # it goes out on its next lead
                return ACTION.PASS
        elif pub["hand_len"][mate] <= params[0]:
            return ACTION.PASS
    return shed_nb(pub, pv["hand"])
