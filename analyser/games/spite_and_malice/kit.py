"""Spite & Malice's hooks for the shared test kit (see analyser.games.kit).

A position is the three state records. Its locations: each payoff pile's
face-up top and face-down rest, each hand, each side pile, each build pile and
the stock (in order); ``locations`` also checks what the rules keep beside the
cards (pile and hand sizes, the payoff tops, empty slots zero). ``play`` steps
the match in one compiled call that keeps a copy of the records after every
decision. ``legal_actions`` is an independent reading of the rule book's legal
moves, for the tests.

Rollouts (RolloutKit): an action in a player's words; a new round and a completed build pile
(its twelve cards shuffled into the stock with the whole stock) are shuffles; the play shows
nothing beyond where the cards went, so ``consistent`` is None: no move is ever forced (a seat
may build or not, from any source, in any order), a discard is legal with any hand card onto any
own side pile, a stop only with an empty hand, and a turn ends by itself only on an empty hand
with no payoff or side top that fits, all of which the public record tells; so the only thing a
move says of a hand is the card it plays from it, which is then public. rollout.play_worlds_nb
plays the worlds.
"""
from __future__ import annotations

import numpy as np

from analyser.games.kit import ABORTED, DRAWN, RecordsKit, RecordsPosition, ended_by_cap
from analyser.games.spite_and_malice.constants import (
    ACTION,
    DECK,
    DST_SIDE,
    HAND,
    KING,
    LEGAL_SIZE,
    N_VALUES,
    PLAYERS,
    SIDE_END,
    SIDES,
    SRC_HAND,
    SRC_PAYOFF,
    SRC_SIDE,
    build,
    card_name,
    discard,
)


def spread(counts) -> list[int]:
    """Counts by value -> the cards, lowest first."""
    return [v for v in range(1, N_VALUES + 1) for _ in range(int(counts[v]))]


def side_pile(pb, seat, i) -> list[int]:
    return [int(c) for c in pb["side"][seat, i, : int(pb["side_len"][seat, i])]]


def legal_actions(pb, hand, seat) -> list[int]:
    """The legal actions, from the rule book's words: a card onto a build pile
    showing v when it is v + 1 or a King (the payoff top, a side top, a hand
    card); a hand card onto an own side pile; stop only with an empty hand."""
    out = set()
    tops = [(0, int(pb["payoff_top"][seat]))]
    tops += [(1 + i, side_pile(pb, seat, i)[-1]) for i in range(SIDES) if pb["side_len"][seat, i]]
    tops += [(4 + v, v) for v in range(1, N_VALUES + 1) if hand[v] > 0]
    for b in range(int(pb["centre"])):
        showing = int(pb["build_len"][b])
        out |= {build(src, b) for src, card in tops if card in (showing + 1, KING)}
    out |= {discard(v, i) for v in range(1, N_VALUES + 1) if hand[v] > 0 for i in range(SIDES)}
    if sum(int(c) for c in hand) == 0:
        out.add(ACTION.STOP)
    return sorted(out)


class SpitePosition(RecordsPosition):
    def locations(self) -> dict[str, list[int]]:
        pb, hd = self.pub[0], self.hid[0]
        out = {"stock": [int(c) for c in hd["stock"][: int(pb["stock_len"])]]}
        assert not hd["stock"][int(pb["stock_len"]):].any(), "cards beyond the stock's size"
        for s in range(PLAYERS):
            size = int(pb["payoff_len"][s])
            pile = [int(c) for c in hd["payoff"][s, :size]]
            assert not hd["payoff"][s, size:].any(), f"cards beyond payoff pile {s}'s size"
            assert int(pb["payoff_top"][s]) == (pile[-1] if pile else 0), f"payoff top of seat {s} is wrong"
            out[f"payoff{s}"] = pile[:-1]
            out[f"payoff_top{s}"] = pile[-1:]
            hand = self.priv[s]["hand"]
            assert (hand >= 0).all() and hand[0] == 0, f"seat {s}'s hand counts are wrong: {hand}"
            out[f"hand{s}"] = spread(hand)
            assert int(pb["hand_len"][s]) == len(out[f"hand{s}"]), f"hand_len of seat {s} is not its hand's size"
            assert len(out[f"hand{s}"]) <= HAND, f"seat {s} holds more than {HAND} cards"
            for i in range(SIDES):
                out[f"side{s}_{i}"] = side_pile(pb, s, i)
                assert not pb["side"][s, i, int(pb["side_len"][s, i]):].any(), "cards beyond a side pile's size"
        for b in range(pb["build"].shape[0]):
            size = int(pb["build_len"][b])
            pile = [int(c) for c in pb["build"][b, :size]]
            assert size < 12 and not pb["build"][b, size:].any(), f"build pile {b} is wrong"
            assert b < pb["centre"] or size == 0, "a build pile beyond centre_piles is used"
            assert all(c in (k + 1, KING) for k, c in enumerate(pile)), f"build pile {b} is not A.. in order: {pile}"
            out[f"build{b}"] = pile
        return out

    def deck(self) -> list[int]:
        return [int(c) for c in DECK]

    def seen_by(self, seat: int) -> set[str]:
        hidden = {"stock", *(f"payoff{s}" for s in range(PLAYERS)), f"hand{1 - seat}"}
        return set(self.locations()) - hidden

    def decision(self, forced: bool = False):     # every position it keeps is a real choice
        pb, hd = self.pub[0], self.hid[0]
        if hd["over"]:
            return None
        seat = int(pb["seat"])
        pv = self.priv[seat]
        actions = legal_actions(pb, pv["hand"], seat)
        assert len(actions) >= 2, f"seat {seat} is asked with {len(actions)} legal actions"
        legal = np.zeros(LEGAL_SIZE, np.bool_)
        legal[actions] = True
        return seat, (pb, pv, legal)

    def place(self, pb, priv, hd, locations):
        for s in range(PLAYERS):
            priv[s]["hand"] = np.bincount(np.array(locations[f"hand{s}"], np.int64), minlength=N_VALUES + 1)
            pile = locations[f"payoff{s}"] + locations[f"payoff_top{s}"]
            hd["payoff"][s, : len(pile)] = pile
        stock = locations["stock"]
        hd["stock"][: len(stock)] = stock


class SpiteKit(RecordsKit):
    steps = ("move", "moves")
    package = "analyser.games.spite_and_malice"
    position = SpitePosition
    fixed_policy = "builder"
    feature_names = ("match points", "log payoff cards left", "payoff top")
    end_order = ("a close win (by under 10 points)", "a win by 10 to 24 points", "a win by 25 points or more", DRAWN,
                 ABORTED)

    def step_features(self, position):
        """Each seat's match points (as a share of the target), its payoff cards left (the round is won
        by emptying them) and its payoff top's value; progress: the leader's points of the target."""
        pb = position.pub[0]
        target = max(int(pb["target"]), 1)
        points = pb["points"][:2].astype(float) / target
        x = np.stack([points, np.log1p(pb["payoff_len"][:2].astype(float)), pb["payoff_top"][:2].astype(float)], 1)
        return x, float(min(points.max(), 1.0))

    def end_ways(self, records, players):
        """How far ahead the winner finished (match points: under 10, 10 to 24, 25 or more), drawn, or aborted."""
        margin = np.abs(records["points"][:, 0].astype(np.int64) - records["points"][:, 1])
        ways = np.array(self.end_order[:3], dtype=object)
        return ended_by_cap(records, ways[(margin >= 10).astype(int) + (margin >= 25)])

    def cases(self, game):
        # small payoff piles, targets or round limits keep the kit fast; random play ends its matches
        # under every case, the default rules included (random builds before it discards: its
        # docstring); the first and the last case get the hidden-information check
        return [(2, {"payoff_size": 2, "target": 3}), (2, {}),
                (2, {"payoff_size": 6, "centre_piles": 4, "refill_empty_hand": "on", "rounds": 3}),
                (2, {"payoff_size": 4, "stock_out": "at_once", "rounds": 4, "target": 5}),
                (2, {"payoff_size": 3, "target": 4, "refill_empty_hand": "on", "stock_out": "at_once",
                     "centre_piles": 4})]

    def aborting_rules(self):
        return {"max_moves": 40}

    def action_text(self, action):
        """"play 7 from hand to build 2", "play the payoff top to build 0", "play side 1's top to
        build 2", "discard Q to side 3" or "stop" (piles numbered from 0, as the trace's b0..b3 and
        s0..s3; a payoff or side top's card is the position's, not the action's)."""
        if action == ACTION.STOP:
            return "stop"
        src, dst = action >> 3, action & 7
        if dst >= DST_SIDE:
            return f"discard {card_name(src - SRC_HAND)} to side {dst - DST_SIDE}"
        if src == SRC_PAYOFF:
            what = "the payoff top"
        elif src < SIDE_END:
            what = f"side {src - SRC_SIDE}'s top"
        else:
            what = f"{card_name(src - SRC_HAND)} from hand"
        return f"play {what} to build {dst}"

    def first_draw(self, position):
        n = int(position.pub[0]["stock_len"])
        return ("stock", n - 1) if n else None         # the stock's top is its last card

    def shuffled(self, before, after):
        """A new round was dealt (all 104 cards shuffled anew), or a build pile was completed: its
        twelve cards joined the stock and the whole stock was shuffled."""
        return (int(after.pub[0]["round"]) != int(before.pub[0]["round"])
                or int(after.hid[0]["completed"].sum()) != int(before.hid[0]["completed"].sum()))

    def consistent(self, history, seat):
        """Nothing more (the module docstring): no play is forced, so not playing a card shows
        nothing; a discard or a build from the hand shows the card it plays, which is then public."""
        return None
