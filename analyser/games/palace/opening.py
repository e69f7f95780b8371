"""Palace's worlds keep what the opening play showed, by drawing which unknown cards each hand held then.

The first play is of the lowest rank of 3 or above held in any hand after the swap, by one of the
players holding it, chosen at random (the rule book, "First play"). So no hand then held a card of
a rank from 3 up to below the opening rank ("low" cards), and the opener, of the k hands holding the
opening rank, was picked with chance 1/k. A hand now is its cards then, less those it played, plus
those it drew and picked up; which of its unknown cards it held then is not told. A world is
therefore drawn from the past, uniformly among the deals and draws that agree with everything the
seat saw, each weighted by the opener's chance:

- Each other seat j has a line of hidden **slots**: its o_j unknown cards after the swap, then one
  per card it drew, in order. A card it played from its hand that the seat did not know to be there
  sat in a slot filled before that play: one of the first ``a`` slots of the line (a = o_j + its
  draws before the play), and not an opening slot if it is low. These allowed sets are prefixes
  (less the opening slots for a low card), so the assignments of the played cards are counted
  exactly, by how many opening slots they use (u_j): ``counts[j][u]``.
- The unknown cards now (WorldSampler's pool) fill the rest: j's unplayed slots (o_j - u_j of them
  opening slots, the rest drawn), the face-down cards, the stock and the unused cards, a low card in
  no opening slot: ``P(places - free opening slots, low cards)`` ways (a falling factorial) times
  the others' order.
- So (u_j) is drawn with chance proportional to the product, the played cards' slot kinds given
  u_j backwards through the count, the pool placed uniformly under its one rule; and the world is
  kept with chance 1/k (rejection: exact), k counted from the opening hands so drawn.

Every world is then one the rules could have dealt and played to this position, each as likely as
that history is. The stock's next card is not spread evenly over a rollout's trials (its chance is
no longer the same for every unknown card).
"""
from __future__ import annotations

from collections import Counter
from itertools import product

import numpy as np

from analyser.errors import UserError
from analyser.games.worlds import Knowledge, WorldSampler

NOTE = ("; Palace: what the opening play showed is kept (no hand held a lower rank of 3 or above, and the opener "
        "was one of those holding its rank, picked at random), by drawing which unknown cards each hand held "
        "then, so the stock's next card is not spread over the trials")


def rank(card: int) -> int:
    """The rank index of a card id (0 is the 2, 1 the 3, ...)."""
    return card >> 2


def is_low(card: int, opening_rank: int) -> bool:
    """A card no hand held after the swap: a rank of 3 or above, below the opening rank."""
    return 1 <= rank(card) < opening_rank


def falling(n: int, k: int) -> int:
    """n (n - 1) ... (n - k + 1): the ways to put k distinct cards into n places; 0 when k > n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out if k <= n else 0


class Line:
    """One other seat's slots: ``opening`` unknown cards after the swap, then its draws; ``played``:
    (a, card) for each card it played from its hand that the seat did not know to be there, in
    order of play; ``counts[i][u]``: the ways the first i of them fill distinct allowed slots
    using u opening slots."""

    def __init__(self, opening: int, played: list[tuple[int, int]], low):
        self.opening, self.played, self.low = opening, played, low
        o = opening
        counts = [[1] + [0] * o]
        for i, (a, card) in enumerate(played):
            row = [0] * (o + 1)
            for u, ways in enumerate(counts[-1]):
                if not ways:
                    continue
                drawn = a - o - (i - u)               # drawn slots before the play, still free
                if drawn > 0:
                    row[u] += ways * drawn
                if not low(card) and u < o:
                    row[u + 1] += ways * (o - u)
            counts.append(row)
        self.counts = counts

    def opening_cards(self, u: int, rng: np.random.Generator) -> list[int]:
        """The played cards in opening slots, drawn given that u of them are (backwards through counts)."""
        out = []
        o = self.opening
        for i in range(len(self.played), 0, -1):
            a, card = self.played[i - 1]
            via_opening = self.counts[i - 1][u - 1] * (o - u + 1) if u and not self.low(card) else 0
            drawn = a - o - (i - 1 - u)
            via_drawn = self.counts[i - 1][u] * drawn if drawn > 0 else 0
            if rng.random() * (via_opening + via_drawn) < via_opening:
                out.append(card)
                u -= 1
        return out


class Past:
    """The combinatorics of the module docstring, on places named (location, index): ``lines`` per
    other seat, the cards each knew to hold after the swap (``known_opening``), whether the seat's
    own hand held the opening rank (``own_holds``), every unknown place now (``places``; each other
    seat's among them in ``hand_places``) and the unknown cards now (``pool``)."""

    def __init__(self, opening_rank: int, lines: dict[int, Line], known_opening: dict[int, list[int]],
                 own_holds: bool, places: list[tuple[str, int]], hand_places: dict[int, list[tuple[str, int]]],
                 pool: list[int]):
        self.rank, self.lines, self.known_opening, self.own_holds = opening_rank, lines, known_opening, own_holds
        self.places, self.hand_places = places, hand_places
        self.low_pool = [c for c in pool if is_low(c, opening_rank)]
        self.high_pool = [c for c in pool if not is_low(c, opening_rank)]
        seats = list(lines)
        combos, weights = [], []
        for us in product(*(range(lines[s].opening + 1) for s in seats)):
            open_left = sum(lines[s].opening - u for s, u in zip(seats, us, strict=True))
            w = falling(len(places) - open_left, len(self.low_pool))
            for s, u in zip(seats, us, strict=True):
                w *= lines[s].counts[-1][u]
            if w:
                combos.append(dict(zip(seats, us, strict=True)))
                weights.append(w)
        total = sum(weights)
        self.combos = combos
        self.chances = np.array([w * 2 ** 53 // total for w in weights], dtype=float) if combos else None
        if combos:
            self.chances /= self.chances.sum()

    def sample(self, rng: np.random.Generator) -> dict[tuple[str, int], int] | None:
        """One placement of the pool (place -> card) drawn as the module docstring says, or None
        when the opener's chance rejected it (draw again) or no past agrees with the seat's view."""
        if not self.combos:
            return None
        used = self.combos[int(rng.choice(len(self.combos), p=self.chances))]
        opening_places = {}
        holds = {}
        for s, u in used.items():
            line = self.lines[s]
            for place in self.hand_places[s][: line.opening - u]:
                opening_places[place] = s
            held = self.known_opening[s] + line.opening_cards(u, rng)
            holds[s] = any(rank(c) == self.rank for c in held)
        plain = [p for p in self.places if p not in opening_places]
        chosen = rng.permutation(len(plain))[: len(self.low_pool)]
        placed = {}
        for card, j in zip(rng.permutation(np.array(self.low_pool, dtype=np.int64)).tolist(), chosen, strict=True):
            placed[plain[j]] = card
        rest = [p for p in self.places if p not in placed]
        for card, place in zip(rng.permutation(np.array(self.high_pool, dtype=np.int64)).tolist(), rest, strict=True):
            placed[place] = card
            if place in opening_places and rank(card) == self.rank:
                holds[opening_places[place]] = True
        k = self.own_holds + sum(holds.values())
        return placed if rng.random() * k < 1 else None


class OpeningWorlds(WorldSampler):
    """The worlds of ``history[-1]`` for ``seat`` (the module docstring). ``dealt``: the table as
    dealt (PalaceKit.dealt), from which the seat's knowledge after the swap is followed; ``kit``:
    Palace's, for what moved between two positions."""

    spreads = False
    note = NOTE

    def __init__(self, history: list, seat: int, knowledge: Knowledge, dealt, kit):
        super().__init__(history[-1], knowledge)
        first = history[0]
        opener = int(first.pub[0]["seat"])
        start = Knowledge(seat, dealt if dealt is not None else first)
        if dealt is not None:
            start.see(first, kit.shuffled(dealt, first), kit.shown(dealt, first))
        hands = first.locations()
        if len(history) > 1:
            led = Counter(hands[f"hand{opener}"]) - Counter(history[1].locations()[f"hand{opener}"])
            opening_rank = rank(min(led))
        else:                                     # the opener to move: it knows its lowest rank of 3 or above
            opening_rank = min(rank(c) for c in hands[f"hand{seat}"] if rank(c) >= 1)
        others = [s for s in range(first.players) if s != seat]
        known_opening = {s: list(start.known.get(f"hand{s}", Counter()).elements()) for s in others}
        opening = {s: len(hands[f"hand{s}"]) - len(known_opening[s]) for s in others}
        played, drawn = {s: [] for s in others}, dict.fromkeys(others, 0)
        for before, after in zip(history[:-1], history[1:], strict=True):
            b, a = before.locations(), after.locations()
            m = int(before.pub[0]["seat"])
            if m in played:
                left = Counter(b[f"hand{m}"]) - Counter(a[f"hand{m}"])
                # what left the hand is public now (played to the pile, or burned): nothing hidden is read
                assert not left - Counter(a["pile"] + a["burned"]), "a hand's cards went somewhere hidden"
                for card in sorted((left - start.known.get(f"hand{m}", Counter())).elements()):
                    played[m].append((opening[m] + drawn[m], card))
                drawn[m] += len(b["draw"]) - len(a["draw"])
            start.see(after, kit.shuffled(before, after), kit.shown(before, after))
        lines = {s: Line(opening[s], played[s], lambda c: is_low(c, opening_rank)) for s in others}
        hand_places = {s: [(f"hand{s}", i) for i, f in enumerate(self.free[f"hand{s}"]) if f] for s in others}
        for s in others:
            assert len(hand_places[s]) == opening[s] + drawn[s] - len(played[s]), f"hand{s}: the slots disagree"
        places = [(name, i) for name, marks in self.free.items() for i, f in enumerate(marks) if f]
        own_holds = any(rank(c) == opening_rank for c in hands[f"hand{seat}"])
        self.past = Past(opening_rank, lines, known_opening, own_holds, places, hand_places, self.pool)
        if not self.past.combos:
            raise UserError(f"no world agrees with what Palace's opening play showed seat {seat}")

    def arrangement(self, first=None):
        if first is not None:
            raise ValueError("Palace's worlds keep the opening play's clue: the stock's next card is not spread")

        def arrange(rng):
            placed = self.past.sample(rng)
            if placed is None:
                return None
            world = {name: list(cards) for name, cards in self.locations.items()}
            for (name, i), card in placed.items():
                world[name][i] = card
            return world

        return arrange
