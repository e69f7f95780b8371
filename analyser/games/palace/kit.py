"""Palace's hooks for the shared test kit (see analyser.games.kit).

A position is the three state records. Burned cards are counted by rank only
(``pub["gone"]``), so the "burned" location is every card found nowhere else,
checked against those counts: a card lost or held twice breaks them.

``play`` steps the game in one compiled call that keeps a copy of the records
after every action (stepping from Python cost a few milliseconds an action,
most of it converting the tuple of policies on each call).
"""
from __future__ import annotations

import numpy as np

from analyser.games.kit import ABORTED, RecordsKit, RecordsPosition, ended_by_cap
from analyser.games.palace.constants import ACTION, N_CARDS, N_RANKS, PHASE
from analyser.games.palace.rules import add_to_hand_nb, fill_play_legal_nb
from analyser.games.palace.state import PLAY_WORDS, new_state_nb
from analyser.kernels.cards import card_names

RANK_WORDS = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
COUNT_WORDS = ("one", "two", "three", "four")
_MAX_ACTIONS = 2  # index of max_actions in the settings row (see SETTINGS in __init__.py)


class PalacePosition(RecordsPosition):
    def locations(self) -> dict[str, list[int]]:
        pb, hd = self.pub[0], self.hid[0]
        out = {"pile": [int(c) for c in pb["pile"][: pb["pile_len"]]],
               "draw": [int(c) for c in hd["draw"][: pb["draw_len"]]],
               "unused": [int(c) for c in hd["unused"][: hd["unused_len"]]]}
        for s in range(self.players):
            pv = self.priv[s]
            hand = [int(c) for c in np.flatnonzero(pv["has"])]
            out[f"hand{s}"] = hand
            out[f"up{s}"] = [int(c) for c in pb["face_up"][s] if c >= 0]
            out[f"down{s}"] = [int(c) for c in hd["face_down"][s, : pb["face_down_len"][s]]]
            # the bookkeeping the rules and policies read instead of the cards
            assert pb["hand_len"][s] == len(hand), f"hand_len of seat {s} is not its hand's size"
            assert pb["face_up_len"][s] == len(out[f"up{s}"]), f"face_up_len of seat {s} is wrong"
            counts = np.bincount(np.array(hand, dtype=np.int64) >> 2, minlength=N_RANKS)
            assert np.array_equal(counts, pv["counts"]), f"counts of seat {s} disagree with its hand"
            plays = np.zeros(pv["plays"].nbytes, np.uint8)
            plays[: 4 * N_RANKS] = (np.arange(4) < counts[:, None]).ravel()
            assert np.array_equal(pv["plays"].view(np.uint8), plays), f"plays of seat {s} is wrong"
        placed = [c for cards in out.values() for c in cards]
        burned = sorted(set(range(N_CARDS)) - set(placed))
        by_rank = np.bincount(np.array(burned, dtype=np.int64) >> 2, minlength=N_RANKS)
        gone = [int(x) for x in pb["gone"]]
        assert np.array_equal(by_rank, gone), f"cards missing {burned}: burned by rank {gone}"
        out["burned"] = burned
        return out

    def deck(self) -> list[int]:
        return list(range(N_CARDS))

    def seen_by(self, seat: int) -> set[str]:
        return {"pile", "burned", f"hand{seat}", *(f"up{s}" for s in range(self.players))}

    def decision(self, forced: bool = False):
        pb, hd = self.pub[0], self.hid[0]
        if pb["phase"] != PHASE.PLAY or hd["actions"] >= self.settings[_MAX_ACTIONS]:
            return None
        seat = int(pb["seat"])
        legal = np.zeros(ACTION.COUNT, np.bool_)
        n_legal, _ = fill_play_legal_nb(pb, self.priv[seat], seat, legal, legal[: 8 * PLAY_WORDS].view(np.uint64))
        if n_legal < (1 if forced else 2):
            return None
        return seat, (pb, self.priv[seat], legal)

    def place(self, pb, priv, hd, locations):
        for s in range(self.players):
            pv = priv[s]
            for field in ("plays", "has", "counts"):
                pv[field][:] = 0
            pb["hand_len"][s] = 0
            for c in locations[f"hand{s}"]:
                add_to_hand_nb(pb, pv, s, c)
            hd["face_down"][s, : len(locations[f"down{s}"])] = locations[f"down{s}"]
        hd["draw"][: len(locations["draw"])] = locations["draw"]
        hd["unused"][: len(locations["unused"])] = locations["unused"]


class PalaceKit(RecordsKit):
    steps = ("turn", "turns")
    package = "analyser.games.palace"
    position = PalacePosition
    fixed_policy = "lowest"     # its default swap rule (strong cards face up) draws nothing either
    feature_names = ("log cards left", "gone out", "face-down cards")
    end_order = tuple(f"seat {s} the loser" for s in range(4)) + (ABORTED,)

    def step_features(self, position):
        """Each seat's cards left (hand, face up, face down; their log: one card left is far from two),
        whether it is out, its face-down cards; progress: the share of the cards no longer held or drawn."""
        pb = position.pub[0]
        n = position.players
        held = (pb["hand_len"][:n] + pb["face_up_len"][:n] + pb["face_down_len"][:n]).astype(float)
        left = held.sum() + int(pb["draw_len"])
        total = left + int(pb["pile_len"]) + int(pb["gone"].sum())
        x = np.stack([np.log1p(held), (pb["place"][:n] > 0).astype(float), pb["face_down_len"][:n].astype(float)], 1)
        return x, 1.0 - left / max(total, 1)

    def end_ways(self, records, players):
        """The loser's seat, or aborted at the cap."""
        names = np.array(self.end_order[:-1], dtype=object)
        return ended_by_cap(records, names[np.clip(records["loser"], 0, names.size - 1)])

    def cases(self, game):
        return [(2, {}), (3, {"ten_on_anything": 1}), (4, {}), (4, {"short_game": 1}),
                (2, {"short_game": 1, "ten_on_anything": 1})]

    def aborting_rules(self):
        return {"max_actions": 60}

    def action_text(self, action):
        """"play one 3", "play two Aces", "pick up the pile", "turn face-down card 1"."""
        if action == ACTION.PICKUP:
            return "pick up the pile"
        if action >= ACTION.FACE_DOWN:
            return f"turn face-down card {action - ACTION.FACE_DOWN + 1}"
        rank = card_names([action // 4 * 4])[0][:-1]
        rank, n = RANK_WORDS.get(rank, rank), action % 4 + 1
        return f"play {COUNT_WORDS[n - 1]} {rank}" + ("s" if n > 1 else "")

    def shown(self, before, after):
        a, b = before.locations(), after.locations()
        turned = []
        for s in range(before.players):            # a face-down card leaves its place only turned over
            gone = set(a[f"down{s}"]) - set(b[f"down{s}"])
            turned += sorted(gone)
        return turned

    def world_sampler(self, history, seat, knowledge, dealt=None):
        from analyser.games.palace.opening import OpeningWorlds

        return OpeningWorlds(history, seat, knowledge, dealt, self)

    def first_draw(self, position):
        n = int(position.pub[0]["draw_len"])
        return ("draw", n - 1) if n else None          # the draw pile's top is its last card

    def dealt(self, seed, unit, players, settings, streams):
        from analyser.games.palace.rules import deal_nb

        pub, priv, hid, _ = new_state_nb()
        deal_nb(seed, unit, players, settings, streams, pub, priv, hid)
        return PalacePosition(pub, priv, hid, settings)
