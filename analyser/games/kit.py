"""The hooks a game gives the test kit (analyser.testing): part of what a game declares.

The kit checks every game the same way: cards are conserved at every action,
units end within their cap, and a policy's decision does not change when what
its seat cannot see is dealt anew. For that it must step through a unit and
read positions, which only the game knows how to do; these hooks are all it
asks. ``GameSpec.kit()`` returns a ``GameKit``.

A game writes a ``Position`` (six short methods over its own state arrays) and
a ``GameKit`` whose ``play`` yields them; ``Position.redeal`` is done here, from
``locations`` and ``relocate``, so every game's re-deal follows one rule. A game
laid out as the built-in ones are (analyser.games: three record arrays, public,
private per seat and hidden, and a ``playouts`` module) writes a ``RecordsPosition``
and a ``RecordsKit`` of class attributes: ``play`` and the rollouts' ``play_worlds``
are written here once. See ``analyser/games/olenon/kit.py``, and
``examples/highcard/kit.py`` for a game with a state of its own. The cap on a
unit's actions and the score bounds the kit checks are the ``GameSpec``'s.
"""
from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator

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
    def decision(self, forced: bool = False) -> tuple[int, tuple] | None:
        """``(seat, args)`` when a policy is about to be asked for a real choice
        (two or more legal actions; with ``forced``, one is enough: the move the rules
        make for the seat, as a rollout reports it), else None. ``args`` are the policy's
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
        """The (players, rules) the kit plays; by default each player count with default rules.
        The first and the last get the checks that play one or two cases only."""
        return [(n, {}) for n in range(game.min_players, game.max_players + 1)]

    def playout_policies(self, game, players: int, rules: dict) -> list:
        """The line-up of the random playouts under these rules: ``random_policy`` in every
        seat, unless random play cannot end a unit under them (then some seats play
        ``fixed_policy``: the cards are still checked at every action)."""
        return [self.random_policy] * players

    def aborting_rules(self) -> dict | None:
        """Rules under which some units hit the action cap (to check aborted records), or None."""
        return None

    @abstractmethod
    def play(self, seed: int, unit: int, players: int, settings: np.ndarray, fns: tuple, params: np.ndarray,
             streams: np.ndarray) -> Iterator[Position]:
        """Play unit ``unit`` of ``seed`` as ``GameSpec.simulate`` would (the same
        arguments), one action at a time: yield the position after the setup and
        after every action, the last one when the unit is over."""

    # ---------------------------------------------------------------- the shape of a game (analyses.shape)
    feature_names: tuple[str, ...] = ()   # what step_features gives each seat; empty: no per-step estimate
    end_order: tuple[str, ...] = ()       # the ways a unit may end (end_ways' words), in the order to show them

    def step_features(self, position: Position) -> tuple[np.ndarray, float]:
        """``(features, progress)`` at a position: one row of ``feature_names`` values per seat in play,
        read from what every seat sees (cards left, tokens, score: what tells who is ahead), and how far
        the unit has gone by what the position shows, 0 to 1 (never by its future, as the unit's length)."""
        raise NotImplementedError

    def end_ways(self, records: np.ndarray, players: int) -> np.ndarray:
        """How each record's unit ended, in words (``end_order``'s), one a record: by default aborted at
        the cap, drawn, or decided; a game names its own ways of being decided (ended_by_cap)."""
        return ended_by_cap(records, np.full(records.size, DECIDED, object))


ABORTED, DRAWN, DECIDED = "aborted at the action cap", "drawn", "decided"


def ended_by_cap(records: np.ndarray, decided) -> np.ndarray:
    """Per record: ABORTED, DRAWN (no winner), else its word of ``decided`` (one a record: how the game
    says it was decided)."""
    out = np.array(decided, dtype=object)
    out[records["draw"].astype(bool)] = DRAWN
    out[records["aborted"].astype(bool)] = ABORTED
    return out


class RolloutKit:
    """What a game offers position rollouts (analyser.analyses.rollout), beside the kit's positions:
    the names of its actions, what a world's play showed, and the compiled play-out of worlds.

    ``steps``: what one step of ``GameKit.play`` is (from one position to the next), one and many,
    in the game's words: the count the trace ends with, the replay pages through and a rollout's
    step indexes (Palace: turns, as its first position is after the swap)."""

    steps: tuple[str, str] = ("action", "actions")

    def action_text(self, action: int) -> str:
        """An action id as a player would say it ("play two 7s", "pick up the pile")."""
        return str(action)

    def legal_actions(self, args) -> np.ndarray:
        """The action ids a rollout compares at a decision (``Position.decision``'s args): by default
        the entries set in the legal mask, the last argument."""
        return np.flatnonzero(args[-1])

    def shuffled(self, before, after) -> bool:
        """Whether cards were shuffled between two consecutive positions (a new hand dealt, discards
        shuffled into a stock): what a seat knew of hidden places is then forgotten."""
        return False

    def shown(self, before, after) -> list[int]:
        """Cards every seat saw between two consecutive positions although they went from one
        hidden place to another (Palace: a face-down card turned over and taken up)."""
        return []

    def dealt(self, seed: int, unit: int, players: int, settings, streams):
        """The table as dealt, before anything a seat did, when the kit's first position is later
        (Palace: its first position is after the swap, which showed cards going into hands); else None."""
        return None

    def first_draw(self, position) -> tuple[str, int] | None:
        """The place of the next card to be drawn from a stock (location, index), whose card a
        rollout spreads evenly over its trials; None: no stock to draw from."""
        return None

    def consistent(self, history, seat: int):
        """A test ``(locations) -> bool`` of what ``seat`` saw the play show beyond where the cards
        went (analyser.games.worlds), given the unit's positions so far; None: nothing more."""
        return None

    def world_sampler(self, history: list, seat: int, knowledge, dealt=None):
        """What draws the worlds of ``history[-1]`` for ``seat`` (``knowledge``: what it knows there,
        followed from ``dealt``, the table as dealt, when the kit has it): by default the shared
        analyser.games.worlds.WorldSampler with ``consistent``; a game whose play shows something of
        the past that no test of the present can keep exactly draws the past (Palace's opening)."""
        from analyser.games.worlds import WorldSampler

        return WorldSampler(history[-1], knowledge, self.consistent(history, seat))

    def play_worlds(self, worlds: list, actions, fns: tuple, params, settings, seed: int, first_world: int):
        """``(records, current)``: the outcome records ``(len(worlds), len(actions))`` of each world
        after each action, the deciding seat made to play it and the line-up then playing on; and,
        in a game whose unit is made of hands or rounds, each seat's win share and score of the one
        the world is in (``current[w, a, 0 | 1, seat]``, as a single one's record counts them; None
        in a game without). Each world's random streams are reseeded from (seed, first_world + w),
        the same for all its actions."""
        raise NotImplementedError


# The arguments of every game's compiled play_worlds_nb, in its order (analyser.kernels.signatures).
PLAY_WORLDS_ARGS = ("policies", "forced", "kinds", "forced_kinds", "params", "forced_params", "settings", "streams",
                    "pubs", "privs", "hids", "actions", "seed", "first_world", "out", "current")


class WorldBatch:
    """What every game's compiled ``play_worlds_nb`` takes (PLAY_WORLDS_ARGS): the line-up as it
    plays on (``fns``, ``kinds``, ``params``), the same with the deciding seat's policy a
    ``forced_policy`` that plays the action in its first parameter (``forced``, ``forced_kinds``,
    ``forced_params``, at least one column), the settings row, each seat's policy stream id (its
    seat number, as a plain run's), the worlds' three records stacked (``pubs``, ``privs``,
    ``hids``), the actions, the rollout's seed and first world, and the outcome records to fill
    (``out``), with the current hand's or round's win share and score of each seat (``current``,
    where the game has them)."""

    def __init__(self, worlds, actions, fns, params, built_in, forced_policy, record_dtype):
        from analyser.games.dispatch import policy_kinds

        seat = int(worlds[0].pub[0]["seat"])
        assert all(int(w.pub[0]["seat"]) == seat for w in worlds), "the worlds have different seats to move"
        self.fns = tuple(fns)
        self.kinds = policy_kinds(fns, built_in, params)
        self.forced = tuple(forced_policy if s == seat else f for s, f in enumerate(fns))
        self.forced_kinds = self.kinds.copy()
        self.forced_kinds[seat] = 0                  # through the pointer: forced_policy
        self.params = np.ascontiguousarray(params, np.float64)
        self.forced_params = np.zeros((params.shape[0], max(params.shape[1], 1)))
        self.forced_params[:, : params.shape[1]] = params
        self.pubs = stacked([w.pub for w in worlds]).reshape(-1)
        self.privs = stacked([w.priv for w in worlds])
        self.hids = stacked([w.hid for w in worlds]).reshape(-1)
        self.streams = np.arange(self.privs.shape[1], dtype=np.int64)
        self.actions = np.asarray(actions, np.int64)
        self.out = np.zeros((len(worlds), len(actions)), record_dtype)
        self.current = np.zeros((len(worlds), len(actions), 2, self.privs.shape[1]))

    def arguments(self, settings, seed: int, first_world: int) -> tuple:
        """The kernel's arguments, in PLAY_WORLDS_ARGS's order."""
        return (self.fns, self.forced, self.kinds, self.forced_kinds, self.params, self.forced_params,
                np.ascontiguousarray(settings, np.int64), self.streams, self.pubs, self.privs, self.hids,
                self.actions, seed, first_world, self.out, self.current)


def stacked(arrays: list) -> np.ndarray:
    """Structured arrays of one dtype and shape stacked on a new first axis, each copied byte for byte:
    np.stack and np.concatenate promote every field of every array first (most of a rollout batch's
    Python time in Palace)."""
    out = np.zeros((len(arrays), *arrays[0].shape), arrays[0].dtype)
    raw = out.view(np.uint8).reshape(len(arrays), -1)
    for i, a in enumerate(arrays):
        raw[i] = np.ascontiguousarray(a).view(np.uint8).reshape(-1)     # a copy of its bytes, padding too
    return out


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


class RecordsPosition(Position):
    """A position of a game whose state is three record arrays, as its rules keep them:
    ``pub`` (one public record), ``priv`` (one private record per seat, each with a
    ``memory`` field for its policy) and ``hid`` (one hidden record), with the
    settings row. A game writes ``locations``, ``deck``, ``seen_by``, ``decision``
    and ``place``; ``relocate`` copies the records, checks the sizes and calls ``place``."""

    def __init__(self, pub, priv, hid, settings):
        self.pub, self.priv, self.hid, self.settings = pub, priv, hid, settings

    @property
    def players(self) -> int:
        """The seats in play: the public record's ``players``, else one per private record."""
        pb = self.pub[0]
        return int(pb["players"]) if "players" in pb.dtype.names else len(self.priv)

    @abstractmethod
    def place(self, pb, priv, hd, locations: dict[str, list[int]]) -> None:
        """Write the cards of ``locations`` into the copies ``pb`` (the public record),
        ``priv`` (the private records) and ``hd`` (the hidden record), rebuilding
        whatever the rules derive from them."""

    sizes: dict[str, int] | None = None      # each location's size, found at the first relocate

    def relocate(self, locations: dict[str, list[int]]) -> RecordsPosition:
        if self.sizes is None:                  # once: a rollout relocates one position thousands of times
            self.sizes = {name: len(cards) for name, cards in self.locations().items()}
        for name, placed in locations.items():
            assert len(placed) == self.sizes[name], f"relocate changed the size of {name}"
        pub, priv, hid = self.pub.copy(), self.priv.copy(), self.hid.copy()
        self.place(pub[0], priv, hid[0], locations)
        return type(self)(pub, priv, hid, self.settings)

    def memory(self, seat: int) -> np.ndarray:
        return self.priv[seat]["memory"]


def recorded_positions(playout: Callable, dtypes: tuple, seats: int, size: int, position: Callable,
                       settings: np.ndarray) -> Iterator[Position]:
    """The positions of one unit played by a game's compiled ``playout(pubs, privs, hids)``,
    which keeps the three state records after the setup and every action in row i of
    three byte buffers and returns how many rows it filled. ``dtypes``: the public,
    private and hidden dtypes; ``seats``: private records a row; ``size``: rows to start
    with (a unit that fills them is played again with four times as many).
    ``position(pub, priv, hid, settings)`` makes a position of each row."""
    pub_dtype, priv_dtype, hid_dtype = dtypes
    while True:
        pubs = np.zeros(size, pub_dtype)
        privs = np.zeros((size, seats), priv_dtype)
        hids = np.zeros(size, hid_dtype)
        n = playout(*(a.view(np.uint8).reshape(size, -1) for a in (pubs, privs, hids)))
        if n < size:
            break
        size *= 4
    for i in range(n):
        yield position(pubs[i: i + 1], privs[i], hids[i: i + 1], settings)


class RecordsKit(GameKit, RolloutKit):
    """The kit of a game laid out as the built-in ones are (analyser.games): state in three record
    arrays (its positions a ``RecordsPosition``) and its compiled play-outs in ``playouts``
    (``playout_nb``, ``forced_policy`` and ``play_worlds_nb`` in the signatures of
    analyser.kernels.signatures). ``play`` and ``play_worlds`` are written here once, from the
    game's ``package`` (its GameSpec ``GAME``, ``state``, ``records``, ``dispatch`` and ``playouts``
    modules) and its ``position``: the two class attributes a game names."""

    package: str                        # "analyser.games.olenon"
    position: type                      # its RecordsPosition
    honest_args = True                  # a policy gets the public record and its own seat's private record only
    rows: int = 1024                    # state rows a playout starts with (four times as many while a unit fills them)

    def part(self, name: str):
        """The game's module ``name`` (``""``: the package, which holds its GameSpec)."""
        return importlib.import_module(f"{self.package}.{name}" if name else self.package)

    def play(self, seed, unit, players, settings, fns, params, streams):
        from analyser.games.dispatch import policy_kinds

        state = self.part("state")
        kinds = policy_kinds(fns, self.part("dispatch").BUILT_IN, params)
        playout_nb = self.part("playouts").playout_nb

        def playout(pubs, privs, hids):
            return playout_nb(seed, unit, players, settings, fns, kinds, params, streams, pubs, privs, hids)

        return recorded_positions(playout, (state.PUBLIC_DTYPE, state.PRIVATE_DTYPE, state.HIDDEN_DTYPE),
                                  self.part("").GAME.max_seats, self.rows, self.position, settings)

    def play_worlds(self, worlds, actions, fns, params, settings, seed, first_world):
        compiled = self.part("playouts")
        batch = WorldBatch(worlds, actions, fns, params, self.part("dispatch").BUILT_IN, compiled.forced_policy,
                           self.part("records").RECORD_DTYPE)
        compiled.play_worlds_nb(*batch.arguments(settings, seed, first_world))
        return batch.out, (None if self.part("").GAME.sub_unit is None else batch.current)
