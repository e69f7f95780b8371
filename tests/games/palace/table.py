"""Build Palace positions by hand and play them action by action.

    t = Table(hands=["3C 4D", "5H 5S"], face_up=["KC", "AD"], pile="9C", seat=0)
    t.play(PLAY("4", 1))          # the scripted policy plays exactly this action

Only seats with a choice consult the policy, so a forced move needs no action.
"""
from __future__ import annotations

import numpy as np

from analyser.games.palace import stepwise
from analyser.games.palace.constants import ACTION, MAX_PLAYERS, MAX_SLOTS, PHASE
from analyser.games.palace.rules import add_to_hand_nb, fill_play_legal_nb
from analyser.games.palace.state import PLAY_WORDS, POLICY_SIG, new_state_nb
from analyser.kernels.cards import card_name, parse_card, rank_value
from tests.games.table import StateTable, scripted_policy

STREAMS = np.arange(MAX_PLAYERS, dtype=np.int64)   # the streams a step is handed (a Palace step reads none)

scripted = scripted_policy(POLICY_SIG)


def give_hand(pb, pv, seat, hand) -> None:
    """Give a seat exactly these cards, through the engine's own add_to_hand_nb."""
    for name in ("plays", "has", "counts"):
        pv[name][:] = 0
    pb["hand_len"][seat] = 0
    for card in hand:
        add_to_hand_nb(pb, pv, seat, card)


def legal_actions(pb, pv, seat, legal):
    """fill_play_legal_nb from Python: (how many, the action when there is one).
    The word view is state.legal_words_nb's, made here because a kernel (no
    reference counting) cannot hand a new view back to Python."""
    return fill_play_legal_nb(pb, pv, seat, legal, legal[: 8 * PLAY_WORDS].view(np.uint64))


def PLAY(rank: str, k: int = 1) -> int:
    return rank_value(rank) * 4 + k - 1


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


class Table(StateTable):
    def __init__(self, hands, face_up=None, face_down=None, pile="", draw="", seat=0, n=3,
                 ten_on_anything=False, max_actions=5000, gone=""):
        players = len(hands)
        self.settings = np.array([0, int(ten_on_anything), max_actions], np.int64)
        self.pub, self.priv, self.hid, self.legal = new_state_nb()
        self.log = np.zeros(0, np.int32)
        pb, hd = self.pub[0], self.hid[0]
        pb["players"], pb["n"], pb["seat"], pb["phase"] = players, n, seat, PHASE.PLAY
        pb["ten_on_anything"] = ten_on_anything
        pb["face_up"][:] = -1
        hd["face_down"][:] = -1
        face_up = face_up or [""] * players
        face_down = face_down or [""] * players
        for s in range(players):
            give_hand(pb, self.priv[s], s, cards(hands[s]))
            up = cards(face_up[s])
            pb["face_up"][s, : len(up)] = up
            pb["face_up_len"][s] = len(up)
            down = cards(face_down[s])
            hd["face_down"][s, : len(down)] = down
            pb["face_down_len"][s] = len(down)
        pb["top_rank"] = -1
        for c in cards(pile):
            if pb["pile_len"] and pb["top_rank"] == c >> 2:
                pb["top_run"] += 1
            else:
                pb["top_rank"], pb["top_run"] = c >> 2, 1
            pb["pile"][pb["pile_len"]] = c
            pb["pile_len"] += 1
        draw_cards = cards(draw)               # written top first
        hd["draw"][: len(draw_cards)] = draw_cards[::-1]
        pb["draw_len"] = len(draw_cards)
        for c in cards(gone):
            pb["gone"][c >> 2] += 1
        self.players = players

    # -- reading the position ------------------------------------------------
    def hand(self, s: int) -> list[str]:
        return [card_name(c) for c in np.flatnonzero(self.priv[s]["has"])]

    def face_up(self, s: int) -> list[str]:
        return [card_name(c) for c in self.pb["face_up"][s] if c >= 0]

    def face_down(self, s: int) -> list[str]:
        return [card_name(c) for c in self.hid[0]["face_down"][s, : self.pb["face_down_len"][s]]]

    def pile(self) -> list[str]:
        return [card_name(c) for c in self.pb["pile"][: self.pb["pile_len"]]]

    def draw_pile(self) -> list[str]:
        return [card_name(c) for c in self.hid[0]["draw"][: self.pb["draw_len"]][::-1]]

    def legal_actions(self) -> list[int]:
        legal_actions(self.pb, self.priv[self.seat], self.seat, self.legal)
        return [int(a) for a in np.flatnonzero(self.legal)]

    def counter(self, name: str, s: int) -> int:
        return int(self.hid[0][name][s])

    # -- moving --------------------------------------------------------------
    def play(self, action: int | None = None) -> bool:
        """One step; ``action`` is what the seat's policy answers if it is asked."""
        params = np.zeros((MAX_PLAYERS, 8))
        params[:, 0] = -1 if action is None else action
        pointers = np.zeros(MAX_PLAYERS, np.int64)     # every seat through its pointer (dispatch.POINTER)
        over = stepwise.step(0, 0, self.settings, STREAMS, (scripted,) * MAX_PLAYERS, pointers, params, self.pub,
                             self.priv, self.hid, self.legal, self.log)
        assert self.hid[0]["error"] == 0, "the scripted action was illegal"
        return bool(over)


def FACE_DOWN(slot: int = 0) -> int:
    return ACTION.FACE_DOWN + slot


PICKUP = ACTION.PICKUP
SLOTS = MAX_SLOTS
