"""How the Enemy Anemone engine asks a seat's policy (the pattern: analyser.games.dispatch).

The built-in policies read the legal cards from ``pv["legal"]`` (a mask) only,
so for them the engine skips the boolean ``legal`` array: about 10% more
matches a second with four ``timing`` seats.
"""
from analyser.games.enemy_anemone.policies import greedy_policy, lowball_policy, random_policy, timing_policy
from analyser.kernels.bits import mark_nb
from analyser.kernels.jit import inline_kernel

BUILT_IN = (random_policy, greedy_policy, timing_policy, lowball_policy)
RANDOM, GREEDY, TIMING, LOWBALL = range(1, 5)     # 1 + the place in BUILT_IN (0: a pointer)


@inline_kernel
def decide_nb(kind, policies, seat, pb, pv, legal, row, mask):
    """The seat's action. ``mask``: its legal cards, written into ``legal`` for a pointer call."""
    if kind == TIMING:
        return timing_policy(pb, pv, legal, row)
    if kind == GREEDY:
        return greedy_policy(pb, pv, legal, row)
    if kind == LOWBALL:
        return lowball_policy(pb, pv, legal, row)
    if kind == RANDOM:
        return random_policy(pb, pv, legal, row)
    mark_nb(legal, mask, 8)            # the 64 cards' entries
    return policies[seat](pb, pv, legal, row)
