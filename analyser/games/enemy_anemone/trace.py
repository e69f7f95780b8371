"""One Enemy Anemone match, move by move: the event list behind ``analyser trace``.

The match is played by the same ``play_unit_nb`` as in simulation, with a log
buffer switched on, so the trace of match I with seed S is the match that
simulate played as match I with seed S. Every event inside the match carries
its ``hand``; the setup and the result belong to the whole match.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from analyser.games.common import result_seats, run_trace
from analyser.games.dispatch import policy_kinds
from analyser.games.enemy_anemone.constants import EVENT, REASON_NAMES, TOKEN_FROM, card_name
from analyser.games.enemy_anemone.dispatch import BUILT_IN
from analyser.games.enemy_anemone.engine import RECORD_T, record_nb
from analyser.games.enemy_anemone.records import RECORD_DTYPE
from analyser.games.enemy_anemone.rules import play_unit_nb
from analyser.games.enemy_anemone.state import POLICIES_T, new_state_nb
from analyser.kernels.eventlog import read_events
from analyser.kernels.signatures import trace_signature

TRACE_SIG = trace_signature(POLICIES_T, RECORD_T, types.int64[::1])
LOG_PER_HAND = 8 * 1024   # a hand logs at most 60 cards dealt and ~60 plays, each under 10 words, plus tokens


@njit(TRACE_SIG, cache=True)
def trace_nb(seed, unit, players, settings, policies, kinds, params, streams, log, out):
    pub, priv, hid, legal = new_state_nb()
    play_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
    record_nb(out[0], unit, pub, hid)


def names(cards) -> list[str]:
    return [card_name(int(c)) for c in cards]


def decode_log(log: np.ndarray, players: int) -> list[dict]:
    """The log's events as dicts (the jsonl trace's lines)."""
    events = []
    for etype, hand, seat, a, b, values in read_events(log):
        cards = names(values) if etype != EVENT.HAND_END else []
        if etype == EVENT.DEAL:
            dealt = players * a
            events.append({"type": "deal", "hand": hand, "hands": [cards[s * a: (s + 1) * a] for s in range(players)],
                           "draw_pile": cards[dealt:]})
        elif etype == EVENT.START:
            events.append({"type": "start", "hand": hand, "seat": seat})
        elif etype == EVENT.PLAY:
            events.append({"type": "play", "hand": hand, "seat": seat, "card": cards[0],
                           "tokens": [2] * (a // 16) + [1] * (a % 16), "value": b})
        elif etype == EVENT.DISCARD:
            events.append({"type": "discard", "hand": hand, "seat": seat, "card": cards[0]})
        elif etype == EVENT.TRICK:
            events.append({"type": "trick", "hand": hand, "winner": seat, "low": a, "cards": cards})
        elif etype == EVENT.TOKEN:
            source = "supply" if a == TOKEN_FROM.SUPPLY else "flip" if a == TOKEN_FROM.FLIP else a
            events.append({"type": "token", "hand": hand, "seat": seat, "from": source, "value": b % 4,
                           "for": REASON_NAMES[b // 4]})
        elif etype == EVENT.DRAW:
            events.append({"type": "draw", "hand": hand, "seat": seat, "cards": cards})
        elif etype == EVENT.HAND_END:
            rows = [values[4 * s: 4 * s + 4] for s in range(players)]
            events.append({"type": "hand_end", "hand": hand, "scores": [r[0] for r in rows],
                           "totals": [r[1] for r in rows], "tokens": [[2] * r[3] + [1] * r[2] for r in rows]})
    return events


def trace_unit(seed, unit, players, settings, fns, params, streams):
    """``(events, record)`` for one match: setup, every hand's moves, the result."""
    hands = int(settings[3])
    kinds = policy_kinds(fns, BUILT_IN, params)
    log, out = run_trace(trace_nb, (seed, unit, players, settings, fns, kinds, params, streams),
                         64 + LOG_PER_HAND * hands, RECORD_DTYPE)
    rec = out[0]
    events = decode_log(log, players)
    first = events[0]
    setup = {"type": "setup", "first": int(rec["first"]), "hands": first["hands"], "draw_pile": first["draw_pile"]}
    events = [setup] + events
    events.append({"type": "result", "totals": [int(x) for x in rec["score"][:players]],
                   **result_seats(rec, players),
                   "tokens": [int(x) for x in rec["tokens_held"][:players]], "tiebreak": bool(rec["tiebreak"]),
                   "aborted": bool(rec["aborted"]), "actions": int(rec["length"])})
    return events, out
