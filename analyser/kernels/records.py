"""Kernels every game runs on its records, whatever their dtypes.

numba compiles (and caches) one version of each for every game's record types,
so they cost what the game's own copy cost; a game calls them as it called that.
"""
import numpy as np

from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.outcome import ERROR


@kernel
def reset_nb(pub, priv, hid):
    """Empty every field of the three state arrays, so one set serves many units."""
    pub.view(np.uint8)[:] = 0
    priv.view(np.uint8)[:] = 0
    hid.view(np.uint8)[:] = 0


@inline_kernel
def record_status_nb(rec, unit, length, hd):
    """The outcome block's ``unit`` and ``length``, and the status counters every game's
    hidden record keeps (analyser.kernels.outcome.STATUS_COUNTERS), into the result record."""
    rec["unit"] = unit
    rec["length"] = length
    rec["decisions"] = hd["decisions"]
    rec["aborted"] = hd["aborted"]
    rec["error"] = hd["error"]
    rec["error_seat"] = hd["error_seat"]


@inline_kernel
def illegal_action_nb(hd, seat):
    """Abort the unit: the policy of ``seat`` chose an action that is not legal (the
    runner names it in a one-line error)."""
    hd["error"] = ERROR.ILLEGAL_ACTION
    hd["error_seat"] = seat
    hd["aborted"] = True
