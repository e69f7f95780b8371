"""Palace's worlds keep what the opening play showed (analyser.games.palace.opening), exactly.

The sampler draws the past: which unknown cards each hand held after the swap. On a small case
every past is enumerated (each card's slot, the rules' constraints, the opener's chance 1/k) and
the worlds' frequencies pass a chi-square test against it, a case where drawing the present
uniformly would fail; on real games every world keeps what the seat knows, and none gives a hand
a card it showed it did not hold.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy import stats

from analyser.analyses.rollout import knowledge_of, position_at
from analyser.engine.config import RunConfig
from analyser.games.palace.opening import Line, OpeningWorlds, Past, is_low, rank
from tests.test_worlds import check_world, key, mover, whole_game

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

R = 3                                   # the opening rank: a 5 (rank index 3), so 3s and 4s are low
PLAYED = {1: [(2, 12), (3, 4), (4, 16)],   # seat 1 opened with a 5 (card 12), played a 3, then a 6 (either kind)
          2: [(3, 15)]}                      # seat 2 played a 5 after two draws: held since the swap, or drawn
POOL = [5, 9, 13, 20, 0]                # a 3, a 4, a 5, a 7 and a 2 unknown to seat 0
SLOTS = {1: ["o", "o", "d", "d", "d"], 2: ["o", "d", "d"]}      # opening and drawn slots of seats 1 and 2
OTHER = [("down1", 0)]


def small_past() -> Past:
    lines = {1: Line(2, PLAYED[1], lambda c: is_low(c, R)), 2: Line(1, PLAYED[2], lambda c: is_low(c, R))}
    hand_places = {1: [("hand1", 0), ("hand1", 1)], 2: [("hand2", 0), ("hand2", 1)]}
    places = hand_places[1] + hand_places[2] + OTHER
    return Past(R, lines, {1: [], 2: []}, True, places, hand_places, POOL)


def world_key(placed: dict) -> tuple:
    return (frozenset(placed[("hand1", i)] for i in range(2)), frozenset(placed[("hand2", i)] for i in range(2)),
            placed[("down1", 0)])


def enumerated() -> Counter:
    """Every past: each card of seat 0's unknowns (played ones included) in a slot, kept if the rules
    allow it, weighted by the opener's chance 1/k (seat 0 holds a 5 too); mapped to the world now.
    The cards are placed one at a time on the slots the rules allow them (the allowed orders of all
    9! orders of the cards over the slots, found without trying the others)."""
    slots = [(s, i) for s in SLOTS for i in range(len(SLOTS[s]))] + OTHER
    opening = {(s, i) for s in SLOTS for i, kind in enumerate(SLOTS[s]) if kind == "o"}
    played = {card: (s, a) for s, cards in PLAYED.items() for a, card in cards}
    cards = [c for s in PLAYED for _, c in PLAYED[s]] + POOL

    def allowed(card, slot) -> bool:
        if is_low(card, R) and slot in opening:
            return False
        if card in played:
            s, a = played[card]
            return slot[0] == s and slot[1] < a
        return True

    def pasts(at: dict, free: list):
        if len(at) == len(cards):
            yield at
            return
        card = cards[len(at)]
        for slot in free:
            if allowed(card, slot):
                yield from pasts({**at, card: slot}, [x for x in free if x != slot])

    weights = Counter()
    for at in pasts({}, slots):
        k = 1 + 1 + any(rank(c) == R and at[c] == (2, 0) for c in cards)
        now = {}
        for s in SLOTS:
            held = [c for c in cards if at[c][0] == s and c not in played]
            now.update({(f"hand{s}", i): c for i, c in enumerate(held)})
        for place in OTHER:
            now[place] = next(c for c in cards if at[c] == place)
        weights[world_key(now)] += 1 / k
    return weights


def test_the_past_is_drawn_exactly_on_a_small_case():
    """8,000 pasts: the chi-square at p > 0.001 fails drawing the present uniformly (chance
    1 - 1e-12) and a sampler that forgets the opener's chance 1/k (its worlds 0.04 from these in
    total variation; noncentrality 80 on 29 degrees of freedom) 99.9% of the time."""
    truth = enumerated()
    total = sum(truth.values())
    past = small_past()
    rng = np.random.default_rng(5)
    seen = Counter()
    while sum(seen.values()) < 8_000:
        placed = past.sample(rng)
        if placed is not None:
            seen[world_key(placed)] += 1
    assert set(seen) <= set(truth), "a world no past allows"
    worlds = sorted(truth, key=repr)
    n = sum(seen.values())
    expected = [n * truth[w] / total for w in worlds]
    p = stats.chisquare([seen[w] for w in worlds], expected).pvalue
    assert p > 0.001, f"chi-square p = {p:.2g} over {len(worlds)} worlds"
    # not a case any sampler passes: the worlds are far from equally likely
    share = np.array([truth[w] / total for w in worlds])
    assert np.abs(share - 1 / len(worlds)).sum() / 2 > 0.1


def sampler_at(history, step, seat):
    """The rollout's sampler of the position before action ``step`` for ``seat``."""
    config = RunConfig.build("palace", players=history[0].players, deals=1, seed=SEEDS[history[0].players])
    _, kit, runner = position_at(config, 1)
    dealt, _, knowledge = knowledge_of(history[:step], seat, kit, runner)
    return kit.world_sampler(history[:step], seat, knowledge, dealt), knowledge


SEEDS = {2: 2, 4: 22}


def test_worlds_respect_what_the_opening_play_showed():
    """Seed 22, 4 players: the game opens with a 4, so no hand held a 3 after the swap; just after
    the opening no other hand but the opener's has drawn, so none holds a 3 in any world."""
    history, _, _ = position_at(RunConfig.build("palace", players=4, deals=1, seed=22), 2)
    opener = mover(history[0])
    assert [c >> 2 for c in history[1].locations()["pile"]] == [2]     # rank index 2: a 4
    seat = mover(history[1])
    sampler, _ = sampler_at(history, 2, seat)
    for i in range(300):
        world = sampler.draw(np.random.default_rng([22, i])).locations()
        assert not any(c >> 2 == 1 for s in range(4) if s not in (seat, opener) for c in world[f"hand{s}"])


@pytest.mark.parametrize("players", [2, 4])
def test_every_world_keeps_what_the_seat_knows_and_the_past_agrees(players):
    history = whole_game(players, SEEDS[players])
    for step in sorted({1, 2, 6, len(history) // 2, len(history) - 2}):
        for seat in {mover(history[step - 1]), (mover(history[step - 1]) + 1) % players}:
            if step == 1 and seat != mover(history[0]):
                continue                       # before the opening play only the opener knows its rank
            sampler, knowledge = sampler_at(history, step, seat)
            assert isinstance(sampler, OpeningWorlds) and not sampler.spreads
            worlds = [sampler.draw(np.random.default_rng([players, step, seat, i])) for i in range(30)]
            for world in worlds:
                check_world(history[step - 1], world, knowledge, seat)
            assert len({key(w) for w in worlds}) > 1 or len(sampler.pool) <= 1
