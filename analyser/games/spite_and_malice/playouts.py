"""Spite & Malice's compiled play-outs: a match kept action by action for the test kit, and rollouts' worlds.

``playout_nb`` (analyser.kernels.loops, bound here) plays a match as simulate does and keeps the
three state records after the setup and every decision (analyser.games.kit.recorded_positions
reads them). ``play_worlds_nb`` plays every world after every candidate action in one call: a
world is a position's three state records (analyser.games.worlds made it: the stock's order, the
face-down payoff cards and the other hand dealt anew); the deciding seat is made to play the
action (``forced_policy``, which returns it, for the first step only), then the match is played
to its end by the line-up's policies (rules.step_nb: the rest of the turn, the other seat's
turns, the later rounds), and the match's outcome record is written (engine.record_nb). Every
action of a world starts from the same records, the round's streams (the round's stream shuffles
the stock whenever a build pile is completed) and the match key that later rounds are dealt from
reseeded by analyser.kernels.worlds, so the actions are compared on the same future (common
random numbers).
"""
from __future__ import annotations

from numba import njit

from analyser.games.spite_and_malice.constants import LEGAL_SIZE, PLAYERS
from analyser.games.spite_and_malice.engine import RECORD_T, record_nb
from analyser.games.spite_and_malice.rules import begin_unit_nb, step_nb
from analyser.games.spite_and_malice.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.jit import inline_kernel
from analyser.kernels.loops import playout_loop, worlds_loop
from analyser.kernels.signatures import begin_signature, play_worlds_signature, playout_signature, step_signature
from analyser.kernels.worlds import reseed_world_nb

_STATE_T = (POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T)
playout_nb, forced_policy = playout_loop(__file__, playout_signature(POLICIES_T), POLICY_SIG,
                                         begin_sig=begin_signature(*_STATE_T), step_sig=step_signature(*_STATE_T),
                                         begin_unit_nb=begin_unit_nb, step_nb=step_nb, new_state_nb=new_state_nb)


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


@inline_kernel
def part_nb(pub):
    """The round a position is in."""
    return pub[0]["round"]


@inline_kernel
def reseed_nb(seed, world, part, streams, priv, hid):
    """The world's own streams and the key its later rounds are dealt from (analyser.kernels.worlds)."""
    hid[0]["key"] = reseed_world_nb(seed, world, part, streams, hid[0]["rng"], priv)


play_worlds_nb = worlds_loop(__file__, play_worlds_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, RECORD_T),
                             step_nb=step_nb, record_nb=record_nb, current_nb=current_nb, part_nb=part_nb,
                             reseed_nb=reseed_nb, legal_size=LEGAL_SIZE)
