"""The worlds a Palace rollout plays are consistent with what the seat knows, and honest.

analyser.games.worlds draws a world from what one seat knows (``follow`` the unit's positions,
then ``sample_world``). These tests hold it to four promises, on positions of real seeded games
(analyser.analyses.rollout.position_at):

1. **Replay**: every world keeps what the seat knows (its hand, every location it sees, the cards
   it saw go into other hands), the sizes, and every card of the deck exactly once; and Knowledge
   itself follows a pickup and the swap.
2. **Reads nothing it should not**: the true hidden deal can be changed under a fixed information
   set without changing a single byte of the worlds drawn.
3. **Uniform**: on small end positions every consistent world is enumerated, and the sampler's
   frequencies pass a chi-square test.
4. **Independent**: different streams give different worlds (the true one about 1/worlds of the
   time), and a rollout's trials draw from distinct streams, trial t always the same.
"""
from __future__ import annotations

import copy
import math
from collections import Counter
from itertools import permutations

import numpy as np
import pytest
from scipy import stats

import analyser
from analyser.analyses import rollout as rollout_module
from analyser.analyses.rollout import knowledge_of, position_at
from analyser.engine.config import RunConfig
from analyser.games.palace.opening import OpeningWorlds
from analyser.games.worlds import Knowledge, follow, sample_world, unknown_places
from analyser.kernels.cards import parse_card

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

ALPHA = 0.001
GAMES = [(2, 2), (2, 3), (2, 5), (4, 0), (4, 1), (4, 5)]   # (players, seed); 4/5 runs past 128 actions


def whole_game(players: int, seed: int):
    """Every position of deal 0 of ``seed``: the setup, then after each action."""
    config = RunConfig.build("palace", players=players, deals=1, seed=seed)
    _, kit, runner = position_at(config, 1)
    n = sum(1 for _ in kit.play(config.seed, config.first_deal, config.players, runner.settings, runner.fns,
                                runner.params, runner.streams))
    history, _, _ = position_at(config, n - 1)
    assert len(history) == n
    return history


@pytest.fixture(scope="module")
def games():
    return {game: whole_game(*game) for game in GAMES}


def mover(position) -> int:
    return int(position.pub[0]["seat"])


def key(position) -> tuple:
    """A world as the seat's opponents would tell it apart: hands are sets, the rest ordered."""
    return tuple((name, tuple(sorted(cards)) if name.startswith("hand") else tuple(cards))
                 for name, cards in sorted(position.locations().items()))


def fields(records: np.ndarray) -> tuple:
    """A structured array's fields, byte for byte (the alignment padding between them is no state)."""
    return tuple((name, records[name].tobytes()) for name in records.dtype.names)


def records(position) -> tuple:
    return fields(position.pub), fields(position.priv), fields(position.hid)


def cases(history, players):
    """(step, seat) pairs early and late, the seat to move and another one."""
    n = len(history)
    out = []
    for step in sorted({2, 6, n // 2, n - 3, n - 1}):
        seat = mover(history[step - 1])
        out += [(step, seat), (step, (seat + 1) % players)]
    return out


def check_world(position, world, knowledge, seat):
    """The replay conditions: everything the seat knows is where it is in ``position``."""
    truth, placed = position.locations(), world.locations()    # both assert the game's bookkeeping
    assert placed.keys() == truth.keys()
    for name, cards in truth.items():
        assert len(placed[name]) == len(cards), name
    seen = position.seen_by(seat)
    assert world.seen_by(seat) == seen
    for name in seen:
        assert placed[name] == truth[name], f"seat {seat} sees {name}, yet the world moved it"
    assert sorted(c for cards in placed.values() for c in cards) == sorted(position.deck())
    for name, known in knowledge.known.items():
        assert not known - Counter(truth[name]), f"Knowledge of {name} is false"
        assert not known - Counter(placed[name]), f"a card seat {seat} knows in {name} left it"
    # the public record and the seat's own private record are what the seat sees: untouched
    assert fields(world.pub) == fields(position.pub)
    assert fields(world.priv[seat: seat + 1]) == fields(position.priv[seat: seat + 1])


# 1. Replay ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def followed(games):
    """Per game, each of its cases with what the seat knows there (follow): the next two tests' positions."""
    return {game: [(step, seat, *follow(history[:step], seat)) for step, seat in cases(history, game[0])]
            for game, history in games.items()}


@pytest.mark.parametrize("game", GAMES)
def test_every_world_keeps_what_the_seat_knows(followed, game):
    _, seed = game
    for step, seat, position, knowledge in followed[game]:
        for i in range(12):
            world = sample_world(position, knowledge, np.random.default_rng([seed, step, seat, i]))
            check_world(position, world, knowledge, seat)


@pytest.mark.parametrize("game", GAMES)
def test_knowledge_is_true_and_follows_pickups(games, game):
    """At every position, for every seat: what Knowledge says a hidden place holds is there; and
    the cards of a pile picked up into another hand are known there until they leave it."""
    players, _ = game
    history = games[game]
    pickups = 0
    for seat in range(players):
        knowledge = Knowledge(seat, history[0])
        followed: dict[str, set] = {f"hand{s}": set() for s in range(players) if s != seat}
        for before, after in zip(history, history[1:], strict=False):
            knowledge.see(after)
            a, b = before.locations(), after.locations()
            for name in followed:
                gained = Counter(b[name]) - Counter(a[name])
                if a["pile"] and not Counter(a["pile"]) - gained:       # the whole pile went in
                    followed[name] |= set(a["pile"])
                    pickups += 1
                followed[name] &= set(b[name])                          # until played
            for name, known in knowledge.known.items():
                assert not known - Counter(b[name]), f"seat {seat} 'knows' {name} holds what it does not"
            for name, cards in followed.items():
                missing = cards - set(knowledge.known.get(name, Counter()))
                assert not missing, f"seat {seat} saw {sorted(missing)} picked up into {name}, forgot them"
    assert pickups, "no pickup in this game: choose another seed"


def dealt_table(history, events):
    """The setup position as dealt, before the swap (from the trace's setup and swap events)."""
    setup = events[0]
    first = history[0].locations()
    locations = dict(first)
    dealt = history[0].relocate({**locations, **{f"hand{s}": sorted(parse_card(c) for c in hand)
                                                 for s, hand in enumerate(setup["hands"])}})
    for s, up in enumerate(setup["face_up"]):
        row = [parse_card(c) for c in up]
        assert sorted(row + [parse_card(c) for c in setup["hands"][s]]) == sorted(first[f"up{s}"] + first[f"hand{s}"])
        dealt.pub[0]["face_up"][s, : len(row)] = row                   # face-up cards are public: not relocated
    dealt.locations()                                                  # still one deck, bookkeeping right
    return dealt


def swapped_in(events):
    """Per seat, the dealt face-up cards it took into its hand at the swap."""
    setup, swaps = events[0], [e for e in events if e["type"] == "swap"]
    return {e["seat"]: {parse_card(c) for c in e["hand"]} & {parse_card(c) for c in setup["face_up"][e["seat"]]}
            for e in swaps}


def knowledge_steps(positions, seat: int, kit=None):
    """What ``follow(positions[:k], seat, kit)`` knows, for k = 1, 2, ...: its loop, followed once."""
    positions = iter(positions)
    last = next(positions)
    knowledge = Knowledge(seat, last)
    yield knowledge
    for position in positions:
        knowledge.see(position, *((kit.shuffled(last, position), kit.shown(last, position)) if kit else ()))
        last = position
        yield knowledge


def check_swap_known(games, from_deal: bool):
    """from_deal: follow from the trace's dealt table; else as the rollout does (knowledge_of).
    Checked at every step, what the seat knows followed once from the start; that it is what
    follow (knowledge_of) gives from scratch is checked at every early step (where the swapped
    cards are all still in hand) and the last (from scratch each step would be quadratic)."""
    checked = 0
    for players, seed in [(2, 2), (2, 3), (4, 0)]:
        history = games[(players, seed)]
        events = analyser.trace("palace", seed=seed, deal=0, players=players).events
        took = swapped_in(events)
        _, kit, runner = position_at(RunConfig.build("palace", players=players, deals=1, seed=seed), 1)
        config = runner.config
        if from_deal:
            start, via = [dealt_table(history, events)], None
        else:
            start = [kit.dealt(config.seed, config.first_deal, config.players, runner.settings, runner.streams)]
            via = kit
        n = len(history)
        for seat in range(players):
            steps = knowledge_steps(start + history, seat, via)
            next(steps)                                         # the dealt table: no step yet
            for step, knowledge in enumerate(steps, start=1):
                if step <= 12 or step == n:
                    if from_deal:
                        _, scratch = follow(start + history[:step], seat)
                    else:
                        _, _, scratch = knowledge_of(history[:step], seat, kit, runner)
                    assert scratch.known == knowledge.known, f"seed {seed} step {step} seat {seat}"
                hands = history[step - 1].locations()
                for s, cards in took.items():
                    if s == seat:
                        continue
                    still = cards & set(hands[f"hand{s}"])
                    checked += len(still)
                    missing = still - set(knowledge.known.get(f"hand{s}", Counter()))
                    assert not missing, (f"seed {seed} step {step}: seat {seat} saw seat {s} take {sorted(missing)} "
                                         f"from its face-up cards, and does not know them in its hand")
    assert checked, "no face-up card was swapped into a hand: choose other seeds"


def test_knowledge_follows_the_swap_from_the_dealt_table(games):
    """Given the table as dealt, Knowledge knows the face-up cards each seat took into its hand."""
    check_swap_known(games, from_deal=True)


def test_knowledge_follows_the_swap_in_the_rollout_history(games):
    """As the rollout follows it: from the kit's dealt table (RolloutKit.dealt), before the swap."""
    check_swap_known(games, from_deal=False)


def test_knowledge_knows_a_turned_face_down_card_taken_up(games):
    """Every seat saw it turned over (RolloutKit.shown), though it went from one hidden place to another."""
    from analyser.games.palace.kit import PalaceKit

    kit = PalaceKit()
    turned = 0
    for (players, _), history in games.items():
        for j in range(len(history) - 1):
            a, b = history[j].locations(), history[j + 1].locations()
            for s in range(players):
                gained = Counter(b[f"hand{s}"]) - Counter(a[f"hand{s}"])
                lost = Counter(a[f"down{s}"]) - Counter(b[f"down{s}"])
                if a["pile"] and not Counter(a["pile"]) - gained and gained & lost:
                    _, knowledge = follow(history[: j + 2], (s + 1) % players, kit)
                    turned += 1
                    assert not (gained & lost) - knowledge.known[f"hand{s}"]
    assert turned


# 2. Reads nothing it should not ---------------------------------------------------------------

def redeal_unknown(position, knowledge, rng):
    """``position`` with the cards the seat can neither see nor place shuffled among their places:
    another true deal behind the same information set."""
    locations, pool, free = unknown_places(position, knowledge)
    shuffled = iter(rng.permutation(np.array(pool, dtype=np.int64)).tolist())
    moved = {name: list(cards) for name, cards in locations.items()}
    for name, marks in free.items():
        moved[name] = [next(shuffled) if is_free else c for c, is_free in zip(locations[name], marks, strict=True)]
    return position.relocate(moved)


@pytest.mark.parametrize("game", GAMES)
def test_worlds_do_not_depend_on_the_true_hidden_cards(followed, game):
    _, seed = game
    changed = 0
    for step, seat, position, knowledge in followed[game]:
        other = redeal_unknown(position, knowledge, np.random.default_rng([99, seed, step]))
        changed += key(other) != key(position)
        for name in position.seen_by(seat):                 # the seat's information is the same
            assert other.locations()[name] == position.locations()[name]
        for name, known in knowledge.known.items():
            assert not known - Counter(other.locations()[name])
        for i in range(10):
            a = sample_world(position, knowledge, np.random.default_rng([seed, i]))
            b = sample_world(other, knowledge, np.random.default_rng([seed, i]))
            assert records(a) == records(b), f"step {step} seat {seat}: the world read the true hidden cards"
    assert changed >= len(followed[game]) // 2


# 3. Uniform, and 4. independent ---------------------------------------------------------------

def consistent_worlds(position, knowledge) -> set:
    """Every world the seat cannot tell from ``position``: each arrangement of the unknown cards over
    the unknown places, hands as sets."""
    locations, pool, free = unknown_places(position, knowledge)
    worlds = set()
    for order in permutations(pool):
        cards = iter(order)
        placed = {name: list(c) for name, c in locations.items()}
        for name, marks in free.items():
            placed[name] = [next(cards) if is_free else c for c, is_free in zip(locations[name], marks, strict=True)]
        worlds.add(key(position.relocate(placed)))
    return worlds


def world_count(position, knowledge) -> int:
    """How many worlds ``consistent_worlds`` finds, counted: the orders of the distinct unknown cards
    over the free places, over the orders of each hand's free places (hands are sets)."""
    _, pool, free = unknown_places(position, knowledge)
    hands = math.prod(math.factorial(sum(marks)) for name, marks in free.items() if name.startswith("hand"))
    return math.factorial(len(pool)) // hands


def knowledge_after_each(history, seat) -> list:
    """``follow(history[:step], seat)[1]`` for every step, followed once (``see`` rebinds what it
    knows, never changes it in place, so a shallow copy keeps each step's)."""
    knowledge = Knowledge(seat, history[0])
    out = [copy.copy(knowledge)]
    for position in history[1:]:
        knowledge.see(position)
        out.append(copy.copy(knowledge))
    return out


@pytest.fixture(scope="module")
def small_positions(games):
    """End positions of 2-player games with 3 to 6 unknown cards and 3 to 120 consistent worlds
    (chosen on the counted worlds, the chosen one enumerated)."""
    found = []
    for seed in (2, 5, 7, 10):
        history = games[(2, seed)] if (2, seed) in games else whole_game(2, seed)
        known = [knowledge_after_each(history, seat) for seat in range(2)]
        best = None
        for step in range(len(history), 1, -1):
            position = history[step - 1]
            seat = mover(position)
            knowledge = known[seat][step - 1]
            pool = unknown_places(position, knowledge)[1]
            if len(pool) > 6:
                break
            if len(pool) >= 3:
                count = world_count(position, knowledge)
                # rather one where a hand's order makes no world (fewer worlds than orders), then the most worlds
                rank = (count < math.factorial(len(pool)), count)
                if 3 <= count <= 120 and (best is None or rank > best[0]):
                    best = (rank, (seed, step, position, knowledge, seat))
        if best is not None:
            (_, count), chosen = best
            worlds = consistent_worlds(chosen[2], chosen[3])
            assert len(worlds) == count
            found.append((*chosen, worlds))
    assert len(found) >= 3
    return found


def draws(n_worlds: int) -> int:
    return max(3000, 25 * n_worlds)


@pytest.fixture(scope="module")
def drawn(small_positions) -> list:
    """Per small position, the keys of ``draws`` worlds, world i from the stream (7, seed, step, i):
    the one sample the uniformity, the true world's share and the redealt twin are tested on."""
    return [[key(sample_world(position, knowledge, np.random.default_rng([7, seed, step, i])))
             for i in range(draws(len(worlds)))]
            for seed, step, position, knowledge, _, worlds in small_positions]


def test_worlds_are_uniform_among_the_consistent_ones(small_positions, drawn):
    for (seed, step, _, _, _, worlds), sample in zip(small_positions, drawn, strict=True):
        seen = Counter(sample)
        assert set(seen) <= worlds, "a world outside the consistent ones"
        observed = [seen[w] for w in sorted(worlds)]
        p = stats.chisquare(observed).pvalue
        assert p > ALPHA, f"seed {seed} step {step}: {len(worlds)} worlds, chi-square p = {p:.2g}"


def test_frequencies_do_not_depend_on_the_true_hidden_cards(small_positions, drawn):
    """The first 1,000 worlds of the sample drawn again, on the same streams, from another true deal."""
    for (seed, step, position, knowledge, _, worlds), sample in zip(small_positions, drawn, strict=True):
        other = redeal_unknown(position, knowledge, np.random.default_rng([5, seed]))
        assert key(other) in worlds
        b = Counter(key(sample_world(other, knowledge, np.random.default_rng([7, seed, step, i]))) for i in range(1000))
        assert Counter(sample[:1000]) == b


def test_the_true_world_is_drawn_as_often_as_any_other(small_positions, drawn):
    for (seed, step, position, _, _, worlds), sample in zip(small_positions, drawn, strict=True):
        n = len(sample)
        truth = key(position)
        assert truth in worlds
        hits = sample.count(truth)
        p = stats.binomtest(hits, n, 1 / len(worlds)).pvalue
        assert p > ALPHA, f"seed {seed} step {step}: the true world {hits} times in {n}, 1/{len(worlds)} expected"


def test_different_streams_give_different_worlds(games):
    """Early in a game the worlds are many: fifty streams, fifty worlds, none of them the truth."""
    for (_, seed), history in games.items():
        position = history[2]
        seat = mover(position)
        _, knowledge = follow(history[:3], seat)
        assert math.factorial(len(unknown_places(position, knowledge)[1])) > 10 ** 12
        worlds = {key(sample_world(position, knowledge, np.random.default_rng([seed, i]))) for i in range(50)}
        assert len(worlds) == 50
        assert key(position) not in worlds


def test_rollout_trials_draw_from_their_own_streams(games, monkeypatch):
    history = games[(2, 2)]
    step = next(s for s in range(2, len(history)) if history[s - 1].decision() is not None)
    drawn = []

    real_draw = OpeningWorlds.draw

    def recording(self, rng, first=None):
        world = real_draw(self, rng, first)
        drawn.append(key(world))
        return world

    monkeypatch.setattr(OpeningWorlds, "draw", recording)

    def worlds(trials, rollout_seed=4):
        drawn.clear()
        rollout_module.rollout("palace", seed=2, deal=0, step=step - 1, players=2, trials=trials,
                               rollout_seed=rollout_seed, threads=1)
        return list(drawn)

    three = worlds(3)
    assert len(set(three)) == 3, "two trials played the same world"
    assert worlds(2) == three[:2], "trial t's world changed with the number of trials"
    assert worlds(3) == three
    assert not set(worlds(3, rollout_seed=5)) & set(three)
    _, kit, runner = position_at(RunConfig.build("palace", players=2, deals=1, seed=2), 1)
    dealt, _, knowledge = knowledge_of(history[:step], mover(history[step - 1]), kit, runner)
    sampler = kit.world_sampler(history[:step], mover(history[step - 1]), knowledge, dealt)
    spread = rollout_module.first_draws(sampler, kit, 4, step)
    assert isinstance(sampler, OpeningWorlds) and spread(0) is None
    assert three == [key(real_draw(sampler, np.random.default_rng([4, step, t]))) for t in range(3)]
