"""Olenon's hooks for the shared test kit (see analyser.games.kit).

A position is the three state records. Its locations are each hand, the
set-aside cards, the table, each seat's face-up passed card and the discards;
``locations`` also checks what the rules keep beside the cards (hand sizes,
the open hands of talk=open, the table's value, the passes of a trick in
progress). ``play`` steps the match in one compiled call that keeps a copy of
the records after every action.

Rollouts (RolloutKit): an action in a player's words; a new round is a shuffle;
the play shows nothing beyond where the cards went (a pass is legal on any
table with cards, whatever the hand holds, and a lead is the only action on an
empty one), so ``consistent`` is None; rollout.play_worlds_nb plays the worlds.
"""
from __future__ import annotations

import numpy as np

from analyser.games.kit import ABORTED, RecordsKit, RecordsPosition, ended_by_cap
from analyser.games.olenon.constants import (
    ACTION,
    DECK,
    HAND,
    LEGAL_SIZE,
    N_VALUES,
    PLAYERS,
    SETTING,
    TABLE,
    beats,
    put,
)


def spread(counts) -> list[int]:
    """Seven counts -> the cards, lowest first."""
    return [v for v in range(N_VALUES) for _ in range(int(counts[v]))]


def legal_actions(pb, hand) -> list[int]:
    """The legal actions, from the rule book's words (an independent reading of rules.legal_mask_nb)."""
    k, v = int(pb["table_len"]), int(pb["table_value"])
    if k == 0:
        return [put(w, m) for w in range(N_VALUES) for m in range(1, min(int(hand[w]), TABLE) + 1)]
    out = [put(v, m) for m in range(1, min(int(hand[v]), TABLE - k) + 1)]
    out += [put(w, k) for w in range(N_VALUES) if beats(w, v) and hand[w] >= k]
    return sorted(out) + [ACTION.PASS]


class OlenonPosition(RecordsPosition):
    def locations(self) -> dict[str, list[int]]:
        pb, hd = self.pub[0], self.hid[0]
        k, v = int(pb["table_len"]), int(pb["table_value"])
        assert 0 <= k <= TABLE and (v == -1) == (k == 0), f"table of {k} cards of value {v}"
        out = {"table": [v] * k, "set_aside": sorted(int(c) for c in hd["set_aside"]),
               "discards": spread(pb["discarded"])}
        for s in range(PLAYERS):
            hand = self.priv[s]["hand"]
            assert (hand >= 0).all(), f"seat {s} holds a negative count"
            out[f"hand{s}"] = spread(hand)
            out[f"passed{s}"] = [int(pb["passed"][s])] if pb["passed"][s] >= 0 else []
            assert pb["hand_len"][s] == len(out[f"hand{s}"]), f"hand_len of seat {s} is not its hand's size"
            shown = pb["open"][s] if pb["talk"] else np.zeros(N_VALUES, np.int8)
            assert np.array_equal(pb["open"][s], hand if pb["talk"] else shown), f"open hand of seat {s} is wrong"
        if not hd["over"]:
            passed = [s for s in range(PLAYERS) if pb["passed"][s] >= 0]
            assert len(passed) <= 2 and not any((s + 2) % PLAYERS in passed for s in passed), \
                f"the trick goes on with passes {passed}"
            assert pb["passed"][pb["seat"]] < 0, "a seat that passed is to act"
        return out

    def deck(self) -> list[int]:
        return [int(c) for c in DECK]

    def seen_by(self, seat: int) -> set[str]:
        seen = {"table", "discards", *(f"passed{s}" for s in range(PLAYERS)), f"hand{seat}"}
        if self.pub[0]["talk"]:
            seen |= {f"hand{s}" for s in range(PLAYERS)}
        return seen

    def decision(self, forced: bool = False):
        pb, hd = self.pub[0], self.hid[0]
        if hd["over"] or hd["round_actions"] >= self.settings[SETTING.MAX_ACTIONS]:
            return None
        seat = int(pb["seat"])
        pv = self.priv[seat]
        actions = legal_actions(pb, pv["hand"])
        if len(actions) < (1 if forced else 2):
            return None
        legal = np.zeros(LEGAL_SIZE, np.bool_)
        legal[actions] = True
        return seat, (pb, pv, legal)

    def place(self, pb, priv, hd, locations):
        for s in range(PLAYERS):
            priv[s]["hand"] = np.bincount(np.array(locations[f"hand{s}"], np.int64), minlength=N_VALUES)
            if pb["talk"]:
                pb["open"][s] = priv[s]["hand"]
        hd["set_aside"] = locations["set_aside"]


class OlenonKit(RecordsKit):
    package = "analyser.games.olenon"
    position = OlenonPosition
    fixed_policy = "shed"
    feature_names = ("team rounds won", "log cards in hand", "log cards of the team's shorter hand")
    end_order = tuple(f"a {w}-{lost} win in rounds" for w in range(1, 6) for lost in range(w)) + (ABORTED,)

    def step_features(self, position):
        """Each seat's team rounds won, its cards in hand and its team's shorter hand (a partner going
        out wins the round); progress: the rounds decided and this one's share of cards shed, of the most
        a match can take."""
        pb = position.pub[0]
        hand = pb["hand_len"][:PLAYERS].astype(float)
        team = np.arange(PLAYERS) & 1
        shorter = np.minimum(hand, hand[(np.arange(PLAYERS) + 2) % PLAYERS])
        rounds = pb["team_rounds"][team].astype(float)
        done = (rounds.sum() / 2 + 1 - hand.sum() / (PLAYERS * HAND)) / max(2 * int(pb["rounds"]) - 1, 1)
        return np.stack([rounds, np.log1p(hand), np.log1p(shorter)], 1), float(np.clip(done, 0.0, 1.0))

    def end_ways(self, records, players):
        """The match's score in rounds (a 2-0 win, a 2-1 win: end_order lists w-l at w (w - 1) / 2 + l), or
        aborted."""
        won = records["rounds_won"][:, :players].astype(np.int64)
        w, lost = won.max(axis=1), won.min(axis=1)
        ways = np.array(self.end_order[:-1], dtype=object)
        return ended_by_cap(records, ways[np.clip(w * (w - 1) // 2 + lost, 0, ways.size - 1)])

    def cases(self, game):
        # the first and the last case get the hidden-information check: talk=none, where hands are hidden
        return [(4, {}), (4, {"talk": "open", "rounds": 3}), (4, {"talk": "open", "round_starter": "winner"}),
                (4, {"round_starter": "winner"})]

    def aborting_rules(self):
        return {"max_actions": 25}

    def action_text(self, action):
        """"put down 5 5" (its cards as the trace writes them: a lead, an addition or a replace,
        the table decides which) or "pass" (take a card off the table)."""
        if action == ACTION.PASS:
            return "pass"
        value, count = action >> 2, (action & 3) + 1
        return "put down " + " ".join([str(value)] * count)

    def shuffled(self, before, after):
        """A new round was dealt: all 32 cards shuffled anew."""
        return int(after.pub[0]["round"]) != int(before.pub[0]["round"])

    def consistent(self, history, seat):
        """Nothing more: a pass is legal on every table with cards (it shows no lack of a card
        that beats it), a lead on an empty table is the only thing allowed, and a put shows
        only the cards put down; where the cards went is Knowledge's part."""
        return None
