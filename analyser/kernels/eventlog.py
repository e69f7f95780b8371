"""The event log a traced unit writes: a flat int32 buffer, empty when not tracing.

``log[0]`` is the write position. Each event is ``type, hand, seat, a, b, n``
followed by n values (cards, or whatever the game's event carries); a game's
trace.py decodes it. Simulation passes an empty buffer, so logging costs one
size test per event. Every built-in game logs through it (Palace, without
sub-units, writes ``hand`` 0).
"""
from numba import njit, types

from analyser.kernels import cache

cache.install()
_LOG_T = types.int32[::1]
_ONE_COPY = {"cache": True, "_nrt": False}   # a kernel (analyser.kernels.jit) with one signature: the games log
# every width of integer, and each width compiled its own copy

HEAD = 6
MAX_EVENT_VALUES = 64     # the most values one event may append (a deal)


@njit(types.int64(_LOG_T, *[types.int64] * 5), **_ONE_COPY)
def log_event_nb(log, etype, hand, seat, a, b):
    """Start an event; returns its position (or -1 when not tracing, or when full)."""
    if log.size == 0:
        return -1
    p = log[0]
    if p + HEAD + MAX_EVENT_VALUES > log.size:
        return -1
    log[p] = etype
    log[p + 1] = hand
    log[p + 2] = seat
    log[p + 3] = a
    log[p + 4] = b
    log[p + 5] = 0
    log[0] = p + HEAD
    return p


@njit(types.void(_LOG_T, types.int64, types.int64), **_ONE_COPY)
def log_value_nb(log, head, value):
    """Append a value to the event started at ``head``."""
    if head < 0:
        return
    p = log[0]
    log[p] = value
    log[0] = p + 1
    log[head + 5] += 1


def read_events(log) -> list[tuple[int, int, int, int, int, list[int]]]:
    """The log as ``(type, hand, seat, a, b, values)`` tuples, in order."""
    out = []
    p, end = 1, int(log[0])
    while p < end:
        etype, hand, seat, a, b, n = (int(x) for x in log[p: p + HEAD])
        out.append((etype, hand, seat, a, b, [int(x) for x in log[p + HEAD: p + HEAD + n]]))
        p += HEAD + n
    return out
