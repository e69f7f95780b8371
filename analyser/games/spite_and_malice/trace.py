"""One Spite & Malice match, move by move: the event list behind ``analyser trace``.

The match is played by the same ``play_unit_nb`` as in simulation, with a log
buffer switched on, so the trace of match I with seed S is the match that
simulate played as match I with seed S. Every event inside the match carries
its ``round``; the setup and the result belong to the whole match. Cards are
their values, 1..13 (A=1, J=11, Q=12, K=13).
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from analyser.errors import UserError
from analyser.games.common import result_seats, run_trace
from analyser.games.dispatch import policy_kinds
from analyser.games.spite_and_malice.constants import (
    EVENT,
    PLAYERS,
    ROUND_NAMES,
    SIDE_END,
    SRC_PAYOFF,
    SRC_SIDE,
    START_NAMES,
)
from analyser.games.spite_and_malice.dispatch import BUILT_IN
from analyser.games.spite_and_malice.engine import RECORD_T, record_nb
from analyser.games.spite_and_malice.records import RECORD_DTYPE
from analyser.games.spite_and_malice.rules import play_unit_nb
from analyser.games.spite_and_malice.state import POLICIES_T, new_state_nb
from analyser.kernels.eventlog import HEAD, MAX_EVENT_VALUES, read_events
from analyser.kernels.signatures import trace_signature

TRACE_SIG = trace_signature(POLICIES_T, RECORD_T, types.int64[::1])
FIRST_LOG = 1 << 16       # words; a longer match is traced again with four times the room
MAX_LOG = 1 << 25         # words (128 MB): a match that needs more is refused


@njit(TRACE_SIG, cache=True)
def trace_nb(seed, unit, players, settings, policies, kinds, params, streams, log, out):
    pub, priv, hid, legal = new_state_nb()
    play_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
    record_nb(out[0], unit, pub, hid)


def source_name(src: int) -> str:
    """``payoff``, ``side2`` or ``hand``: where a built card came from."""
    if src == SRC_PAYOFF:
        return "payoff"
    return f"side{src - SRC_SIDE}" if src < SIDE_END else "hand"


def decode_log(log: np.ndarray) -> list[dict]:
    """The log's events as dicts (the jsonl trace's lines); the two seats' deal
    events of a round become one ``deal``."""
    events: list[dict] = []
    for etype, rnd, seat, a, b, values in read_events(log):
        if etype == EVENT.DEAL:
            if seat == 0:
                events.append({"type": "deal", "round": rnd, "payoffs": [], "hands": []})
            events[-1]["payoffs"].append(values[:a])
            events[-1]["hands"].append(values[a:])
        elif etype == EVENT.START:
            events.append({"type": "start", "round": rnd, "seat": seat, "why": START_NAMES[a]})
        elif etype == EVENT.TURN:
            events.append({"type": "turn", "round": rnd, "seat": seat, "turn": a, "drawn": values})
        elif etype == EVENT.BUILD:
            e = {"type": "build", "round": rnd, "seat": seat, "source": source_name(a), "pile": b,
                 "card": values[0], "value": values[1]}
            events.append(e)
        elif etype == EVENT.DISCARD:
            events.append({"type": "discard", "round": rnd, "seat": seat, "card": a, "side": b})
        elif etype == EVENT.STOP:
            events.append({"type": "stop", "round": rnd, "seat": seat})
        elif etype == EVENT.COMPLETE:
            events.append({"type": "complete", "round": rnd, "seat": seat, "pile": a, "stock": values[0]})
        elif etype == EVENT.REFILL:
            events.append({"type": "refill", "round": rnd, "seat": seat, "drawn": values})
        elif etype == EVENT.ROUND_END:
            events.append({"type": "round_end", "round": rnd, "winner": seat if seat >= 0 else None,
                           "why": ROUND_NAMES[a], "scored": b, "points": values})
    return events


def trace_unit(seed, unit, players, settings, fns, params, streams):
    """``(events, record)`` for one match: setup, every round's moves, the result."""
    words = FIRST_LOG
    while True:
        log, out = run_trace(trace_nb, (seed, unit, players, settings, fns, policy_kinds(fns, BUILT_IN, params), params,
                                       streams), words, RECORD_DTYPE)
        if log[0] + HEAD + MAX_EVENT_VALUES <= log.size:
            break
        if words >= MAX_LOG:
            raise UserError(f"match {unit} is too long to trace in full ({words:,} log words); "
                            f"trace it with a lower max_moves, max_turns or max_games")
        words *= 4
    rec = out[0]
    events = decode_log(log)
    first = events[0]
    setup = {"type": "setup", "first": int(rec["first"]), "payoffs": first["payoffs"], "hands": first["hands"]}
    aborted = bool(rec["aborted"])
    winner = None if aborted or rec["draw"] else (0 if rec["win"][0] > 0 else 1)
    events = [setup] + events
    events.append({"type": "result", "winner": winner, "points": [int(x) for x in rec["points"]],
                   "rounds_won": [int(x) for x in rec["rounds_won"]],
                   **result_seats(rec, PLAYERS),
                   "rounds": int(rec["rounds"]), "drawn_rounds": int(rec["drawn_rounds"]),
                   "turns": int(rec["turns"]), "moves": int(rec["length"]), "draw": bool(rec["draw"]),
                   "aborted": aborted})
    return events, out

