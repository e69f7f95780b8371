"""Palace one action at a time, callable from Python: for tests, notebooks and debugging.

Each entry point has an explicit signature so that a tuple of any policies
converts to the engine's function type instead of compiling per combination
(hence ``njit``: the kernel decorators take no signature).
"""
from numba import njit, types

from analyser.games.palace.rules import new_game_nb, step_nb
from analyser.games.palace.state import HIDDEN_T, POLICIES_T, PRIVATE_T, PUBLIC_T

_STATE = (types.Array(PUBLIC_T, 1, "C"), types.Array(PRIVATE_T, 1, "C"), types.Array(HIDDEN_T, 1, "C"),
          types.boolean[::1], types.int32[::1])


@njit(types.void(types.int64, types.int64, types.int64, types.int64[::1], POLICIES_T, types.int64[::1],
                 types.float64[:, ::1], types.int64[::1], *_STATE), cache=True)
def new_game(seed, deal, players, settings, policies, kinds, params, streams, pub, priv, hid, legal, log):
    """Deal, swap and find the opening player."""
    new_game_nb(seed, deal, players, settings, policies, kinds, params, streams, pub, priv, hid, legal, log)


@njit(types.boolean(POLICIES_T, types.int64[::1], types.float64[:, ::1], types.int64[::1], *_STATE), cache=True)
def step(policies, kinds, params, settings, pub, priv, hid, legal, log):
    """One action by the seat to move; True when the game is over."""
    return step_nb(policies, kinds, params, settings, pub, priv, hid, legal, log)
