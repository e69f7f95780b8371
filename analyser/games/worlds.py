"""Worlds consistent with what one seat knows: the hidden cards dealt anew, honestly.

A rollout asks "what happens from here?" of a seat that does not see every card. The worlds
it plays are the positions that agree with everything the seat knows, each equally likely:

- **What it sees** (``Position.seen_by``): its own cards and every public card stay as they are;
  of the other locations it sees only the sizes.
- **What it saw go where** (:class:`Knowledge`): a card that moved from a place the seat saw
  into one it does not (the pile picked up into a hand, a face-up card swapped into a hand)
  is known to be there, until it leaves. It stays in place in every world. A shuffle between
  two positions (a new hand dealt, a stock made of shuffled discards; the game's
  ``RolloutKit.shuffled``) forgets what was known: those cards went nowhere the seat saw.
- **What the play showed** (``GameKit.consistent``, for a game whose play shows more: a seat
  that does not follow suit holds none): a world that breaks it is drawn again (rejection from
  the uniform deal, so the accepted worlds are uniform among the consistent ones).

Everything else, the unknown cards, is shuffled uniformly over the unknown places (other hands,
face-down cards, the stock's order). The pool is sorted before the shuffle, so a world depends on
the seat's information and the random stream only, never on where the hidden cards really are.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from analyser.errors import UserError

MAX_REJECTIONS = 100_000     # draws for one world before the position is called inconsistent


class Knowledge:
    """Where one seat knows hidden cards to be, followed from a unit's positions in order
    (:meth:`see` each position after the first): per hidden location, the multiset of card
    ids known to be in it. A game whose cards are all distinct keeps multisets of one."""

    def __init__(self, seat: int, first):
        self.seat = seat
        self.known: dict[str, Counter] = {}
        self.locations = first.locations()
        self.seen = first.seen_by(seat)

    def see(self, position, shuffled: bool = False, shown=()) -> None:
        """Update from the position after the next action (``shuffled``: cards were shuffled
        between the two, so nothing hidden is known any more; ``shown``: cards every seat saw
        on their way from one hidden place to another, a face-down card turned over)."""
        now, seen = position.locations(), position.seen_by(self.seat)
        if shuffled:
            self.known, self.locations, self.seen = {}, now, seen
            return
        before = {name: Counter(cards) for name, cards in self.locations.items()}
        after = {name: Counter(cards) for name, cards in now.items()}
        shown = Counter(shown)              # cards that left places the seat saw, or were shown
        for name, cards in before.items():
            if name in self.seen:
                shown += cards - after.get(name, Counter())
        known = {}
        for name, cards in after.items():
            if name in seen:
                continue
            # a known card stays known less the cards of its kind that left (alike cards: which of
            # them left is not told, so the known ones go first; distinct cards: the same as "if still there")
            left = before.get(name, Counter()) - cards
            kept = Counter({c: k - left[c] for c, k in self.known.get(name, Counter()).items() if k > left[c]})
            gained = cards - before.get(name, Counter())
            arrived = Counter({c: min(k, shown[c]) for c, k in gained.items() if shown[c]})
            shown -= arrived
            total = kept + arrived
            known[name] = Counter({c: min(k, cards[c]) for c, k in total.items() if k})
        self.known, self.locations, self.seen = known, now, seen


def follow(positions, seat: int, kit=None) -> tuple[object, Knowledge]:
    """The last of ``positions`` (a unit's positions from its first, in order) and what ``seat``
    knows there; ``kit`` (a RolloutKit) says where cards were shuffled or shown between two."""
    positions = iter(positions)
    last = next(positions)
    knowledge = Knowledge(seat, last)
    for position in positions:
        if kit is None:
            knowledge.see(position)
        else:
            knowledge.see(position, kit.shuffled(last, position), kit.shown(last, position))
        last = position
    return last, knowledge


def unknown_places(position, knowledge: Knowledge) -> tuple[dict[str, list[int]], list[int], dict[str, list[bool]]]:
    """The position's locations, the sorted pool of cards the seat cannot place, and per hidden
    location which entries are free (not known)."""
    locations = position.locations()
    seen = position.seen_by(knowledge.seat)
    pool, free = [], {}
    for name, cards in locations.items():
        if name in seen:
            continue
        left = Counter(knowledge.known.get(name, Counter()))
        marks = []
        for c in cards:
            if left[c] > 0:
                left[c] -= 1
                marks.append(False)
            else:
                marks.append(True)
                pool.append(c)
        free[name] = marks
    return locations, sorted(pool), free


class WorldSampler:
    """The worlds of one position for one seat: its unknown places and the pool of cards it
    cannot place, found once (unknown_places), then each world a shuffle of the pool over them
    (a rollout draws thousands from one position). ``consistent(locations) -> bool``: the game's
    test of what the play showed; a world failing it is drawn again."""

    spreads = True     # the stock's next card may be spread evenly over a rollout's trials (each as likely)
    note = ""          # what a game's own sampler adds to the rollout's description of its worlds

    def __init__(self, position, knowledge: Knowledge, consistent=None):
        self.position, self.seat, self.consistent = position, knowledge.seat, consistent
        self.locations, self.pool, self.free = unknown_places(position, knowledge)

    def draw(self, rng: np.random.Generator, first=None):
        """One world (the module docstring). ``first``: ``(location, index, card)``, an unknown place
        given a card of the pool (a rollout spreads the next draw evenly over its trials), the rest
        shuffled. A candidate the game's test rejects is drawn again."""
        arrange = self.arrangement(first)
        for _ in range(MAX_REJECTIONS):
            world = arrange(rng)
            if world is not None:
                return self.position.relocate(world)
        raise UserError(f"no world consistent with seat {self.seat}'s information was found in "
                        f"{MAX_REJECTIONS:,} draws")

    def arrangement(self, first=None):
        """``rng -> locations``: one candidate world's cards, or None when it is rejected (``draw``
        draws again). A game's own sampler overrides this, never the rejection loop."""
        locations, pool, free = self.locations, self.pool, self.free
        if first is not None:
            name, index, card = first
            if not free.get(name, [False] * (index + 1))[index] or card not in pool:
                raise ValueError(f"{name}[{index}] is no unknown place, or {card} no unknown card")
            pool = list(pool)
            pool.remove(card)
            free = {k: list(v) for k, v in free.items()}
            free[name][index] = False
            locations = {k: list(v) for k, v in locations.items()}
            locations[name][index] = card
        pool = np.array(pool, dtype=np.int64)

        def arrange(rng):
            shuffled = iter(rng.permutation(pool).tolist())
            world = {name: list(cards) for name, cards in locations.items()}
            for name, marks in free.items():
                world[name] = [next(shuffled) if is_free else c
                               for c, is_free in zip(locations[name], marks, strict=True)]
            return world if self.consistent is None or self.consistent(world) else None

        return arrange


def sample_world(position, knowledge: Knowledge, rng: np.random.Generator, consistent=None, first=None):
    """One world of ``position`` for the seat of ``knowledge`` (WorldSampler, for a single draw)."""
    return WorldSampler(position, knowledge, consistent).draw(rng, first)
