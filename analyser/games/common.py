"""Plain-Python helpers every game's trace.py shares (no numba here: the games'
``__init__`` modules may import this while listing games)."""
from __future__ import annotations

import warnings
from contextlib import contextmanager

import numpy as np


@contextmanager
def quiet_first_class():
    """numba warns whenever policies pass as first-class functions (a tuple of them): every call
    into a game's compiled code with the line-up's policies runs inside this."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
        yield


def run_trace(trace_nb, args: tuple, words: int, record_dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """``(log, out)``: the game's compiled ``trace_nb(*args, log, out)`` run on a log of ``words``
    int32 words, switched on, and a record array of one."""
    log = np.zeros(words, np.int32)
    log[0] = 1                  # the write position (analyser.kernels.eventlog): the log is on and empty
    out = np.zeros(1, record_dtype)
    with quiet_first_class():
        trace_nb(*args, log, out)
    return log, out


def result_seats(rec: np.ndarray, players: int) -> dict:
    """The outcome block's per-seat win shares and ranks, as a trace's result event shows them."""
    return {"win": [float(x) for x in rec["win"][:players]], "rank": [int(x) for x in rec["rank"][:players]]}
