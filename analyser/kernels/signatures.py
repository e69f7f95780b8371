"""The numba types of a game's state records and of the entry points every game
compiles with an explicit signature (simulate_nb, trace_nb, and for the kit and
rollouts playout_nb and play_worlds_nb), built from its dtypes.

An explicit signature compiles an entry point once for any tuple of policies:
each seat's policy converts to the one function type ``POLICY_T``.
"""
from typing import NamedTuple

import numba
from numba import types


class StateTypes(NamedTuple):
    PUBLIC_T: types.Type
    PRIVATE_T: types.Type
    HIDDEN_T: types.Type
    POLICY_SIG: types.Type      # a policy: (pub record, own private record, legal, params) -> action
    POLICY_T: types.Type
    POLICIES_T: types.Type      # one policy per seat


def state_types(public_dtype, private_dtype, hidden_dtype, seats: int) -> StateTypes:
    """The record types of a game's three state dtypes and its policies' function types."""
    public_t, private_t, hidden_t = (numba.from_dtype(d) for d in (public_dtype, private_dtype, hidden_dtype))
    policy_sig = types.int64(public_t, private_t, types.boolean[::1], types.float64[::1])
    policy_t = types.FunctionType(policy_sig)
    return StateTypes(public_t, private_t, hidden_t, policy_sig, policy_t, types.UniTuple(policy_t, seats))


def simulate_signature(policies_t, record_t, *after_policies):
    """``simulate_nb(seed, first, players, settings, policies, *after_policies, params, streams, out)``."""
    return types.void(types.int64, types.int64, types.int64, types.int64[::1], policies_t, *after_policies,
                      types.float64[:, ::1], types.int64[::1], record_t[::1])


def trace_signature(policies_t, record_t, *after_policies):
    """``trace_nb(seed, unit, players, settings, policies, *after_policies, params, streams, log, out)``."""
    return types.void(types.int64, types.int64, types.int64, types.int64[::1], policies_t, *after_policies,
                      types.float64[:, ::1], types.int64[::1], types.int32[::1], record_t[::1])


_BYTES = types.uint8[:, ::1]


def _state(public_t, private_t, hidden_t):
    """pub, priv, hid, legal and log as a game's new_state_nb makes them."""
    return (types.Array(public_t, 1, "C"), types.Array(private_t, 1, "C"), types.Array(hidden_t, 1, "C"),
            types.boolean[::1], types.int32[::1])


def begin_signature(policies_t, public_t, private_t, hidden_t, returns=types.boolean):
    """``begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal,
    log)`` -> over: a game's entry point, typed for a call through a pointer (playout_nb's); with
    ``returns=types.void``, ``play_unit_nb``'s (simulate_nb's block calls it so)."""
    return returns(types.int64, types.int64, types.int64, types.int64[::1], types.int64[::1], policies_t,
                   types.int64[::1], types.float64[:, ::1], *_state(public_t, private_t, hidden_t))


def step_signature(policies_t, public_t, private_t, hidden_t):
    """``step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)`` -> over,
    typed for a call through a pointer (playout_nb's)."""
    return types.boolean(types.int64, types.int64, types.int64[::1], types.int64[::1], policies_t, types.int64[::1],
                         types.float64[:, ::1], *_state(public_t, private_t, hidden_t))


def playout_signature(policies_t):
    """``playout_nb(seed, unit, players, settings, policies, kinds, params, streams, pubs, privs, hids)``
    -> rows filled: a unit's state records after the setup and every action, as bytes (the kit's positions)."""
    return types.int64(types.int64, types.int64, types.int64, types.int64[::1], policies_t, types.int64[::1],
                       types.float64[:, ::1], types.int64[::1], _BYTES, _BYTES, _BYTES)


def play_worlds_signature(policies_t, public_t, private_t, hidden_t, record_t):
    """``play_worlds_nb(policies, forced, kinds, forced_kinds, params, forced_params, settings, streams,
    pubs, privs, hids, actions, seed, first_world, out, current)``: what analyser.games.kit.WorldBatch
    hands every game's rollout kernel (PLAY_WORLDS_ARGS there)."""
    return types.void(policies_t, policies_t, types.int64[::1], types.int64[::1], types.float64[:, ::1],
                      types.float64[:, ::1], types.int64[::1], types.int64[::1], types.Array(public_t, 1, "C"),
                      types.Array(private_t, 2, "C"), types.Array(hidden_t, 1, "C"), types.int64[::1], types.int64,
                      types.int64, types.Array(record_t, 2, "C"), types.float64[:, :, :, ::1])
