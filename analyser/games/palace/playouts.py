"""Palace's compiled play-outs: a game kept action by action for the test kit, and rollouts' worlds.

``playout_nb`` (analyser.kernels.loops, bound here) plays a game as simulate does (but every
action: no cycle skipped) and keeps the three state records after the setup and every action
(analyser.games.kit.recorded_positions reads them). ``play_worlds_nb`` plays every world after
every candidate action in one call: a world is a position's three state records
(analyser.games.worlds made it); the deciding seat is made to play the action
(``forced_policy``, which returns it), then the game is played out by the line-up's policies,
and the outcome block is written. Every action of a world starts from the same records, its
streams reseeded by analyser.kernels.worlds (a game is one hand: hand 0), so the actions are
compared on the same future (common random numbers).
"""
from __future__ import annotations

import numpy as np

from analyser.games.palace.constants import ACTION
from analyser.games.palace.engine import RECORD_T, record_nb
from analyser.games.palace.rules import begin_unit_nb, play_out_nb, step_nb
from analyser.games.palace.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.loops import parallel_worlds, playout_loop
from analyser.kernels.signatures import begin_signature, play_worlds_signature, playout_signature, step_signature
from analyser.kernels.worlds import reseed_world_nb

_STATE_T = (POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T)
playout_nb, forced_policy = playout_loop(__file__, playout_signature(POLICIES_T), POLICY_SIG,
                                         begin_sig=begin_signature(*_STATE_T), step_sig=step_signature(*_STATE_T),
                                         begin_unit_nb=begin_unit_nb, step_nb=step_nb, new_state_nb=new_state_nb)


def _world(w, policies, forced, kinds, forced_kinds, params, forced_params, settings, streams, pubs, privs, hids,
           actions, seed, first_world, out, current):
    """out[w, a]: the outcome of world w (pubs[w], privs[w], hids[w]) after ``actions[a]``
    (``current`` is left alone: a game is not made of hands)."""
    own = params.copy()               # this world's rows: an open search seat's table is written into its row
    for a in range(actions.size):
        pub, priv, hid = pubs[w: w + 1].copy(), privs[w].copy(), hids[w: w + 1].copy()
        legal = np.zeros(ACTION.COUNT, np.bool_)
        log = np.zeros(0, np.int32)
        world = first_world + w
        reseed_world_nb(seed, world, 0, streams, hid[0]["rng"], priv)
        params_a = forced_params.copy()
        params_a[pub[0]["seat"], 0] = actions[a]
        if not step_nb(seed, world, settings, streams, forced, forced_kinds, params_a, pub, priv, hid, legal, log):
            play_out_nb(policies, kinds, own, settings, pub, priv, hid, legal, log)
        record_nb(out[w, a], world, pub, hid)


play_worlds_nb = parallel_worlds(__file__, play_worlds_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, RECORD_T),
                                 _world)
