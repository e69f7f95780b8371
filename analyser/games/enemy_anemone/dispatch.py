"""How the engine asks a seat's policy: built-in policies directly, any other through its pointer.

A call through a first-class function pointer passes the legal array and the
parameter row as fourteen words and cannot be inlined, and the bool ``legal``
array must be filled for it at every decision. The built-in policies read the
legal cards from ``pv["legal"]`` only, so for them the engine calls the
function itself and skips the array: about 10% more matches a second with four
``timing`` seats. ``policy_kinds`` names each seat's kind once per run, from
Python, so the records are the same either way (the kit's compiled against
uncompiled check covers both paths).
"""
import numpy as np

from analyser.games.enemy_anemone.policies import greedy_policy, lowball_policy, random_policy, timing_policy
from analyser.kernels.bits import mark_nb
from analyser.kernels.jit import inline_kernel

POINTER, RANDOM, GREEDY, TIMING, LOWBALL = range(5)
BUILT_IN = {RANDOM: random_policy, GREEDY: greedy_policy, TIMING: timing_policy, LOWBALL: lowball_policy}


def policy_kinds(fns) -> np.ndarray:
    """Each seat's kind: a built-in policy's number, or POINTER for any other function."""
    return np.array([next((k for k, f in BUILT_IN.items() if f is fn), POINTER) for fn in fns], np.int64)


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
