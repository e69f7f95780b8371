"""The Spite & Malice simulation loop: many matches in parallel, one record per match.

``simulate_nb`` (analyser.kernels.loops, bound here) is compiled once, with an explicit signature, for any tuple of
policies (see state.POLICY_T); importing this module loads it from the disk
cache. ``simulate`` is the GameSpec entry point. Matches are played by
rules.play_unit_nb, as traces are.
"""
import numba
from numba import types

from analyser.games.dispatch import with_kinds
from analyser.games.spite_and_malice.constants import PLAYERS
from analyser.games.spite_and_malice.dispatch import BUILT_IN
from analyser.games.spite_and_malice.records import RECORD_DTYPE
from analyser.games.spite_and_malice.rules import play_unit_nb
from analyser.games.spite_and_malice.state import HIDDEN_T, POLICIES_T, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.jit import kernel
from analyser.kernels.loops import simulate_loop
from analyser.kernels.records import record_status_nb
from analyser.kernels.signatures import begin_signature, simulate_signature

RECORD_T = numba.from_dtype(RECORD_DTYPE)
BLOCK = 16   # matches per parallel work item (a match is hundreds of decisions)


@kernel
def record_nb(rec, unit, pub, hid):
    """The outcome block (score = match points; win 1 for the match's winner;
    rank 1 or 2, both 1 in a drawn match; team = seat) and the game's fields."""
    pb = pub[0]
    hd = hid[0]
    record_status_nb(rec, unit, hd["moves"], hd)
    rec["players"] = PLAYERS
    rec["first"] = hd["first"]
    rec["rounds"] = hd["rounds_played"]
    rec["drawn_rounds"] = hd["drawn_rounds"]
    rec["turns"] = hd["turns"]
    done = not hd["aborted"]
    rec["draw"] = done and hd["winner"] < 0
    for s in range(PLAYERS):
        rec["team"][s] = s
        rec["points"][s] = pb["points"][s]
        rec["rounds_won"][s] = hd["rounds_won"][s]
        rec["payoff_left"][s] = hd["payoff_left"][s]
        rec["kings"][s] = hd["kings"][s]
        rec["payoff_played"][s] = hd["payoff_played"][s]
        rec["builds"][s] = hd["builds"][s]
        rec["discards"][s] = hd["discards"][s]
        rec["completed"][s] = hd["completed"][s]
        won = done and hd["winner"] == s
        rec["score"][s] = pb["points"][s] if done else 0.0
        rec["win"][s] = 1.0 if won else 0.0
        rec["rank"][s] = 0 if not done else (2 if hd["winner"] == 1 - s else 1)


UNIT_SIG = begin_signature(POLICIES_T, PUBLIC_T, PRIVATE_T, HIDDEN_T, returns=types.void)
SIMULATE_SIG = simulate_signature(POLICIES_T, RECORD_T, types.int64[::1])
_block_nb, simulate_nb = simulate_loop(__file__, SIMULATE_SIG, unit_sig=UNIT_SIG, play_unit_nb=play_unit_nb,
                                       record_nb=record_nb, new_state_nb=new_state_nb, block=BLOCK)

simulate = with_kinds(simulate_nb, BUILT_IN)   # GameSpec.simulate
