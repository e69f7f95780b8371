"""The Palace simulation loop: many deals in parallel, one record per deal.

``simulate_nb`` is compiled once, with an explicit signature, for any tuple of
policies (see state.POLICY_T); importing this module loads it from the disk
cache. Games are played by rules.play_unit_nb, as traces are, so a trace is
exactly the game the simulation played.
"""
import numba
import numpy as np
from numba import njit, prange, types

from analyser.games.dispatch import with_kinds
from analyser.games.palace.constants import MAX_PLAYERS
from analyser.games.palace.dispatch import BUILT_IN
from analyser.games.palace.records import RECORD_DTYPE
from analyser.games.palace.rules import play_unit_nb
from analyser.games.palace.state import POLICIES_T, new_state_nb
from analyser.kernels.jit import kernel
from analyser.kernels.records import record_status_nb
from analyser.kernels.signatures import simulate_signature

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

@njit(cache=True)   # not a kernel: it allocates the block's buffers (NRT)
def _block_nb(seed, first_deal, lo, hi, players, settings, policies, kinds, params, streams, out):
    """Deals lo .. hi - 1, on buffers of this block's own.

    ``params`` and ``settings`` are copied too: a policy compiled with reference
    counting increfs its parameter row on every call, and a shared array would
    bounce that count between threads."""
    params = params.copy()
    settings = settings.copy()
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    for i in range(lo, hi):
        play_unit_nb(seed, first_deal + i, players, settings, streams, policies, kinds, params, pub, priv, hid, legal,
                     log)
        record_nb(out[i], first_deal + i, pub, hid)

SIMULATE_SIG = simulate_signature(POLICIES_T, RECORD_T, types.int64[::1])

@njit(SIMULATE_SIG, parallel=True, nogil=True, cache=True)   # an explicit signature and prange: no kernel
def simulate_nb(seed, first_deal, players, settings, policies, kinds, params, streams, out):
    """Play deals first_deal .. first_deal + len(out) - 1 into ``out``."""
    n = out.size
    n_blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        lo = b * BLOCK
        hi = min(n, lo + BLOCK)
        _block_nb(seed, first_deal, lo, hi, players, settings, policies, kinds, params, streams, out)


simulate = with_kinds(simulate_nb, BUILT_IN)   # GameSpec.simulate
