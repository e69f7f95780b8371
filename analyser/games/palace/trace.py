"""One Palace deal, move by move: the event list behind ``analyser trace``.

The deal is played by the same ``rules.play_unit_nb`` as in simulation, with a log
buffer switched on, so the trace of deal I with seed S is the game that
simulate played as deal I with seed S.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from analyser.games.common import run_trace
from analyser.games.dispatch import policy_kinds
from analyser.games.palace.constants import EVENT, MAX_PLAYERS, SETTING, SOURCE_NAMES
from analyser.games.palace.dispatch import BUILT_IN
from analyser.games.palace.engine import RECORD_T, record_nb
from analyser.games.palace.records import RECORD_DTYPE
from analyser.games.palace.rules import deal_nb, play_unit_nb
from analyser.games.palace.state import POLICIES_T, new_state_nb
from analyser.kernels.cards import card_names
from analyser.kernels.eventlog import read_events
from analyser.kernels.signatures import trace_signature

TRACE_SIG = trace_signature(POLICIES_T, RECORD_T, types.int64[::1])


@njit(TRACE_SIG, cache=True)   # allocates the state, with an explicit signature: no kernel
def trace_nb(seed, deal, players, settings, policies, kinds, params, streams, log, out):
    pub, priv, hid, legal = new_state_nb()
    play_unit_nb(seed, deal, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)
    record_nb(out[0], deal, pub, hid)


def setup_event(seed: int, deal: int, players: int, settings: np.ndarray) -> dict:
    """The deal before any swap, as the trace's first line shows it."""
    pub, priv, hid, _ = new_state_nb()
    deal_nb(seed, deal, players, settings, np.arange(MAX_PLAYERS, dtype=np.int64), pub, priv, hid)
    pb, hd = pub[0], hid[0]
    n = int(pb["n"])
    return {
        "hands": [card_names(np.flatnonzero(priv[s]["has"])) for s in range(players)],
        "face_up": [card_names(pb["face_up"][s, :n]) for s in range(players)],
        "face_down": [card_names(hd["face_down"][s, :n]) for s in range(players)],
        "draw_pile": card_names(hd["draw"][: pb["draw_len"]][::-1]),
    }


def decode_log(log: np.ndarray) -> list[dict]:
    events = []
    for etype, _, seat, aux, _, values in read_events(log):
        cards = card_names(values)
        if etype == EVENT.SWAP:
            events.append({"type": "swap", "seat": seat, "hand": cards[:aux], "face_up": cards[aux:]})
        elif etype == EVENT.PLAY:
            events.append({"type": "play", "seat": seat, "source": SOURCE_NAMES[aux], "cards": cards})
        elif etype == EVENT.PICKUP:
            event = {"type": "pickup", "seat": seat, "voluntary": aux == 1, "cards": cards}
            if aux == 2:
                event["face_down"] = cards[0]
            events.append(event)
        elif etype == EVENT.DRAW:
            events.append({"type": "draw", "seat": seat, "cards": cards})
        elif etype == EVENT.BURN:
            events.append({"type": "burn", "seat": seat})
        elif etype == EVENT.OUT:
            events.append({"type": "out", "seat": seat, "place": aux})
    return events


def trace_unit(seed, deal, players, settings, fns, params, streams):
    """``(events, record)`` for one deal: setup, swaps, moves and the result."""
    max_actions = int(settings[SETTING.MAX_ACTIONS])
    # every card picked up was played first, so 64 entries an action are plenty
    kinds = policy_kinds(fns, BUILT_IN, params)
    log, out = run_trace(trace_nb, (seed, deal, players, settings, fns, kinds, params, streams),
                         MAX_PLAYERS * 1024 + 64 * max_actions, RECORD_DTYPE)
    rec = out[0]
    events = [{"type": "setup", **setup_event(seed, deal, players, settings)}]
    events += decode_log(log)
    events.append({"type": "result", "places": [int(x) for x in rec["rank"][:players]],
                   "loser": int(rec["loser"]), "aborted": bool(rec["aborted"]), "actions": int(rec["length"])})
    return events, out
