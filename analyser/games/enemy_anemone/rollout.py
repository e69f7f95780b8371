"""Enemy Anemone rollouts: every world played out after every candidate action, in one compiled call.

A world is a position's three state records (analyser.games.worlds made it); for each world
and action (a card, with the tokens attached to it), the deciding seat is made to play the
action (a policy that returns it), then the match is played to its end by the line-up's
policies with the rules' own ``step_nb``, and the outcome record is written by the engine's
``record_nb``. Every action of a world starts from the same records, random streams included,
so the actions are compared on the same future (common random numbers). The hands still to
come are dealt from (rollout seed, world), as a unit's hands are from (seed, unit): the same
for all actions of a world, never the real match's next deals.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from analyser.games.enemy_anemone.engine import RECORD_T, record_nb
from analyser.games.enemy_anemone.rules import step_nb
from analyser.games.enemy_anemone.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T
from analyser.kernels.rng import DEAL_SLOT, POLICY_SLOT, hand_seed_nb


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


@njit(types.void(POLICIES_T, POLICIES_T, types.int64[::1], types.int64[::1], types.float64[:, ::1],
                 types.float64[:, ::1], types.int64[::1], types.int64[::1], types.Array(PUBLIC_T, 1, "C"),
                 types.Array(PRIVATE_T, 2, "C"), types.Array(HIDDEN_T, 1, "C"), types.int64[::1],
                 types.int64, types.int64, types.Array(RECORD_T, 2, "C"), types.float64[:, :, :, ::1]),
      parallel=True, nogil=True, cache=True)
def play_worlds_nb(policies, forced, kinds, forced_kinds, params, forced_params, settings, streams, pubs, privs,
                   hids, actions, seed, first_world, out, current):
    """out[w, a]: the outcome of world w (pubs[w], privs[w], hids[w]) after ``actions[a]``.
    Each world's deal and policy streams are reseeded from (seed, first_world + w), the same
    for every action of that world; later hands are dealt from them too (``step_nb`` with the
    world as its unit).
    current[w, a, 0 | 1, s]: seat s's win share and score of the hand world w was in (current_nb),
    read when that hand ends."""
    n_worlds = pubs.shape[0]
    for w in prange(n_worlds):
        for a in range(actions.size):
            pub = pubs[w: w + 1].copy()
            priv = privs[w].copy()
            hid = hids[w: w + 1].copy()
            legal = np.zeros(64, np.bool_)
            log = np.zeros(0, np.int32)
            world = first_world + w
            h = pub[0]["hand"]
            hid[0]["rng"][0] = hand_seed_nb(seed, world, h, DEAL_SLOT)
            for s in range(priv.size):
                priv[s]["rng"][0] = hand_seed_nb(seed, world, h, POLICY_SLOT + streams[s])
            params_a = forced_params.copy()
            params_a[pub[0]["seat"], 0] = actions[a]
            sub = pub[0]["hand"]
            over = step_nb(seed, world, settings, streams, forced, forced_kinds, params_a, pub, priv, hid, legal,
                           log)
            scored = False
            while True:
                if not scored and (over or pub[0]["hand"] != sub):
                    current_nb(pubs[w: w + 1], hids[w: w + 1], pub, hid, current[w, a])
                    scored = True
                if over:
                    break
                over = step_nb(seed, world, settings, streams, policies, kinds, params, pub, priv, hid, legal,
                               log)
            record_nb(out[w, a], world, pub, hid)
