"""One Olenon match, move by move: the event list behind ``analyser trace``.

The match is played by the same ``play_unit_nb`` as in simulation, with a log
buffer switched on, so the trace of match I with seed S is the match that
simulate played as match I with seed S. Every event inside the match carries
its ``round``; the setup and the result belong to the whole match. Cards are
their values, 0..6.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from analyser.errors import UserError
from analyser.games.common import result_seats, run_trace
from analyser.games.dispatch import policy_kinds
from analyser.games.olenon.constants import EVENT, HAND, MAX_ROUNDS, PLAYERS, REASON_NAMES, SETTING
from analyser.games.olenon.dispatch import BUILT_IN
from analyser.games.olenon.engine import RECORD_T, record_nb
from analyser.games.olenon.records import RECORD_DTYPE
from analyser.games.olenon.rules import play_unit_nb
from analyser.games.olenon.state import POLICIES_T, new_state_nb
from analyser.kernels.eventlog import HEAD, MAX_EVENT_VALUES, read_events
from analyser.kernels.signatures import trace_signature

TRACE_SIG = trace_signature(POLICIES_T, RECORD_T, types.int64[::1])
MAX_LOG = 1 << 23         # words (32 MB): a trace of a match capped at a million actions a round stops here
LOG_PER_ACTION = 12      # the most words an action's events take (a replace, or a pass ending the trick)


@njit(TRACE_SIG, cache=True)
def trace_nb(seed, unit, players, settings, policies, kinds, params, streams, log, out):
    pub, priv, hid, legal = new_state_nb()
    play_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
    record_nb(out[0], unit, pub, hid)


def _deal(rnd: int, starter: int, cards: list[int]) -> dict:
    hands = [sorted(cards[s * HAND: (s + 1) * HAND]) for s in range(PLAYERS)]
    return {"type": "deal", "round": rnd, "starter": starter, "hands": hands,
            "set_aside": sorted(cards[PLAYERS * HAND:])}


def decode_log(log: np.ndarray) -> list[dict]:
    """The log's events as dicts (the jsonl trace's lines)."""
    events = []
    for etype, rnd, seat, a, b, values in read_events(log):
        if etype == EVENT.DEAL:
            events.append(_deal(rnd, seat, values))
        elif etype == EVENT.PLAY:
            events.append({"type": "play", "round": rnd, "seat": seat, "cards": [a] * b})
        elif etype == EVENT.REPLACE:
            events.append({"type": "replace", "round": rnd, "seat": seat, "cards": [a] * b,
                           "discarded": [values[0]] * b})
        elif etype == EVENT.PASS:
            events.append({"type": "pass", "round": rnd, "seat": seat, "card": a})
        elif etype == EVENT.TRICK_END:
            events.append({"type": "trick_end", "round": rnd, "reason": REASON_NAMES[a],
                           "returned": [v if v >= 0 else None for v in values], "next": seat})
        elif etype == EVENT.ROUND_END:
            events.append({"type": "round_end", "round": rnd, "winner_team": a, "seat": seat})
    return events


def trace_unit(seed, unit, players, settings, fns, params, streams):
    """``(events, record)`` for one match: setup, every round's moves, the result."""
    rounds = min(int(settings[SETTING.ROUNDS]) * 2 - 1, MAX_ROUNDS)
    words = 256 + rounds * LOG_PER_ACTION * (int(settings[SETTING.MAX_ACTIONS]) + 8)
    args = (seed, unit, players, settings, fns, policy_kinds(fns, BUILT_IN, params), params, streams)
    log, out = run_trace(trace_nb, args, min(words, MAX_LOG), RECORD_DTYPE)
    rec = out[0]
    if log[0] + HEAD + MAX_EVENT_VALUES > log.size:
        raise UserError(f"match {unit} is too long to trace in full ({log.size:,} log words); "
                        f"trace it with a lower max_actions")
    events = decode_log(log)
    first = events[0]
    setup = {"type": "setup", "first": int(rec["first"]), "starter": first["starter"], "hands": first["hands"],
             "set_aside": first["set_aside"]}
    won = [int(rec["rounds_won"][0]), int(rec["rounds_won"][1])]
    winner = None if rec["aborted"] else (0 if rec["win"][0] > 0 else 1)
    events = [setup] + events
    events.append({"type": "result", "winner_team": winner, "rounds_won": won,
                   **result_seats(rec, PLAYERS),
                   "rounds": int(rec["rounds"]), "aborted": bool(rec["aborted"]), "actions": int(rec["length"])})
    return events, out
