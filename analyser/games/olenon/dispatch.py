"""How the Olenon engine asks a seat's policy (the pattern: analyser.games.dispatch).

``shed``, ``tempo`` and ``partner`` read the hand's counts and the table from
the state and never the boolean ``legal`` array, so for them the engine skips
writing its 29 entries out of the legal mask, and calls them directly. The
engine checks every answer against the mask itself.
"""
from analyser.games.olenon.policies import partner_policy, random_policy, shed_policy, tempo_policy
from analyser.kernels.jit import inline_kernel

BUILT_IN = (random_policy, shed_policy, tempo_policy, partner_policy)
RANDOM, SHED, TEMPO, PARTNER = range(1, 5)     # 1 + the place in BUILT_IN (0: a pointer)


@inline_kernel
def reads_legal_nb(kind):
    """Whether the seat's policy reads the ``legal`` array (a pointer's, or random's)."""
    return kind < SHED


@inline_kernel
def decide_nb(kind, policies, seat, pb, pv, legal, row):
    """The seat's action (``legal`` filled beforehand when reads_legal_nb(kind))."""
    if kind == SHED:
        return shed_policy(pb, pv, legal, row)
    if kind == TEMPO:
        return tempo_policy(pb, pv, legal, row)
    if kind == PARTNER:
        return partner_policy(pb, pv, legal, row)
    if kind == RANDOM:
        return random_policy(pb, pv, legal, row)
    return policies[seat](pb, pv, legal, row)
