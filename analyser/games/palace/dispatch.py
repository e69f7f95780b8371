"""How the Palace engine asks a seat's policy (the pattern: analyser.games.dispatch).

Every built-in policy reads the ``legal`` array (its PLAY entries as words,
state.legal_words_nb), which the rules fill before any policy is asked, so
here the direct call saves only the pointer call itself: the policy is
inlined into the turn and its arguments stay in registers.
"""
from analyser.games.palace.policies import lowest_policy, pickup_policy, random_policy, saver_policy
from analyser.kernels.jit import inline_kernel

BUILT_IN = (random_policy, lowest_policy, saver_policy, pickup_policy)
RANDOM, LOWEST, SAVER, PICKUP = range(1, 5)     # 1 + the place in BUILT_IN (0: a pointer)


@inline_kernel
def decide_nb(kind, policies, seat, pb, pv, legal, row):
    """The seat's action, by a direct call to a built-in policy or through the seat's pointer."""
    if kind == SAVER:
        return saver_policy(pb, pv, legal, row)
    if kind == LOWEST:
        return lowest_policy(pb, pv, legal, row)
    if kind == PICKUP:
        return pickup_policy(pb, pv, legal, row)
    if kind == RANDOM:
        return random_policy(pb, pv, legal, row)
    return policies[seat](pb, pv, legal, row)
