"""Build Spite & Malice positions by hand and play them decision by decision.

    t = Table(payoffs=["9 5", "Q"], hands=["4 K 7", "2 2 3 5 6"], builds=["A 2 3", ""])
    t.play("4>b0")        # the scripted policy answers exactly this action
    t.play("P>b0")        # the payoff top onto build pile 0
    t.play("K>s1")        # a hand card onto side pile 1: the turn ends

Cards are written ``A 2 .. 10 J Q K``; piles bottom first (a payoff pile's top
is its last card; ``stock`` lists the cards in the order they will be drawn).
Actions: ``P>b1`` the payoff top, ``S2>b0`` the top of side pile 2, ``7>b1``
a hand card onto a build pile, ``7>s3`` a discard, ``stop``.

The table is the engine's own state arrays, stepped by ``rules.step_nb``.
A position need not hold all 104 cards: after every step the kit's
bookkeeping checks run (kit.SpitePosition.locations) and the cards are counted
against those the table started with. The log is on, so ``t.events()`` reads
back what happened (trace.decode_log).
"""
from __future__ import annotations

from collections import Counter

import numpy as np
from numba import njit, types

from analyser.games.spite_and_malice.constants import (
    ACTION,
    CARD_NAMES,
    COPIES,
    DECK,
    PLAYERS,
    SETTING,
    SRC_HAND,
    SRC_SIDE,
    build,
    discard,
)
from analyser.games.spite_and_malice.kit import SpitePosition, legal_actions
from analyser.games.spite_and_malice.rules import legal_action_nb, legal_nb, step_nb, tops_build_nb
from analyser.games.spite_and_malice.state import (
    HIDDEN_T,
    POLICIES_T,
    POLICY_SIG,
    PRIVATE_T,
    PUBLIC_T,
    new_state_nb,
)
from analyser.games.spite_and_malice.trace import decode_log
from tests.games.table import StateTable, scripted_policy

STREAMS = np.arange(PLAYERS, dtype=np.int64)


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


@njit(types.int64(PUBLIC_T[::1], types.int8[::1], types.int64, types.boolean[::1]), cache=True)
def engine_legal(pub, hand, seat, legal):
    """rules.legal_nb from Python."""
    return legal_nb(pub[0], hand, seat, legal)


@njit(types.boolean[::1](PUBLIC_T[::1], types.int8[::1], types.int64), cache=True)
def engine_legal_one_by_one(pub, hand, seat):
    """rules.legal_action_nb for every action, from Python (what dispatch.py's policies are checked by)."""
    out = np.zeros(ACTION.COUNT, np.bool_)
    for a in range(ACTION.COUNT):
        out[a] = legal_action_nb(pub[0], hand, seat, a)
    return out


@njit(types.boolean(PUBLIC_T[::1], types.int64), cache=True)
def engine_tops_build(pub, seat):
    """rules.tops_build_nb from Python."""
    return tops_build_nb(pub[0], seat)


def card(text) -> int:
    return CARD_NAMES.index(str(text).upper()) if not isinstance(text, (int, np.integer)) else int(text)


def cards(text) -> list[int]:
    """``"A 5 K"`` (or a list) -> [1, 5, 13]."""
    if isinstance(text, str):
        return [card(c) for c in text.replace(",", " ").split()]
    return [card(c) for c in text]


def action(text) -> int:
    """``"P>b1"``, ``"S2>b0"``, ``"7>b1"``, ``"7>s3"``, ``"stop"`` -> the action; an int as it is."""
    if isinstance(text, (int, np.integer)):
        return int(text)
    if text == "stop":
        return ACTION.STOP
    what, where = text.split(">")
    if where[0] == "s":
        return discard(card(what), int(where[1:]))
    pile = int(where[1:])
    if what == "P":
        return build(0, pile)
    if what[0] == "S" and len(what) == 2:
        return build(SRC_SIDE + int(what[1]), pile)
    return build(SRC_HAND + card(what), pile)


def settings_row(payoff_size=20, centre_piles=3, refill_empty_hand=0, stock_out=0, target=50, rounds=0,
                 max_turns=2000, max_moves=20000, max_games=200) -> np.ndarray:
    row = np.zeros(len(SETTING), np.int64)
    row[SETTING.PAYOFF_SIZE], row[SETTING.CENTRE_PILES] = payoff_size, centre_piles
    row[SETTING.REFILL_EMPTY_HAND], row[SETTING.STOCK_OUT] = refill_empty_hand, stock_out
    row[SETTING.TARGET], row[SETTING.ROUNDS] = target, rounds
    row[SETTING.MAX_TURNS], row[SETTING.MAX_MOVES], row[SETTING.MAX_GAMES] = max_turns, max_moves, max_games
    return row


class Table(StateTable):
    """A hand-built position in the middle of a round, seat ``seat`` to act.

    payoffs, hands: one per seat; sides: per seat a list of up to 4 piles (a
    string each, bottom first); builds: up to 4 piles (each ``A 2 K`` as played:
    a King stands for the value it completed); stock: the cards in the order
    they are drawn (default: every card not named elsewhere, in no particular
    order). Settings by name as in settings_row (refill and stock_out accept
    ``on``/``at_once``); points: the match's points so far; turn: the turn's
    number in the round; round_, starter; moves: the round's moves so far.
    """

    def __init__(self, payoffs, hands, sides=None, builds=(), stock=None, seat=0, points=(0, 0), turn=1,
                 round_=0, starter=None, moves=0, seed=1, unit=0, **settings):
        settings = {k: {"on": 1, "off": 0, "on_draw": 0, "at_once": 1}.get(v, v) for k, v in settings.items()}
        self.seed, self.unit = seed, unit
        self.pub, self.priv, self.hid, self.legal = new_state_nb()
        self.log = np.zeros(1 << 16, np.int32)
        self.log[0] = 1
        self.settings = settings_row(**settings)
        self.params = np.zeros((PLAYERS, 8))
        self.policies = SCRIPTED
        pb, hd = self.pub[0], self.hid[0]
        pb["centre"] = self.settings[SETTING.CENTRE_PILES]
        pb["refill"] = self.settings[SETTING.REFILL_EMPTY_HAND]
        pb["stock_out"] = self.settings[SETTING.STOCK_OUT]
        pb["target"] = self.settings[SETTING.TARGET]
        pb["round"], pb["turn"], pb["seat"] = round_, turn, seat
        pb["starter"] = seat if starter is None else starter
        pb["points"] = points
        hd["winner"] = -1
        hd["first"] = pb["starter"]
        hd["rounds_played"] = round_
        hd["round_moves"] = moves
        named = Counter()
        for s in range(PLAYERS):
            pile = cards(payoffs[s])
            assert pile, "a payoff pile in play is never empty"
            hd["payoff"][s, : len(pile)] = pile
            pb["payoff_len"][s] = len(pile)
            pb["payoff_top"][s] = pile[-1]
            hand = cards(hands[s])
            assert len(hand) <= 5
            for c in hand:
                self.priv[s]["hand"][c] += 1
            pb["hand_len"][s] = len(hand)
            self.priv[s]["rng"][0] = 1 + s
            named.update(pile + hand)
            for i, text in enumerate((sides or [[], []])[s]):
                side = cards(text)
                pb["side"][s, i, : len(side)] = side
                pb["side_len"][s, i] = len(side)
                named.update(side)
        for b, text in enumerate(builds):
            pile = cards(text)
            assert all(c in (k + 1, 13) for k, c in enumerate(pile)) and len(pile) < 12, f"not a build pile: {text}"
            pb["build"][b, : len(pile)] = pile
            pb["build_len"][b] = len(pile)
            named.update(pile)
        if stock is None:
            rest = Counter({v: COPIES for v in range(1, 14)}) - named
            stock = sorted(rest.elements())
        else:
            stock = cards(stock)
        named.update(stock)
        assert all(n <= COPIES for n in named.values()), f"more than {COPIES} cards of a value: {named}"
        hd["stock"][: len(stock)] = stock[::-1]        # drawn from the end
        pb["stock_len"] = len(stock)
        self.cards = named
        self.check()

    # -- reading the table

    def hand(self, s) -> list[int]:
        h = self.priv[s]["hand"]
        return [v for v in range(1, 14) for _ in range(int(h[v]))]

    def build(self, b) -> list[int]:
        return [int(c) for c in self.pb["build"][b, : int(self.pb["build_len"][b])]]

    def side(self, s, i) -> list[int]:
        return [int(c) for c in self.pb["side"][s, i, : int(self.pb["side_len"][s, i])]]

    def stock(self) -> list[int]:
        """The stock in draw order."""
        return [int(c) for c in self.hd["stock"][: int(self.pb["stock_len"])]][::-1]

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, by the engine's own legal_nb
        (and the kit's independent reading agrees)."""
        legal = np.zeros(self.legal.size, np.bool_)
        n = engine_legal(self.pub, self.priv[self.seat]["hand"], self.seat, legal)
        found = [int(a) for a in np.flatnonzero(legal)]
        assert n == len(found) == len(set(found))
        assert found == legal_actions(self.pb, self.priv[self.seat]["hand"], self.seat)
        return found

    def events(self, kind=None) -> list[dict]:
        return [e for e in decode_log(self.log) if kind is None or e["type"] == kind]

    def check(self) -> dict:
        """The kit's bookkeeping checks (they assert) and the card count; returns the locations."""
        places = SpitePosition(self.pub, self.priv, self.hid, self.settings).locations()
        held = Counter(c for cs in places.values() for c in cs)
        assert held == self.cards, f"cards not conserved: {held - self.cards} extra, {self.cards - held} missing"
        return places

    # -- acting

    def play(self, move=None, raw: int | None = None) -> bool:
        """One decision: the seat to act answers ``move`` or the action ``raw``.
        Returns True when the match is over."""
        a = raw if raw is not None else action(move)
        if raw is None:
            assert a in self.legal_actions(), f"{move} is not legal for seat {self.seat}"
        self.params[self.seat, 0] = a
        before = int(self.pb["round"])
        over = step(self.seed, self.unit, self.settings, STREAMS, self.policies, POINTERS, self.params, self.pub,
                    self.priv, self.hid, self.legal, self.log)
        if int(self.pb["round"]) != before:         # a new round is dealt from the whole deck
            self.cards = Counter(int(c) for c in DECK)
        if not self.hd["error"]:
            self.check()
        return over
