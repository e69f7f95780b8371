"""Enemy Anemone's compiled play-outs: a match kept action by action for the test kit, and rollouts' worlds.

``playout_nb`` plays a match as simulate does and keeps the three state records after the
setup and every action (analyser.games.kit.recorded_positions reads them). ``play_worlds_nb``
plays every world after every candidate action in one call: a world is a position's three state
records (analyser.games.worlds made it); the deciding seat is made to play the action (a card,
with the tokens attached to it: ``forced_policy`` returns it, for the first step only), then the
match is played to its end by the line-up's policies (rules.step_nb), and the match's outcome
record is written (engine.record_nb). Every action of a world starts from the same records, the
hand's streams reseeded by analyser.kernels.worlds; the hands still to come are dealt from
(rollout seed, world) as a unit's are from (seed, unit), so the actions are compared on the same
future (common random numbers), never the real match's next deals.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from analyser.games.enemy_anemone.engine import RECORD_T, record_nb
from analyser.games.enemy_anemone.rules import begin_unit_nb, step_nb
from analyser.games.enemy_anemone.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T, new_state_nb
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
    """current[0, s], current[1, s]: seat s's win share and score of the hand the world started
    in, read when it is scored: the hand score, the highest winning with ties going to more tokens
    held and then shared, as a single hand's record (``--unit hand``) counts them; 0 if the match
    was aborted first."""
    h = start_pub[0]["hand"]
    pb = pub[0]
    current[:] = 0.0
    if hid[0]["aborted"]:
        return
    players = pb["players"]
    top = -1
    for s in range(players):
        top = max(top, pb["hand_score"][s, h] * 16 + pb["ones"][s] + pb["twos"][s])
    winners = 0
    for s in range(players):
        winners += pb["hand_score"][s, h] * 16 + pb["ones"][s] + pb["twos"][s] == top
    for s in range(players):
        current[1, s] = pb["hand_score"][s, h]
        if pb["hand_score"][s, h] * 16 + pb["ones"][s] + pb["twos"][s] == top:
            current[0, s] = 1.0 / winners


@njit(play_worlds_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, RECORD_T), parallel=True, nogil=True,
      cache=True)
def play_worlds_nb(policies, forced, kinds, forced_kinds, params, forced_params, settings, streams, pubs, privs,
                   hids, actions, seed, first_world, out, current):
    """out[w, a]: the outcome of the match of world w (pubs[w], privs[w], hids[w]) after
    ``actions[a]``; current[w, a, 0 | 1, s]: seat s's win share and score of the hand world w
    was in (current_nb), read when that hand ends."""
    for w in prange(pubs.shape[0]):
        for a in range(actions.size):
            pub, priv, hid = pubs[w: w + 1].copy(), privs[w].copy(), hids[w: w + 1].copy()
            legal = np.zeros(64, np.bool_)
            log = np.zeros(0, np.int32)
            world = first_world + w
            part = pub[0]["hand"]
            reseed_world_nb(seed, world, part, streams, hid[0]["rng"], priv)
            params_a = forced_params.copy()
            params_a[pub[0]["seat"], 0] = actions[a]
            over = step_nb(seed, world, settings, streams, forced, forced_kinds, params_a, pub, priv, hid, legal, log)
            while not over and pub[0]["hand"] == part:
                over = step_nb(seed, world, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
            current_nb(pubs[w: w + 1], hids[w: w + 1], pub, hid, current[w, a])
            while not over:
                over = step_nb(seed, world, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
            record_nb(out[w, a], world, pub, hid)
