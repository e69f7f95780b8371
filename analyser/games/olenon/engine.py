"""The Olenon simulation loop: many matches in parallel, one record per match.

``simulate_nb`` (analyser.kernels.loops, bound here) is compiled once, with an explicit signature, for any tuple of
policies (see state.POLICY_T); importing this module loads it from the disk
cache. Matches are played by rules.play_unit_nb, as traces are.
"""
import numba
from numba import types

from analyser.games.dispatch import with_kinds
from analyser.games.olenon.constants import PLAYERS
from analyser.games.olenon.dispatch import BUILT_IN
from analyser.games.olenon.records import RECORD_DTYPE
from analyser.games.olenon.rules import play_unit_nb
from analyser.games.olenon.state import HIDDEN_T, POLICIES_T, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.jit import kernel
from analyser.kernels.loops import simulate_loop
from analyser.kernels.records import record_status_nb
from analyser.kernels.signatures import begin_signature, simulate_signature

RECORD_T = numba.from_dtype(RECORD_DTYPE)
BLOCK = 64   # matches per parallel work item


@kernel
def record_nb(rec, unit, pub, hid):
    """The outcome block (team = seat & 1; score = the team's rounds won; win 1
    for both partners of the match's winning team; rank 1 or 2) and the game's fields."""
    pb = pub[0]
    hd = hid[0]
    record_status_nb(rec, unit, hd["actions"], hd)
    rec["players"] = PLAYERS
    rec["rounds"] = hd["rounds_played"]
    rec["first"] = hd["first"]
    rec["draw"] = False
    for s in range(PLAYERS):
        team = s & 1
        rec["team"][s] = team
        rec["rounds_won"][s] = pb["team_rounds"][team]
        rec["goes_out"][s] = hd["goes_out"][s]
        rec["plays"][s] = hd["plays"][s]
        rec["replaces"][s] = hd["replaces"][s]
        rec["passes"][s] = hd["passes"][s]
        rec["cards_played"][s] = hd["cards_played"][s]
        won = not hd["aborted"] and hd["winner"] == team
        rec["score"][s] = 0.0 if hd["aborted"] else pb["team_rounds"][team]
        rec["win"][s] = 1.0 if won else 0.0
        rec["rank"][s] = 0 if hd["aborted"] else (1 if won else 2)


UNIT_SIG = begin_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, returns=types.void)
SIMULATE_SIG = simulate_signature(POLICIES_T, RECORD_T, types.int64[::1])
_block_nb, simulate_nb = simulate_loop(__file__, SIMULATE_SIG, unit_sig=UNIT_SIG, play_unit_nb=play_unit_nb,
                                       record_nb=record_nb, new_state_nb=new_state_nb, block=BLOCK)

simulate = with_kinds(simulate_nb, BUILT_IN)   # GameSpec.simulate
