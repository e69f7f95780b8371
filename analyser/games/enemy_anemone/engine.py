"""The Enemy Anemone simulation loop: many matches in parallel, one record per match.

``simulate_nb`` (analyser.kernels.loops, bound here) is compiled once, with an explicit signature, for any tuple of
policies (see state.POLICY_T); importing this module loads it from the disk
cache. ``simulate`` is the GameSpec entry point. Matches are played by rules.play_unit_nb, as traces are.
"""
import numba
from numba import types

from analyser.games.dispatch import with_kinds
from analyser.games.enemy_anemone.constants import MAX_HANDS, MAX_PLAYERS
from analyser.games.enemy_anemone.dispatch import BUILT_IN
from analyser.games.enemy_anemone.records import RECORD_DTYPE
from analyser.games.enemy_anemone.rules import play_unit_nb
from analyser.games.enemy_anemone.state import HIDDEN_T, POLICIES_T, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.jit import kernel
from analyser.kernels.loops import simulate_loop
from analyser.kernels.records import record_status_nb
from analyser.kernels.signatures import begin_signature, simulate_signature

RECORD_T = numba.from_dtype(RECORD_DTYPE)
BLOCK = 64   # matches per parallel work item


@kernel
def record_nb(rec, unit, pub, hid):
    """The outcome block (score = match total; the highest total wins, ties to
    more tokens held, then shared; rank on the same order) and the game's fields."""
    pb = pub[0]
    hd = hid[0]
    record_status_nb(rec, unit, hd["actions"], hd)
    players = pb["players"]
    rec["players"] = players
    rec["hands"] = hd["hands_played"]
    rec["first"] = hd["first"]
    rec["draw"] = False
    top = -1
    for s in range(MAX_PLAYERS):
        rec["team"][s] = s if s < players else 0     # seats beyond the players stay zero
        rec["score"][s] = 0.0
        rec["win"][s] = 0.0
        rec["rank"][s] = 0
        held = pb["ones"][s] + pb["twos"][s]
        rec["tokens_held"][s] = held
        rec["tricks"][s] = hd["tricks"][s]
        rec["tokens_taken"][s] = hd["tokens_taken"][s]
        rec["tokens_spent"][s] = hd["tokens_spent"][s]
        rec["value_spent"][s] = hd["value_spent"][s]
        rec["discards"][s] = hd["discards"][s]
        for h in range(MAX_HANDS):
            rec["hand_score"][s, h] = pb["hand_score"][s, h]
        if s < players:
            top = max(top, pb["totals"][s] * 16 + held)     # held <= 9: total first, then tokens
    rec["tiebreak"] = False
    if hd["aborted"]:
        return
    winners = 0
    level = 0
    for s in range(players):
        key = pb["totals"][s] * 16 + pb["ones"][s] + pb["twos"][s]
        winners += key == top
        level += pb["totals"][s] == top // 16
        rank = 1
        for o in range(players):
            rank += pb["totals"][o] * 16 + pb["ones"][o] + pb["twos"][o] > key
        rec["rank"][s] = rank
        rec["score"][s] = pb["totals"][s]
    rec["tiebreak"] = winners < level
    for s in range(players):
        if pb["totals"][s] * 16 + pb["ones"][s] + pb["twos"][s] == top:
            rec["win"][s] = 1.0 / winners


UNIT_SIG = begin_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, returns=types.void)
SIMULATE_SIG = simulate_signature(POLICIES_T, RECORD_T, types.int64[::1])
_block_nb, simulate_nb = simulate_loop(__file__, SIMULATE_SIG, unit_sig=UNIT_SIG, play_unit_nb=play_unit_nb,
                                       record_nb=record_nb, new_state_nb=new_state_nb, block=BLOCK)

simulate = with_kinds(simulate_nb, BUILT_IN)   # GameSpec.simulate
