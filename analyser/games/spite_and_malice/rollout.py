"""Spite & Malice rollouts: every world played out after every candidate action, in one compiled call.

A world is a position's three state records (analyser.games.worlds made it: the stock's order,
the face-down payoff cards and the other hand dealt anew); for each world and action, the
deciding seat is made to play the action (a policy that returns it, for the first step only),
then the match is played to its end by the line-up's policies (rules.step_nb, the rules' own
kernel: the rest of the turn, the other seat's turns, the later rounds), and the match's outcome
record is written (engine.record_nb). Every action of a world starts from the same records,
random streams included, so the actions are compared on the same future (common random numbers).

Streams reseeded per world: the current round's policy streams, the round's stream (which
shuffles the stock whenever a build pile is completed), and the match key that later rounds are
dealt from (rules.start_round_nb seeds round r's deal and policy streams from ``hd["key"]``).
The real match's would reshuffle every world's stock as the real match's was, and deal every
world the real match's later rounds: a future no seat knows, and the same one in every world; so
each world gets the key of unit ``first_world + w`` of the rollout seed and the current round's
streams of that key, and its later rounds are dealt from it as any match's are.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from analyser.games.spite_and_malice.constants import LEGAL_SIZE, PLAYERS
from analyser.games.spite_and_malice.engine import RECORD_T, record_nb
from analyser.games.spite_and_malice.rules import step_nb
from analyser.games.spite_and_malice.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T
from analyser.kernels.rng import DEAL_SLOT, POLICY_SLOT, STREAMS_PER_HAND, keyed_seed_nb, unit_key_nb


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def forced_policy(pub, pv, legal, params):
    """The rollout's candidate: the action in the first parameter."""
    return np.int64(params[0])


@njit(cache=True)
def current_nb(start_pub, start_hid, pub, hid, current):
    """current[0, s], current[1, s]: seat s's win share and points of the round the world started
    in, read when it ends: 1 for the seat that won it (0 for both in a drawn round) and the points
    it scored, as a single round's record (``--unit round``) counts them; 0 if the match was
    aborted first."""
    current[:] = 0.0
    if hid[0]["aborted"]:
        return
    for s in range(PLAYERS):
        current[0, s] = hid[0]["rounds_won"][s] - start_hid[0]["rounds_won"][s]
        current[1, s] = pub[0]["points"][s] - start_pub[0]["points"][s]


@njit(types.void(POLICIES_T, POLICIES_T, types.int64[::1], types.int64[::1], types.float64[:, ::1],
                 types.float64[:, ::1], types.int64[::1], types.Array(PUBLIC_T, 1, "C"),
                 types.Array(PRIVATE_T, 2, "C"), types.Array(HIDDEN_T, 1, "C"), types.int64[::1],
                 types.int64, types.int64, types.Array(RECORD_T, 2, "C"), types.float64[:, :, :, ::1]),
      parallel=True, nogil=True, cache=True)
def play_worlds_nb(policies, forced, kinds, forced_kinds, params, forced_params, settings, pubs, privs, hids,
                   actions, seed, first_world, out, current):
    """out[w, a]: the outcome of the match of world w (pubs[w], privs[w], hids[w]) after
    ``actions[a]``. Each world's streams are reseeded from (seed, first_world + w), the same
    for every action of that world (the module docstring).
    current[w, a, 0 | 1, s]: seat s's win share and score of the round world w was in (current_nb),
    read when that round ends."""
    n_worlds = pubs.shape[0]
    streams = np.arange(PLAYERS, dtype=np.int64)     # policy stream k = seat k, as a plain run's
    for w in prange(n_worlds):
        for a in range(actions.size):
            pub = pubs[w: w + 1].copy()
            priv = privs[w].copy()
            hid = hids[w: w + 1].copy()
            legal = np.zeros(LEGAL_SIZE, np.bool_)
            log = np.zeros(0, np.int32)
            world = first_world + w
            key = unit_key_nb(seed, world)
            base = np.int64(pub[0]["round"]) * STREAMS_PER_HAND
            hid[0]["key"] = key
            hid[0]["rng"][0] = keyed_seed_nb(key, base + DEAL_SLOT)
            for s in range(PLAYERS):
                priv[s]["rng"][0] = keyed_seed_nb(key, base + POLICY_SLOT + streams[s])
            params_a = forced_params.copy()
            params_a[pub[0]["seat"], 0] = actions[a]
            sub = pub[0]["round"]
            over = step_nb(seed, world, settings, streams, forced, forced_kinds, params_a, pub, priv, hid, legal,
                           log)
            scored = False
            while True:
                if not scored and (over or pub[0]["round"] != sub):
                    current_nb(pubs[w: w + 1], hids[w: w + 1], pub, hid, current[w, a])
                    scored = True
                if over:
                    break
                over = step_nb(seed, world, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
            record_nb(out[w, a], world, pub, hid)
