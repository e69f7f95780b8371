"""Enemy Anemone's hooks for the shared test kit (see analyser.games.kit).

A position is the three state records. Its locations are each hand, each
seat's face-down discards and its won cards, the trick and the 2-player draw
pile; ``locations`` also checks the bookkeeping the rules keep beside the
cards (hand sizes, discard counts, won points, the played mask) and that the
nine tokens are all somewhere. ``play`` steps the match in one compiled call
that keeps a copy of the records after every action.

Rollouts (``AnemoneKit`` is a ``RolloutKit``): an action is a card with the tokens
attached to it (constants.ACTION); a new hand is a shuffle; and what the play shows
beyond where the cards are is the discards (see :class:`Shown`).
"""
from __future__ import annotations

import numpy as np

from analyser.games.enemy_anemone.constants import (
    ACTION,
    N_CARDS,
    N_SUITS,
    N_TOKENS,
    POINTS,
    SETTING,
    SUIT_MASK,
    card_name,
)
from analyser.games.enemy_anemone.rules import deck_nb
from analyser.games.kit import ABORTED, DRAWN, RecordsKit, RecordsPosition, ended_by_cap
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

    def decision(self, forced: bool = False):
        pb, hd = self.pub[0], self.hid[0]
        if hd["over"] or hd["actions"] >= self.settings[SETTING.MAX_ACTIONS]:
            return None
        seat = int(pb["seat"])
        pv = self.priv[seat]
        choices = len(cards(pv["legal"]))
        if not pb["discard"]:
            choices *= (int(pb["ones"][seat]) + 1) * (int(pb["twos"][seat]) + 1)
        if choices < (1 if forced else 2):
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


class AnemoneKit(RecordsKit):
    steps = ("play or discard", "plays and discards")
    package = "analyser.games.enemy_anemone"
    position = AnemonePosition
    fixed_policy = "greedy"
    feature_names = ("match points", "token value held")
    end_order = ("the highest total", "a tie broken by tokens held", "a shared win (tied totals and tokens)",
                 DRAWN, ABORTED)

    def step_features(self, position):
        """Each seat's match points so far (the totals of the hands scored, and this hand's won cards)
        and the value of its tokens (+1 and +2 sides); progress: hands and tricks played of the match's."""
        pb = position.pub[0]
        n = position.players
        points = pb["totals"][:n].astype(float) + pb["won_points"][:n]
        tokens = pb["ones"][:n].astype(float) + 2 * pb["twos"][:n]
        done = (int(pb["hand"]) + int(pb["trick"]) / max(int(pb["tricks"]), 1)) / max(int(pb["hands"]), 1)
        return np.stack([points, tokens], 1), min(done, 1.0)

    def end_ways(self, records, players):
        """The highest total alone, a tie broken by tokens, a win still shared, or aborted."""
        shared = np.count_nonzero(records["win"][:, :players] > 0, axis=1) > 1
        ways = np.array(self.end_order, dtype=object)
        return ended_by_cap(records, ways[np.where(shared, 2, np.where(records["tiebreak"], 1, 0))])

    def cases(self, game):
        return [(2, {}), (3, {"next_leader": "lowest"}), (4, {}), (5, {"catchup": "total"}),
                (6, {"spent_tokens": "removed"}), (4, {"hands": 2, "spent_tokens": "removed",
                                                       "next_leader": "lowest", "catchup": "total"})]

    def aborting_rules(self):
        return {"max_actions": 60}

    def legal_actions(self, args):
        """Every legal card, with every number of +1 and of +2 tokens the seat can attach (none to a discard)."""
        pb, pv, legal = args
        seat = int(pb["seat"])
        cards_ = np.flatnonzero(legal[:N_CARDS])
        if pb["discard"]:
            return cards_.astype(np.int64)
        ones, twos = int(pb["ones"][seat]), int(pb["twos"][seat])
        return np.array(sorted(int(c) + ACTION.ONE * k1 + ACTION.TWO * k2 for c in cards_
                               for k1 in range(ones + 1) for k2 in range(twos + 1)), np.int64)

    def action_text(self, action):
        """``C7`` (played, or discarded), ``C7 +2+1`` (tokens attached: the card is then worth 10)."""
        card, k1, k2 = action % ACTION.ONE, action // ACTION.ONE % 16, action // ACTION.TWO
        tokens = "+2" * k2 + "+1" * k1
        return f"{card_name(card)} {tokens}" if tokens else card_name(card)

    def shuffled(self, before, after):
        """A new hand: every hand is dealt anew from the whole deck."""
        return int(before.pub[0]["hand"]) != int(after.pub[0]["hand"])

    def consistent(self, history, seat):
        shown = Shown(history, seat, self.shuffled)
        return shown.consistent if shown.seats else None



def _suits(mask_) -> int:
    """The suits of a card mask, as a bit per suit."""
    return sum(1 << s for s in range(N_SUITS) if int(mask_) & int(SUIT_MASK[s]))


class Shown:
    """What the play of this hand showed of each other seat's hidden cards (the rule book, "A
    trick"): a seat must play a card of a suit not yet in the trick, and discards face down only
    when it holds none. So a discard shows that the seat held, at that moment, no card of any suit
    of the deck not in the trick (the discarded card included), and a play shows nothing (which of
    its unplayed suits it chose is its choice). Tokens, the cards played and the score piles are
    public, hence fixed in every world already; nothing else is shown.

    At 3-6 players the hand is the cards dealt, so a seat's void in a suit holds to the end of the
    hand. At 2 the seat draws after tricks (cards the others do not see), which may bring that suit
    back: the test is then whether the seat's cards this hand (those it holds, its discards, the
    cards it played) can be split into the dealt ones and the drawn ones (2 per draw, at their
    times) and its discards matched to its discard events, so that at no discard it held a card of
    the suits it showed void in. Each seat is checked on its own: only suits count, so it is a
    search over the suits of its discards (in the order of its discard events) and a greedy
    earliest-deadline assignment of arrivals (exact for windows of consecutive draws).
    """

    def __init__(self, history, viewer: int, shuffled):
        start = max((i for i in range(1, len(history)) if shuffled(history[i - 1], history[i])), default=0)
        hand = history[start:]
        pb0 = hand[0].pub[0]
        players = int(pb0["players"])
        deck_suits = (1 << (4 if players == 2 else players)) - 1
        self.arrivals = {s: [(-1, int(pb0["hand_len"][s]))] for s in range(players)}   # (time, cards)
        self.voids = {s: [] for s in range(players)}                 # (time, suits) of each discard
        self.played = {s: [] for s in range(players)}                # (time, suit) of each card played
        for j in range(len(hand) - 1):
            pb, nb = hand[j].pub[0], hand[j + 1].pub[0]
            s = int(pb["seat"])
            if pb["discard"]:
                self.voids[s].append((2 * j, deck_suits & ~_suits(pb["trick_mask"])))
            else:
                card = cards(int(nb["played"]) & ~int(pb["played"]))
                assert len(card) == 1, "one card played an action"
                self.played[s].append((2 * j, card[0] % N_SUITS))
            for t in range(players):
                drawn = int(nb["hand_len"][t]) - int(pb["hand_len"][t]) + (t == s)
                if drawn:
                    self.arrivals[t].append((2 * j + 1, drawn))
        self.seats = [s for s in range(players) if s != viewer and self.voids[s]]

    def consistent(self, locations) -> bool:
        return all(self.possible(s, locations[f"hand{s}"], locations[f"discards{s}"]) for s in self.seats)

    def possible(self, s: int, hand, discards) -> bool:
        """Whether seat s could hold ``hand`` and have discarded ``discards`` (card ids) this hand."""
        voids, arrivals = self.voids[s], self.arrivals[s]
        fixed = [(c % N_SUITS, float("inf")) for c in hand] + [(suit, t) for t, suit in self.played[s]]
        left = [0] * N_SUITS
        for c in discards:
            left[c % N_SUITS] += 1

        def window(suit, leaves):
            """The arrival times a card of ``suit`` that left at ``leaves`` may have: after the last void
            in its suit up to then, before it left."""
            last = max((t for t, v in voids if v >> suit & 1 and t <= leaves), default=-2)
            return last, leaves

        def search(k, chosen):
            if k == len(voids):
                return self._arrive([window(u, d) for u, d in fixed + chosen], arrivals)
            t, v = voids[k]
            for suit in range(N_SUITS):
                if left[suit] and not v >> suit & 1:
                    low, _ = window(suit, t)
                    if not any(low < a < t for a, _ in arrivals):
                        continue
                    left[suit] -= 1
                    ok = search(k + 1, [*chosen, (suit, t)])
                    left[suit] += 1
                    if ok:
                        return True
            return False

        return search(0, [])

    @staticmethod
    def _arrive(windows, arrivals) -> bool:
        """Whether every card gets an arrival (deal or draw) strictly inside its window, each arrival
        taking exactly its count: earliest deadline first."""
        waiting = sorted(windows, key=lambda w: w[1])
        for time, count in arrivals:
            fits = [w for w in waiting if w[0] < time < w[1]]
            if len(fits) < count:
                return False
            for w in fits[:count]:
                waiting.remove(w)
        return not waiting
