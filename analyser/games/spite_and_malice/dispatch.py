"""How the Spite & Malice engine asks a seat's policy (the pattern: analyser.games.dispatch).

``builder``, ``patient`` and ``blocker`` read the hand's counts and the piles from the state
and never the boolean ``legal`` array, so for them the engine neither fills its
145 entries nor calls through a pointer, and checks the one action chosen
(rules.legal_action_nb) instead. ``random`` and any other policy get ``legal``.
"""
from analyser.games.spite_and_malice.blocker import blocker_policy
from analyser.games.spite_and_malice.policies import builder_policy, patient_policy, random_policy
from analyser.kernels.jit import inline_kernel

BUILT_IN = (random_policy, builder_policy, patient_policy, blocker_policy)
RANDOM, BUILDER, PATIENT, BLOCKER = range(1, 5)     # 1 + the place in BUILT_IN (0: a pointer)


@inline_kernel
def reads_legal_nb(kind):
    """Whether the seat's policy reads the ``legal`` array (a pointer's, or random's)."""
    return kind < BUILDER


@inline_kernel
def decide_nb(kind, policies, seat, pb, pv, legal, row):
    """The seat's action (``legal`` filled beforehand when reads_legal_nb(kind))."""
    if kind == BUILDER:
        return builder_policy(pb, pv, legal, row)
    if kind == PATIENT:
        return patient_policy(pb, pv, legal, row)
    if kind == BLOCKER:
        return blocker_policy(pb, pv, legal, row)
    if kind == RANDOM:
        return random_policy(pb, pv, legal, row)
    return policies[seat](pb, pv, legal, row)
