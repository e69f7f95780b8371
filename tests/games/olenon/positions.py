"""Build Olenon positions by hand and play them action by action.

    t = Table(["3 3", "3 4 4", "3 4", "4"], leader=0)
    t.play("3 3")                 # the scripted policy answers exactly this action
    t.play("pass")
    t.play()                      # a forced move (one legal action): the engine plays it itself

The table is the engine's own state arrays, stepped by ``rules.step_nb``. Only a
seat with two or more legal actions consults its policy, so a forced move needs
no script. After every step the kit's bookkeeping checks run
(kit.OlenonPosition.locations: hand sizes, the open hands of talk=open, the
table's value, the passes of a trick in progress), and the 32 cards are counted:
cards a position does not name are put in the set-aside (the first four) and
in the discards, so every position holds the whole deck. The log is on, so
``t.events()`` reads back what happened (trace.decode_log).

A hand is a string of values (``"3 3 4"``), a list of values, or a dict of
counts (``{3: 2, 4: 1}``). A card value written as an action is ``"v v"``: the
cards put down (a play, an addition or a replace, the table decides which), or
``"pass"``.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
from numba import njit, types

from analyser.games.olenon.constants import ACTION, COPIES, DECK, N_VALUES, PLAYERS, SET_ASIDE, SETTING, put
from analyser.games.olenon.kit import OlenonPosition
from analyser.games.olenon.rules import legal_mask_nb, step_nb
from analyser.games.olenon.state import (
    HIDDEN_T,
    POLICIES_T,
    POLICY_SIG,
    PRIVATE_T,
    PUBLIC_T,
    new_state_nb,
)
from analyser.games.olenon.trace import decode_log
from tests.games.table import StateTable, scripted_policy

STREAMS = np.arange(PLAYERS, dtype=np.int64)   # policy stream id per seat: the seat number
ROTATE, WINNER = 0, 1                          # round_starter
NONE_TALK, OPEN = 0, 1                         # talk


scripted = scripted_policy(POLICY_SIG)
SCRIPTED = (scripted,) * PLAYERS

POINTERS = np.zeros(PLAYERS, np.int64)       # every seat's policy through its pointer (dispatch.POINTER)

_STEP_SIG = types.boolean(types.int64, types.int64, types.int64[::1], types.int64[::1], POLICIES_T,
                          types.int64[::1], types.float64[:, ::1], PUBLIC_T[::1], PRIVATE_T[::1], HIDDEN_T[::1],
                          types.boolean[::1], types.int32[::1])


@njit(_STEP_SIG, cache=True)
def step(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """rules.step_nb compiled once for any tuple of policies."""
    return step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)


@njit(types.uint64(PUBLIC_T[::1], types.int8[::1]), cache=True)
def legal_mask(pub, hand):
    """rules.legal_mask_nb from Python."""
    return legal_mask_nb(pub[0], hand)


def mask_actions(m) -> list[int]:
    return [a for a in range(ACTION.COUNT) if int(m) >> a & 1]


def counts(hand) -> np.ndarray:
    """A hand (values as a string or a list, or a dict of counts) as seven counts."""
    out = np.zeros(N_VALUES, np.int8)
    if isinstance(hand, dict):
        for v, c in hand.items():
            out[v] = c
        return out
    if isinstance(hand, str):
        hand = [int(x) for x in hand.replace(",", " ").split()]
    for v in hand:
        out[v] += 1
    return out


def action(text) -> int:
    """``"3 3"`` -> put(3, 2); ``"pass"`` -> ACTION.PASS; an int is taken as it is."""
    if isinstance(text, (int, np.integer)):
        return int(text)
    if text == "pass":
        return ACTION.PASS
    cards = [int(x) for x in text.split()]
    assert cards and all(c == cards[0] for c in cards), f"not one value: {text}"
    return put(cards[0], len(cards))


def settings_row(round_starter=ROTATE, talk=NONE_TALK, rounds=2, max_actions=2000) -> np.ndarray:
    row = np.zeros(4, np.int64)
    row[SETTING.ROUND_STARTER], row[SETTING.TALK] = round_starter, talk
    row[SETTING.ROUNDS], row[SETTING.MAX_ACTIONS] = rounds, max_actions
    return row


class Table(StateTable):
    """A hand-built position, in the middle of a round.

    hands: one hand per seat (see the module's docstring). seat: the seat to act
    (default the leader). table: the cards on it, as a hand (``"5 5"``), all of
    one value. owner: who put them there (default the first seat before ``seat``
    that has not passed). passed: the card each seat took by passing this trick
    (None: it has not). talk, round_starter: 0/1 or their names. rounds: rounds
    to win the match; won: rounds won by team 0 and team 1; round_: this round's
    index; starter: this round's starter (default the leader). set_aside: the four
    cards set aside (default the first four cards no one else holds); every
    other card not named is in the discards.
    """

    def __init__(self, hands, leader=0, seat=None, table="", owner=None, passed=None, talk=NONE_TALK,
                 round_starter=ROTATE, rounds=2, won=(0, 0), round_=None, starter=None, trick=0,
                 set_aside=None, max_actions=2000, seed=1, unit=0):
        talk = {"none": 0, "open": 1}.get(talk, talk)
        round_starter = {"rotate": 0, "winner": 1}.get(round_starter, round_starter)
        assert len(hands) == PLAYERS
        self.seed, self.unit = seed, unit
        self.pub, self.priv, self.hid, self.legal = new_state_nb()
        self.log = np.zeros(1 << 16, np.int32)
        self.log[0] = 1
        self.settings = settings_row(round_starter, talk, rounds, max_actions)
        self.params = np.zeros((PLAYERS, 8))
        self.policies = SCRIPTED
        pb, hd = self.pub[0], self.hid[0]
        seat = leader if seat is None else seat
        passed = list(passed) if passed is not None else [None] * PLAYERS
        pb["round"] = sum(won) if round_ is None else round_
        pb["rounds"], pb["talk"], pb["round_starter"] = rounds, talk, round_starter
        pb["starter"] = leader if starter is None else starter
        pb["seat"], pb["leader"], pb["trick"] = seat, leader, trick
        on_table = counts(table)
        k = int(on_table.sum())
        assert k <= 4 and (on_table > 0).sum() <= 1, f"a table of one value, at most 4 cards: {table}"
        pb["table_len"] = k
        pb["table_value"] = int(np.argmax(on_table)) if k else -1
        if owner is None and k:
            owner = next(s for s in ((seat - i) % PLAYERS for i in range(1, PLAYERS)) if passed[s] is None)
        pb["owner"] = -1 if owner is None else owner
        for s in range(PLAYERS):
            pb["passed"][s] = -1 if passed[s] is None else passed[s]
        pb["team_rounds"][0], pb["team_rounds"][1] = won
        named = on_table.astype(np.int64)
        for s in range(PLAYERS):
            hand = counts(hands[s])
            self.priv[s]["hand"] = hand
            self.priv[s]["rng"][0] = 1 + s
            pb["hand_len"][s] = hand.sum()
            if talk:
                pb["open"][s] = hand
            named += hand
            if passed[s] is not None:
                named[passed[s]] += 1
        rest = np.array(COPIES, np.int64) - named
        assert (rest >= 0).all(), f"more cards of a value than the deck holds: {named.tolist()}"
        left = [v for v in range(N_VALUES) for _ in range(int(rest[v]))]
        aside = sorted(left[:SET_ASIDE]) if set_aside is None else list(set_aside)
        assert len(aside) == SET_ASIDE
        for c in aside:
            left.remove(c)
        hd["set_aside"] = aside
        pb["discarded"] = counts(left)
        hd["winner"] = -1
        hd["error_seat"] = -1
        hd["first"] = pb["starter"]
        hd["rounds_played"] = pb["round"]       # as end_round_nb leaves it after the rounds before this one
        self.check()

    # -- reading the table

    def hand(self, s) -> list[int]:
        h = self.priv[s]["hand"]
        return [v for v in range(N_VALUES) for _ in range(int(h[v]))]

    def hands(self) -> list[list[int]]:
        return [self.hand(s) for s in range(PLAYERS)]

    def table(self) -> list[int]:
        return [int(self.pb["table_value"])] * int(self.pb["table_len"])

    def passed(self) -> list[int | None]:
        return [int(c) if c >= 0 else None for c in self.pb["passed"]]

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, by the engine's own mask."""
        return mask_actions(legal_mask(self.pub, self.priv[self.seat]["hand"]))

    def events(self, kind=None) -> list[dict]:
        return [e for e in decode_log(self.log) if kind is None or e["type"] == kind]

    def moves(self) -> list[tuple]:
        """The plays, replaces and passes so far, as (seat, kind, cards or card)."""
        out = []
        for e in self.events():
            if e["type"] in ("play", "replace"):
                out.append((e["seat"], e["type"], e["cards"]))
            elif e["type"] == "pass":
                out.append((e["seat"], "pass", e["card"]))
        return out

    def check(self) -> dict:
        """The kit's bookkeeping checks (they assert) and the 32 cards; returns the locations."""
        places = OlenonPosition(self.pub, self.priv, self.hid, self.settings).locations()
        held = Counter(c for cards in places.values() for c in cards)
        assert held == Counter(int(c) for c in DECK), f"cards not conserved: {dict(held)}"
        return places

    # -- acting

    def play(self, move=None, raw: int | None = None) -> bool:
        """One step: the seat to act answers ``move`` (``"3 3"``, ``"pass"``) or the
        action ``raw``; with neither, a forced move. Returns True when the match is over."""
        a = raw if raw is not None else (action(move) if move is not None else -1)
        legal = self.legal_actions()
        if move is not None and len(legal) == 1:
            assert legal == [a], f"seat {self.seat} has one legal action, {legal}, not {a}"
        if move is None and raw is None:
            assert len(legal) == 1, f"seat {self.seat} has a choice: {legal}"
        self.params[self.seat, 0] = a
        over = step(self.seed, self.unit, self.settings, STREAMS, self.policies, POINTERS, self.params, self.pub,
                    self.priv, self.hid, self.legal, self.log)
        if not self.hd["error"]:
            self.check()
        return over
