"""The Palace simulation loop: many deals in parallel, one record per deal.

``simulate_nb`` (analyser.kernels.loops, bound here) is compiled once, with an explicit signature, for any tuple of
policies (see state.POLICY_T); importing this module loads it from the disk
cache. Games are played by rules.play_unit_nb, as traces are, so a trace is
exactly the game the simulation played.
"""
import numba
from numba import types

from analyser.games.dispatch import with_kinds
from analyser.games.palace.constants import MAX_PLAYERS
from analyser.games.palace.dispatch import BUILT_IN
from analyser.games.palace.records import RECORD_DTYPE
from analyser.games.palace.rules import play_unit_nb
from analyser.games.palace.state import HIDDEN_T, POLICIES_T, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.jit import kernel
from analyser.kernels.loops import simulate_loop
from analyser.kernels.records import record_status_nb
from analyser.kernels.signatures import begin_signature, simulate_signature

RECORD_T = numba.from_dtype(RECORD_DTYPE)
BLOCK = 64   # deals per parallel work item

@kernel
def record_nb(rec, unit, pub, hid):
    """The outcome block (rank = place, win = score = not the loser) and Palace's own fields."""
    pb = pub[0]
    hd = hid[0]
    record_status_nb(rec, unit, hd["actions"], hd)
    rec["players"] = pb["players"]
    rec["first"] = hd["first"]
    rec["loser"] = -1
    for s in range(MAX_PLAYERS):
        rec["team"][s] = s if s < pb["players"] else 0     # seats beyond the players stay zero
        rec["rank"][s] = 0
        rec["win"][s] = 0.0
        rec["score"][s] = 0.0
        rec["picked_up"][s] = hd["picked_up"][s]
        rec["pickups"][s] = hd["pickups"][s]
        rec["voluntary"][s] = hd["voluntary"][s]
        rec["burns"][s] = hd["burns"][s]
    if not hd["aborted"]:
        for s in range(pb["players"]):
            rec["rank"][s] = pb["place"][s]
            if pb["place"][s] == pb["players"]:
                rec["loser"] = s
            else:
                rec["win"][s] = 1.0
                rec["score"][s] = 1.0
    rec["draw"] = False
    rec["turns"] = hd["turns"]


UNIT_SIG = begin_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, returns=types.void)
SIMULATE_SIG = simulate_signature(POLICIES_T, RECORD_T, types.int64[::1])
_block_nb, simulate_nb = simulate_loop(__file__, SIMULATE_SIG, unit_sig=UNIT_SIG, play_unit_nb=play_unit_nb,
                                       record_nb=record_nb, new_state_nb=new_state_nb, block=BLOCK)

simulate = with_kinds(simulate_nb, BUILT_IN)   # GameSpec.simulate
