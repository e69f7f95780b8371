"""Olenon's compiled play-outs: a match kept action by action for the test kit, and rollouts' worlds.

``playout_nb`` plays a match as simulate does and keeps the three state records after the
setup and every action (analyser.games.kit.recorded_positions reads them). ``play_worlds_nb``
plays every world after every candidate action in one call: a world is a position's three state
records (analyser.games.worlds made it); the deciding seat is made to play the action
(``forced_policy``, which returns it, for the first step only), then the match is played to its
end by the line-up's policies (rules.step_nb), and the match's outcome record is written
(engine.record_nb). Every action of a world starts from the same records, its streams and the
match key that later rounds are dealt from reseeded by analyser.kernels.worlds, so the actions are
compared on the same future (common random numbers).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analyser.games.olenon.constants import LEGAL_SIZE, PLAYERS
from analyser.games.olenon.engine import RECORD_T, record_nb
from analyser.games.olenon.rules import begin_unit_nb, step_nb
from analyser.games.olenon.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.signatures import play_worlds_signature, playout_signature
from analyser.kernels.worlds import reseed_world_nb


@njit(playout_signature(POLICIES_T), cache=True)
def playout_nb(seed, unit, players, settings, policies, kinds, params, streams, pubs, privs, hids):
    """The records after the setup and every action in row i of pubs, privs and hids; returns
    how many rows (all of them: the buffers were too small)."""
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    over = begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
    n = 0
    while True:
        pubs[n] = pub.view(np.uint8)
        privs[n] = priv.view(np.uint8)
        hids[n] = hid.view(np.uint8)
        n += 1
        if over or n == pubs.shape[0]:
            return n
        over = step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)


@njit(POLICY_SIG, cache=True, _nrt=False)   # see analyser.kernels.jit
def forced_policy(pub, pv, legal, params):
    """The rollout's candidate: the action in the first parameter."""
    return np.int64(params[0])


@njit(cache=True)
def current_nb(start_pub, start_hid, pub, hid, current):
    """current[0, s], current[1, s]: seat s's win share and score of the round the world started
    in, read when it ends: 1 and 1 for both partners of the team that won it, as a single round's
    record (``--unit round``) counts them; 0 if the match was aborted first."""
    current[:] = 0.0
    if hid[0]["aborted"]:
        return
    for s in range(PLAYERS):
        won = pub[0]["team_rounds"][s & 1] - start_pub[0]["team_rounds"][s & 1]
        current[0, s] = won
        current[1, s] = won


@njit(play_worlds_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, RECORD_T), parallel=True, nogil=True,
      cache=True)
def play_worlds_nb(policies, forced, kinds, forced_kinds, params, forced_params, settings, streams, pubs, privs,
                   hids, actions, seed, first_world, out, current):
    """out[w, a]: the outcome of the match of world w (pubs[w], privs[w], hids[w]) after
    ``actions[a]``; current[w, a, 0 | 1, s]: seat s's win share and score of the round world w
    was in (current_nb), read when that round ends."""
    for w in prange(pubs.shape[0]):
        for a in range(actions.size):
            pub, priv, hid = pubs[w: w + 1].copy(), privs[w].copy(), hids[w: w + 1].copy()
            legal = np.zeros(LEGAL_SIZE, np.bool_)
            log = np.zeros(0, np.int32)
            world = first_world + w
            part = pub[0]["round"]
            hid[0]["key"] = reseed_world_nb(seed, world, part, streams, hid[0]["rng"], priv)
            params_a = forced_params.copy()
            params_a[pub[0]["seat"], 0] = actions[a]
            over = step_nb(seed, world, settings, streams, forced, forced_kinds, params_a, pub, priv, hid, legal, log)
            while not over and pub[0]["round"] == part:
                over = step_nb(seed, world, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
            current_nb(pubs[w: w + 1], hids[w: w + 1], pub, hid, current[w, a])
            while not over:
                over = step_nb(seed, world, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
            record_nb(out[w, a], world, pub, hid)
