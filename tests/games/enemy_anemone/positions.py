"""Build Enemy Anemone positions by hand and play them action by action.

    t = Table(["A5 B2", "B7 C2", "C9 D4"], leader=1, ones=[0, 1, 0])
    t.play("B7", ones=1)          # the scripted policy answers exactly this action

The table is the engine's own state arrays, stepped by ``rules.step_nb``. Only a
seat with a real choice consults its policy (the engine plays a forced card
itself), so a forced move needs no script: ``t.play()`` steps it. After every
step the kit's bookkeeping checks run (kit.AnemonePosition.locations: hand
sizes, discard counts, won points, the played mask, all nine tokens somewhere).
The log is on, so ``t.events()`` reads back what happened (trace.decode_log).
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from analyser.games.enemy_anemone.constants import (
    ACTION,
    MAX_PLAYERS,
    N_CARDS,
    N_TOKENS,
    POINTS,
    REASON,
    card_name,
    card_of,
)
from analyser.games.enemy_anemone.kit import AnemonePosition
from analyser.games.enemy_anemone.rules import end_hand_nb, give_token_nb, prepare_turn_nb, step_nb
from analyser.games.enemy_anemone.state import (
    HIDDEN_T,
    POLICIES_T,
    POLICY_SIG,
    PRIVATE_T,
    PUBLIC_T,
    new_state_nb,
)
from analyser.games.enemy_anemone.trace import decode_log
from analyser.kernels.bits import BIT, NONE
from tests.games.table import StateTable, scripted_policy

STREAMS = np.arange(MAX_PLAYERS, dtype=np.int64)   # policy stream id per seat: the seat number
NO_LOG = np.zeros(0, np.int32)


scripted = scripted_policy(POLICY_SIG)
SCRIPTED = (scripted,) * MAX_PLAYERS
POINTERS = np.zeros(MAX_PLAYERS, np.int64)       # every seat's policy through its pointer (dispatch.POINTER)

_STEP_SIG = types.boolean(types.int64, types.int64, types.int64[::1], types.int64[::1], POLICIES_T,
                          types.int64[::1], types.float64[:, ::1], PUBLIC_T[::1], PRIVATE_T[::1], HIDDEN_T[::1],
                          types.boolean[::1], types.int32[::1])


@njit(_STEP_SIG, cache=True)
def step(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """rules.step_nb compiled once for any tuple of policies."""
    return step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)


def mask(cards) -> np.uint64:
    return np.uint64(sum(int(BIT[c]) for c in cards))


def names(m) -> list[str]:
    """A card mask as names, lowest card first."""
    return [card_name(c) for c in range(N_CARDS) if int(m) >> c & 1]


def ids(text: str) -> list[int]:
    return [card_of(c) for c in text.split()]


def action(card: str, ones: int = 0, twos: int = 0) -> int:
    return card_of(card) + ACTION.ONE * ones + ACTION.TWO * twos


def tokens(pb, seat) -> list[int]:
    """A seat's tokens as the sides they show, +2s first: [2, 1] is a +2 and a +1."""
    return [2] * int(pb["twos"][seat]) + [1] * int(pb["ones"][seat])


class Table(StateTable):
    """A hand-built position.

    hands: one string of card names per seat (its length is the player count).
    ones, twos: tokens each seat holds showing +1 / +2. supply: tokens in the
    supply (default: the nine less those held and ``removed``); with a supply
    given, ``removed`` defaults to what keeps nine tokens in all.
    trick: this trick's index in the hand; tricks: tricks in a hand (default
    the game's); hand, hands: this hand's index and the match's hands (default
    this one is the last, so the match ends with it). won, discarded: one
    string per seat of its score pile's won cards and face-down discards so far.
    draw: the 2-player draw pile, top first. totals: match totals before this
    hand. The seat to act is the leader, at turn 0 of the trick.
    """

    def __init__(self, hands, leader=0, starter=None, ones=None, twos=None, supply=None, removed=None, trick=0,
                 tricks=None, hand=0, hands_=None, won=None, discarded=None, draw="", totals=None,
                 spent_tokens=0, next_leader=0, catchup=0, max_actions=2000):
        players = len(hands)
        self.players = players
        self.pub, self.priv, self.hid, self.legal = new_state_nb()
        self.log = np.zeros(1 << 15, np.int32)
        self.log[0] = 1
        hands_ = hand + 1 if hands_ is None else hands_
        self.settings = np.array([spent_tokens, next_leader, catchup, hands_, max_actions], np.int64)
        self.params = np.zeros((MAX_PLAYERS, 8))
        self.policies = SCRIPTED
        pb, hd = self.pub[0], self.hid[0]
        pb["players"] = players
        pb["hand"], pb["hands"] = hand, hands_
        pb["spent_tokens"], pb["next_leader"], pb["catchup"] = spent_tokens, next_leader, catchup
        pb["turns"] = 4 if players == 2 else players
        pb["tricks"] = tricks if tricks is not None else (10 if 3 <= players <= 5 else 8)
        pb["trick"] = trick
        pb["leader"] = leader
        pb["starter"] = leader if starter is None else starter
        hd["error_seat"] = -1
        ones = ones or [0] * players
        twos = twos or [0] * players
        held = sum(ones) + sum(twos)
        if supply is None:
            removed = removed or 0
            supply = N_TOKENS - held - removed
        elif removed is None:
            removed = N_TOKENS - held - supply
        assert supply >= 0 and removed >= 0 and supply + removed + held == N_TOKENS, "not nine tokens"
        pb["supply"], pb["removed"] = supply, removed
        played = 0
        for s in range(players):
            pb["ones"][s], pb["twos"][s] = ones[s], twos[s]
            cards = ids(hands[s])
            self.priv[s]["hand"] = mask(cards)
            pb["hand_len"][s] = len(cards)
            self.priv[s]["rng"][0] = 1 + s
            if won is not None:
                w = ids(won[s])
                pb["won"][s] = mask(w)
                pb["won_points"][s] = sum(int(POINTS[c]) for c in w)
                played |= int(mask(w))
            if discarded is not None:
                d = ids(discarded[s])
                self.priv[s]["discarded"] = mask(d)
                pb["discards"][s] = len(d)
            if totals is not None:
                pb["totals"][s] = totals[s]
        pb["played"] = np.uint64(played)
        pile = ids(draw)
        pb["draw_len"] = len(pile)
        for i, c in enumerate(pile):                  # the top is at draw_len - 1
            hd["draw"][len(pile) - 1 - i] = c
        pb["best"], pb["low"] = -1, -1
        pb["trick_mask"] = NONE
        prepare_turn_nb(pb, self.priv)
        self.check()

    # -- reading the table

    def legal_cards(self) -> list[str]:
        return names(self.priv[self.seat]["legal"])

    def hand(self, s) -> list[str]:
        return names(self.priv[s]["hand"])

    def won(self, s) -> list[str]:
        return names(self.pb["won"][s])

    def discarded(self, s) -> list[str]:
        return names(self.priv[s]["discarded"])

    def tokens(self, s) -> list[int]:
        return tokens(self.pb, s)

    def all_tokens(self) -> list[list[int]]:
        return [tokens(self.pb, s) for s in range(self.players)]

    def trick(self) -> list[tuple[str, int, int]]:
        """This trick's played cards: (name, seat, value) in play order."""
        pb = self.pb
        return [(card_name(int(pb["trick_card"][i])), int(pb["trick_seat"][i]), int(pb["trick_value"][i]))
                for i in range(pb["trick_len"])]

    def events(self, kind=None) -> list[dict]:
        ev = decode_log(self.log, self.players)
        return [e for e in ev if kind is None or e["type"] == kind]

    def scores(self, h=None) -> list[int]:
        h = int(self.pb["hand"]) - 1 if h is None else h
        return [int(self.pb["hand_score"][s, h]) for s in range(self.players)]

    def check(self) -> dict:
        """The kit's bookkeeping checks (they assert); returns the card locations."""
        return AnemonePosition(self.pub, self.priv, self.hid, self.settings).locations()

    # -- acting

    def play(self, card: str | None = None, ones: int = 0, twos: int = 0, raw: int | None = None) -> bool:
        """One step: the seat to act answers ``card`` with the tokens attached (or
        the action ``raw``); with neither, a forced move. Returns True when over."""
        a = raw if raw is not None else (action(card, ones, twos) if card is not None else -1)
        self.params[self.seat, 0] = a
        over = step(1, 0, self.settings, STREAMS, self.policies, POINTERS, self.params, self.pub, self.priv, self.hid,
                    self.legal, self.log)
        if not self.hd["error"]:
            self.check()
        return over


    def give_token(self, seat: int, plus_two: bool = False, reason: int = REASON.LOWEST) -> None:
        give_token_nb(self.pb, self.hd, seat, plus_two, reason, self.log)
        self.check()

    def end_hand(self) -> None:
        end_hand_nb(self.pb, self.priv, self.hd, self.log)
        self.check()
