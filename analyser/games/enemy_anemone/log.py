"""The event log a traced match writes: a flat int32 buffer, empty when not tracing.

``log[0]`` is the write position. Each event is ``type, hand, seat, a, b, n``
followed by n cards (see EVENT in constants.py); trace.py decodes it.
"""
from analyser.core.jit import kernel
from analyser.games.enemy_anemone.constants import LOG_EVENT_CARDS

HEAD = 6


@kernel
def log_event_nb(log, etype, hand, seat, a, b):
    """Start an event; returns its position (or -1 when not tracing)."""
    if log.size == 0:
        return -1
    p = log[0]
    if p + HEAD + LOG_EVENT_CARDS > log.size:
        return -1
    log[p] = etype
    log[p + 1] = hand
    log[p + 2] = seat
    log[p + 3] = a
    log[p + 4] = b
    log[p + 5] = 0
    log[0] = p + HEAD
    return p


@kernel
def log_card_nb(log, head, card):
    """Append a card to the event started at ``head``."""
    if head < 0:
        return
    p = log[0]
    log[p] = card
    log[0] = p + 1
    log[head + 5] += 1
