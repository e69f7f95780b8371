"""The hooks a game gives the shared test kit (``tests/kit/``).

The kit checks every registered game the same way: cards are conserved at
every action, units end within their cap, and a policy's decision does not
change when what its seat cannot see is dealt anew. For that it must step
through a unit and read positions, which only the game knows how to do; these
hooks are all it asks. ``GameSpec.kit()`` returns a ``GameKit``.

A game writes a ``Position`` (six short methods over its own state arrays) and
a ``GameKit`` whose ``play`` yields them; ``Position.redeal`` is done here, from
``locations`` and ``relocate``, so every game's re-deal follows one rule.
See ``analyser/games/palace/kit.py`` and ``tests/toygame/kit.py``.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator

import numpy as np


class Position(ABC):
    """One moment of a unit: after the setup, or after an action.

    A position yielded by ``GameKit.play`` may read the live state arrays: it is
    valid until the iterator advances. ``relocate`` returns one over copies.
    """

    @abstractmethod
    def locations(self) -> dict[str, list[int]]:
        """Location name -> card ids, every card of ``deck()`` somewhere (discard
        and burned piles included), in the order the game keeps them (a stock's
        order counts). The game may assert its own bookkeeping here (counters that
        must agree with the cards): the kit calls this after every action."""

    @abstractmethod
    def deck(self) -> list[int]:
        """The multiset of card ids these settings play with."""

    @abstractmethod
    def seen_by(self, seat: int) -> set[str]:
        """The locations whose cards ``seat`` sees. Of every other location it
        sees only the size: those are what a re-deal may change."""

    @abstractmethod
    def decision(self) -> tuple[int, tuple] | None:
        """``(seat, args)`` when a policy is about to be asked for a real choice
        (two or more legal actions), else None. ``args`` are the policy's
        arguments without the trailing parameter row; the kit copies them before
        each call, since a policy draws from (and so writes into) its stream."""

    @abstractmethod
    def relocate(self, locations: dict[str, list[int]]) -> Position:
        """A copy of this position with the cards placed as given: the same
        locations with the same sizes, only cards moved. Whatever the game derives
        from the cards (counts by rank, masks) is rebuilt; nothing else changes,
        a seat's policy stream and memory included."""

    def memory(self, seat: int) -> np.ndarray | None:
        """The seat's policy scratch memory (a writable view), or None if the
        game keeps none. A re-deal must keep it: it is the policy's own."""
        return None

    def redeal(self, seat: int, rng: np.random.Generator) -> Position:
        """The same position with everything ``seat`` cannot see dealt anew:
        the cards of the locations it does not see are shuffled among them
        (other hands, face-down cards, the stock's order), sizes kept."""
        return self.relocate(shuffle_hidden(self.locations(), self.seen_by(seat), rng))


class GameKit(ABC):
    """What a game offers the kit. ``honest_args``: True when a policy's arguments
    hold nothing its seat cannot see (Palace: the public record and the seat's
    own private record). The kit then also asserts they are byte for byte the
    same after every re-deal, which proves that no policy, a user's included,
    can peek. A game that hands policies the whole table (the toy game) leaves it
    False, and only the built-in policies' decisions are compared."""

    honest_args: bool = False
    random_policy: str = "random"   # a policy that draws from its stream at every real choice
    fixed_policy: str = ""          # a policy that never draws (empty: the game has none)

    def cases(self, game) -> list[tuple[int, dict]]:
        """The (players, rules) the kit plays; by default each player count with default rules."""
        return [(n, {}) for n in range(game.min_players, game.max_players + 1)]

    def aborting_rules(self) -> dict | None:
        """Rules under which some units hit the action cap (to check aborted records), or None."""
        return None

    @abstractmethod
    def cap(self, players: int, settings: dict[str, int]) -> int:
        """The most actions a unit may take under these settings."""

    @abstractmethod
    def play(self, seed: int, unit: int, players: int, settings: np.ndarray, fns: tuple, params: np.ndarray,
             streams: np.ndarray) -> Iterator[Position]:
        """Play unit ``unit`` of ``seed`` as ``GameSpec.simulate`` would (the same
        arguments), one action at a time: yield the position after the setup and
        after every action, the last one when the unit is over."""


def shuffle_hidden(locations: dict[str, list[int]], seen: set[str], rng: np.random.Generator) -> dict:
    """``locations`` with the cards of the unseen locations shuffled among them, sizes kept."""
    hidden = [name for name in locations if name not in seen]
    pool = [c for name in hidden for c in locations[name]]
    pool = [int(c) for c in rng.permutation(np.array(pool, dtype=np.int64))]
    out = {name: list(cards) for name, cards in locations.items()}
    for name in hidden:
        size = len(locations[name])
        out[name], pool = pool[:size], pool[size:]
    return out
