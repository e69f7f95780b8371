"""Palace one action at a time, callable from Python: for tests, notebooks and debugging.

Each entry point has an explicit signature so that a tuple of any policies
converts to the engine's function type instead of compiling per combination
(hence ``njit``: the kernel decorators take no signature). They take the
arguments of rules.begin_unit_nb and rules.step_nb, every game's shape.
"""
from numba import njit, types

from analyser.games.palace.rules import begin_unit_nb, step_nb
from analyser.games.palace.state import HIDDEN_T, POLICIES_T, PRIVATE_T, PUBLIC_T

_STATE = (types.Array(PUBLIC_T, 1, "C"), types.Array(PRIVATE_T, 1, "C"), types.Array(HIDDEN_T, 1, "C"),
          types.boolean[::1], types.int32[::1])
_POLICIES = (POLICIES_T, types.int64[::1], types.float64[:, ::1])


@njit(types.boolean(types.int64, types.int64, types.int64, types.int64[::1], types.int64[::1], *_POLICIES, *_STATE),
      cache=True)
def begin_unit(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """Deal, swap and find the opening player; True when an illegal swap ended the game."""
    return begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)


@njit(types.boolean(types.int64, types.int64, types.int64[::1], types.int64[::1], *_POLICIES, *_STATE), cache=True)
def step(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """One action by the seat to move; True when the game is over."""
    return step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
