"""Enemy Anemone's compiled play-outs: a match kept action by action for the test kit, and rollouts' worlds.

``playout_nb`` (analyser.kernels.loops, bound here) plays a match as simulate does and keeps the
three state records after the setup and every action (analyser.games.kit.recorded_positions
reads them). ``play_worlds_nb`` plays every world after every candidate action in one call: a
world is a position's three state records (analyser.games.worlds made it); the deciding seat is
made to play the action (a card, with the tokens attached to it: ``forced_policy`` returns it,
for the first step only), then the match is played to its end by the line-up's policies
(rules.step_nb), and the match's outcome record is written (engine.record_nb). Every action of a
world starts from the same records, the hand's streams reseeded by analyser.kernels.worlds; the
hands still to come are dealt from (rollout seed, world) as a unit's are from (seed, unit), so
the actions are compared on the same future (common random numbers), never the real match's next
deals.
"""
from __future__ import annotations

from numba import njit

from analyser.games.enemy_anemone.engine import RECORD_T, record_nb
from analyser.games.enemy_anemone.rules import begin_unit_nb, step_nb
from analyser.games.enemy_anemone.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T, new_state_nb
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


@inline_kernel
def part_nb(pub):
    """The hand a position is in."""
    return pub[0]["hand"]


@inline_kernel
def reseed_nb(seed, world, part, streams, priv, hid):
    """The world's own streams (analyser.kernels.worlds)."""
    reseed_world_nb(seed, world, part, streams, hid[0]["rng"], priv)


play_worlds_nb = worlds_loop(__file__, play_worlds_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, RECORD_T),
                             step_nb=step_nb, record_nb=record_nb, current_nb=current_nb, part_nb=part_nb,
                             reseed_nb=reseed_nb, legal_size=64)
