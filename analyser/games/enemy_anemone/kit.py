"""Enemy Anemone's hooks for the shared test kit (see analyser.games.kit).

A position is the three state records. Its locations are each hand, each
seat's face-down discards and its won cards, the trick and the 2-player draw
pile; ``locations`` also checks the bookkeeping the rules keep beside the
cards (hand sizes, discard counts, won points, the played mask) and that the
nine tokens are all somewhere. ``play`` steps the match in one compiled call
that keeps a copy of the records after every action.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from analyser.games.dispatch import policy_kinds
from analyser.games.enemy_anemone.constants import MAX_PLAYERS, N_CARDS, N_TOKENS, POINTS, SETTING
from analyser.games.enemy_anemone.dispatch import BUILT_IN
from analyser.games.enemy_anemone.rules import begin_match_nb, deck_nb, step_nb
from analyser.games.enemy_anemone.state import HIDDEN_DTYPE, POLICIES_T, PRIVATE_DTYPE, PUBLIC_DTYPE, new_state_nb
from analyser.games.kit import GameKit, RecordsPosition, recorded_positions
from analyser.kernels.bits import BIT


def cards(mask) -> list[int]:
    return [c for c in range(N_CARDS) if int(mask) >> c & 1]


def mask(cards_) -> np.uint64:
    return np.uint64(sum(int(BIT[c]) for c in cards_))


class AnemonePosition(RecordsPosition):
    def locations(self) -> dict[str, list[int]]:
        pb, hd = self.pub[0], self.hid[0]
        out = {"trick": [int(c) for c in pb["trick_card"][: pb["trick_len"]]],
               "draw": [int(c) for c in hd["draw"][: pb["draw_len"]]]}
        for s in range(self.players):
            pv = self.priv[s]
            out[f"hand{s}"] = cards(pv["hand"])
            out[f"discards{s}"] = cards(pv["discarded"])
            out[f"won{s}"] = cards(pb["won"][s])
            assert pb["hand_len"][s] == len(out[f"hand{s}"]), f"hand_len of seat {s} is not its hand's size"
            assert pb["discards"][s] == len(out[f"discards{s}"]), f"discard count of seat {s} is wrong"
            assert pb["won_points"][s] == sum(POINTS[c] for c in out[f"won{s}"]), f"won points of seat {s}"
        played = set(out["trick"]).union(*(out[f"won{s}"] for s in range(self.players)))
        assert set(cards(pb["played"])) == played, "the played mask is not the trick and the won cards"
        tokens = int(pb["supply"]) + int(pb["removed"]) + int(pb["ones"].sum()) + int(pb["twos"].sum())
        assert tokens == N_TOKENS, f"{tokens} tokens in play, not {N_TOKENS}"
        assert (pb["ones"] >= 0).all() and (pb["twos"] >= 0).all() and pb["supply"] >= 0
        if self.players == 2 and pb["trick"] == pb["tricks"] - 1:
            assert pb["draw_len"] == 0, "the draw pile is not empty before the hand's last trick"
        return out

    def deck(self) -> list[int]:
        deck = np.zeros(N_CARDS, np.int8)
        return [int(c) for c in deck[: deck_nb(self.players, deck)]]

    def seen_by(self, seat: int) -> set[str]:
        return {"trick", f"hand{seat}", f"discards{seat}", *(f"won{s}" for s in range(self.players))}

    def decision(self):
        pb, hd = self.pub[0], self.hid[0]
        if hd["over"] or hd["actions"] >= self.settings[SETTING.MAX_ACTIONS]:
            return None
        seat = int(pb["seat"])
        pv = self.priv[seat]
        choices = len(cards(pv["legal"]))
        if not pb["discard"]:
            choices *= (int(pb["ones"][seat]) + 1) * (int(pb["twos"][seat]) + 1)
        if choices < 2:
            return None
        legal = np.zeros(64, np.bool_)
        legal[cards(pv["legal"])] = True
        return seat, (pb, pv, legal)

    def place(self, pb, priv, hd, locations):
        for s in range(self.players):
            priv[s]["hand"] = mask(locations[f"hand{s}"])
            priv[s]["discarded"] = mask(locations[f"discards{s}"])
            legal = priv[s]["hand"] & ~pb["trick_mask"]
            priv[s]["legal"] = legal if legal else priv[s]["hand"]
        hd["draw"][: len(locations["draw"])] = locations["draw"]


class AnemoneKit(GameKit):
    honest_args = True          # a policy gets the public record and its own seat's private record only
    fixed_policy = "greedy"

    def cases(self, game):
        return [(2, {}), (3, {"next_leader": "lowest"}), (4, {}), (5, {"catchup": "total"}),
                (6, {"spent_tokens": "removed"}), (4, {"hands": 2, "spent_tokens": "removed",
                                                       "next_leader": "lowest", "catchup": "total"})]

    def aborting_rules(self):
        return {"max_actions": 60}

    def cap(self, players, settings):
        return settings["max_actions"]

    def play(self, seed, unit, players, settings, fns, params, streams):
        kinds = policy_kinds(fns, BUILT_IN)

        def playout(pubs, privs, hids):
            return playout_nb(seed, unit, players, settings, fns, kinds, params, streams, pubs, privs, hids)

        size = min(int(settings[SETTING.MAX_ACTIONS]), 60 * int(settings[SETTING.HANDS])) + 2
        return recorded_positions(playout, (PUBLIC_DTYPE, PRIVATE_DTYPE, HIDDEN_DTYPE), MAX_PLAYERS, size,
                                  AnemonePosition, settings)


_BYTES = types.uint8[:, ::1]


@njit(types.int64(types.int64, types.int64, types.int64, types.int64[::1], POLICIES_T, types.int64[::1],
                  types.float64[:, ::1],
                  types.int64[::1], _BYTES, _BYTES, _BYTES), cache=True)
def playout_nb(seed, unit, players, settings, policies, kinds, params, streams, pubs, privs, hids):
    """Play a match as simulate does, keeping the records after the setup and every
    action in row i of pubs, privs and hids; returns how many rows."""
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    begin_match_nb(seed, unit, players, settings, streams, pub, priv, hid, log)
    over = False
    n = 0
    while True:
        pubs[n] = pub.view(np.uint8)
        privs[n] = priv.view(np.uint8)
        hids[n] = hid.view(np.uint8)
        n += 1
        if over or n == pubs.shape[0]:
            return n
        over = step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log)


