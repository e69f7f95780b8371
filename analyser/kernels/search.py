"""The compiled search players (PIMC), written once here and bound to each game's hooks.

A search policy is a policy of the game's ``POLICY_SIG`` called through its pointer, as a user's
policy is: the engine hands it the public record and the seat's own private record only, so it
reads nothing else (honesty is structural, and the kit's hidden-information check tests it). At a
decision with two or more legal actions it draws worlds from what the seat knows (the game's
``world_nb``, analyser.games.<game>.search), plays every legal action out in each world with the
rollout policy (a built-in of the game, called directly by its kind) on common random numbers (the
same world and streams for every action), and plays the action with the best mean value: the
seat's win share of the unit, or of the part (hand, round) the decision is in (``HORIZON``).

What a policy does not otherwise see but a rollout needs, its params row carries after the
search's own parameters (analyser.games.search_specs writes it): the rollout policy's parameter
row and the run's rule settings. Its random stream is the seat's own policy stream
(``pv["rng"]``, of (seed, unit, seat), advanced by each decision), never the deal's; a world's
deal stream and every seat's stream in it are drawn from that one.

A forced move (one legal action) is played without a search and without a draw from the stream.
The search counts what it did in its own policy memory (search_row: decisions searched, worlds,
rollout steps), for benchmarks and for tests that a forced move costs nothing.
The deciding seat plays its candidate in a world through ``forced_policy`` (the rollouts'
pointer policy that returns its first parameter), for the first step only, as the Python
rollouts do (analyser.kernels.loops._play_worlds); the policies tuple the rules receive holds
only that pointer, and every other step is a built-in called by kind, so the search never calls
itself.
"""
from __future__ import annotations

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaWarning

from analyser.kernels.jit import inline_kernel
from analyser.kernels.loops import bind
from analyser.kernels.records import reset_nb
from analyser.kernels.rng import keyed_seed_nb, next_u64_nb
from analyser.kernels.search_row import (
    HORIZON,
    ROLLOUT,
    ROLLOUT_AT,
    ROW,
    SEARCHED,
    SETTINGS_AT,
    STEPS,
    WORLDS,
    WORLDS_DRAWN,
)

POINTER = 0              # analyser.games.dispatch.POINTER: the kind of the forced first step

# The names a template reads from its game, given by bind().
actions_nb = world_nb = searching_nb = fallback_nb = step_nb = record_nb = current_nb = part_nb = None
new_state_nb = settled_nb = value_nb = None
FORCED = RECORD_DTYPE = None
PLAYERS = N_SETTINGS = MAX_CHOICES = 0


def _pimc_body(policies, pb, pv, legal, row):
    """The PIMC decision (the module docstring); ``policies``: PLAYERS times the game's forced_policy."""
    actions = np.empty(MAX_CHOICES, np.int64)
    n = actions_nb(pb, pv, legal, actions)
    kind = np.int64(row[ROLLOUT]) + 1         # the option's index in the game's BUILT_IN, as a kind
    if n == 1:
        return actions[0]
    if n == 0 or not searching_nb(pb):
        return fallback_nb(kind, policies, pb, pv, legal, row[ROLLOUT_AT:SETTINGS_AT].copy())
    seat = pb["seat"]
    worlds = np.int64(row[WORLDS])
    horizon = np.int64(row[HORIZON])
    settings = np.empty(N_SETTINGS, np.int64)
    for i in range(N_SETTINGS):
        settings[i] = np.int64(row[SETTINGS_AT + i])
    params = np.zeros((PLAYERS, ROW))
    for s in range(PLAYERS):
        params[s, :SETTINGS_AT - ROLLOUT_AT] = row[ROLLOUT_AT:SETTINGS_AT]
    forced_params = params.copy()
    kinds = np.full(PLAYERS, kind, np.int64)
    first = kinds.copy()
    first[seat] = POINTER
    streams = np.zeros(PLAYERS, np.int64)
    pub, priv, hid, legal_w = new_state_nb()
    wpub, wpriv, whid = pub.copy(), priv.copy(), hid.copy()
    pub_b, priv_b, hid_b = pub.view(np.uint8), priv.view(np.uint8), hid.view(np.uint8)
    wpub_b, wpriv_b, whid_b = wpub.view(np.uint8), wpriv.view(np.uint8), whid.view(np.uint8)
    log = np.zeros(0, np.int32)
    rec = np.zeros(1, RECORD_DTYPE)
    current = np.zeros((2, PLAYERS))
    total = np.zeros(n)
    rng = pv["rng"]
    memory = pv["memory"]
    memory[SEARCHED] += 1.0
    steps = 0
    for w in range(worlds):
        reset_nb(pub, priv, hid)
        if not world_nb(pb, pv, rng, pub, priv, hid):
            return fallback_nb(kind, policies, pb, pv, legal, row[ROLLOUT_AT:SETTINGS_AT].copy())
        memory[WORLDS_DRAWN] += 1.0
        key = next_u64_nb(rng)
        wseed = np.int64(key >> np.uint64(1))
        part = part_nb(pub)
        for a in range(n):
            wpub_b[:] = pub_b
            wpriv_b[:] = priv_b
            whid_b[:] = hid_b
            for s in range(PLAYERS):
                wpriv[s]["rng"][0] = keyed_seed_nb(key, s)
            forced_params[seat, 0] = actions[a]
            over = step_nb(wseed, w, settings, streams, policies, first, forced_params, wpub, wpriv, whid, legal_w,
                           log)
            steps += 1
            while not over and not settled_nb(wpub, seat, part, horizon):
                over = step_nb(wseed, w, settings, streams, policies, kinds, params, wpub, wpriv, whid, legal_w, log)
                steps += 1
            total[a] += value_nb(pub, hid, wpub, whid, seat, horizon, rec[0], current)
    memory[STEPS] += steps
    best = 0
    for a in range(1, n):
        if total[a] > total[best]:
            best = a
    return actions[best]


def _part_settled(pub, seat, part, horizon):
    """Whether a world's value for the deciding seat is known before the unit ends: with
    ``horizon`` 1, once the part the decision was in is over."""
    return horizon == 1 and part_nb(pub) != part


def _part_value(start_pub, start_hid, pub, hid, seat, horizon, rec, current):
    """The seat's win share of the unit (``horizon`` 0), or of the part the world started in."""
    if horizon == 1:
        current_nb(start_pub, start_hid, pub, hid, current)
        return current[0, seat]
    record_nb(rec, 0, pub, hid)
    return rec["win"][seat]


# The policy itself: the body called with PLAYERS times the game's forced_policy, a tuple written
# out (numba builds a tuple of functions only from a literal, and caches it only then), one per
# seat count a game can have at most.
def _pimc2(pb, pv, legal, row):
    """PIMC (analyser.kernels.search): the seat's action from worlds played out."""
    return pimc_body_nb((FORCED, FORCED), pb, pv, legal, row)


def _pimc4(pb, pv, legal, row):
    """PIMC (analyser.kernels.search): the seat's action from worlds played out."""
    return pimc_body_nb((FORCED, FORCED, FORCED, FORCED), pb, pv, legal, row)


def _pimc6(pb, pv, legal, row):
    """PIMC (analyser.kernels.search): the seat's action from worlds played out."""
    return pimc_body_nb((FORCED, FORCED, FORCED, FORCED, FORCED, FORCED), pb, pv, legal, row)


_PIMC = {2: _pimc2, 4: _pimc4, 6: _pimc6}
pimc_body_nb = None


def pimc_policy(owner: str, policy_signature, policies_t, **hooks):
    """A game's ``pimc_policy`` of its ``policy_signature`` (its POLICY_SIG; ``policies_t``: its
    POLICIES_T), compiled now: ``hooks`` are its search module's and rules' functions and constants
    (actions_nb, world_nb, searching_nb, fallback_nb, step_nb, record_nb, current_nb, part_nb,
    new_state_nb, FORCED: the game's forced_policy, RECORD_DTYPE, PLAYERS, N_SETTINGS, MAX_CHOICES), and
    optionally ``settled_nb(pub, seat, part, horizon)`` and ``value_nb(start_pub, start_hid, pub, hid,
    seat, horizon, rec, current)``: when a world's value for the seat is known, and what it is (by
    default the part's or the unit's win share, _part_settled and _part_value)."""
    for name, template in (("settled_nb", _part_settled), ("value_nb", _part_value)):
        if name not in hooks:
            games = {k: hooks[k] for k in ("part_nb", "current_nb", "record_nb")}
            hooks[name] = inline_kernel(bind(template, owner, **games))
    body_signature = policy_signature.return_type(policies_t, *policy_signature.args)
    body = njit(body_signature, cache=True)(bind(_pimc_body, owner, **hooks))
    template = _PIMC[hooks["PLAYERS"]]
    with warnings.catch_warnings():     # the tuple's function constants keep this small wrapper out of the
        warnings.filterwarnings("ignore", "Cannot cache compiled function", NumbaWarning)    # disk cache
        return njit(policy_signature, cache=True)(bind(template, owner, pimc_body_nb=body, FORCED=hooks["FORCED"]))
