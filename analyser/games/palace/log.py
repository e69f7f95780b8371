"""The event log a traced game writes: a flat int32 buffer, empty when not tracing.

``log[0]`` is the write position. Each event is ``type, seat, aux, n_cards``
followed by its cards; trace.py decodes it.
"""
from numba import njit

import analyser.kernels.cache  # noqa: F401  (before any @njit here: it picks where numba caches them)
from analyser.games.palace.constants import LOG_EVENT_CARDS


@njit(cache=True)
def log_event_nb(log, etype, seat, aux):
    """Start an event; returns its position (or -1 when not tracing)."""
    if log.size == 0:
        return -1
    p = log[0]
    if p + 4 + LOG_EVENT_CARDS > log.size:
        return -1
    log[p] = etype
    log[p + 1] = seat
    log[p + 2] = aux
    log[p + 3] = 0
    log[0] = p + 4
    return p


@njit(cache=True)
def log_card_nb(log, head, card):
    """Append a card to the event started at ``head``."""
    if head < 0:
        return
    p = log[0]
    log[p] = card
    log[0] = p + 1
    log[head + 3] += 1
