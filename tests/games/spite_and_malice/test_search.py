"""Spite & Malice's search hooks (analyser.games.spite_and_malice.search): the legal actions as the
kit lists them, and in-kernel worlds drawn as the Python WorldSampler draws them (chi-square),
legal, card-conserving and blind to the hidden cards."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numba import njit, types
from scipy.stats import chi2_contingency

from analyser.analyses.rollout import position_at
from analyser.engine.config import RunConfig
from analyser.games.spite_and_malice import GAME
from analyser.games.spite_and_malice.constants import LEGAL_SIZE, N_VALUES, PLAYERS
from analyser.games.spite_and_malice.dispatch import RANDOM
from analyser.games.spite_and_malice.kit import SpiteKit, SpitePosition, legal_actions
from analyser.games.spite_and_malice.rules import legal_nb
from analyser.games.spite_and_malice.search import MAX_CHOICES, actions_nb, sample_worlds_nb
from analyser.games.spite_and_malice.state import HIDDEN_DTYPE, PRIVATE_DTYPE, PRIVATE_T, PUBLIC_DTYPE, PUBLIC_T
from analyser.games.worlds import WorldSampler, follow
from tests.games.spite_and_malice.positions import SCRIPTED, STREAMS, Table, action, step

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

KIT = SpiteKit()
N = 1500            # worlds a side for each chi-square test
SHORT = {"payoff_size": 6, "target": 7}


def history_of(seed: int, rules=None) -> list:
    return position_at(RunConfig.build("spite_and_malice", deals=1, seed=seed, rules=rules), None)[0]


@pytest.fixture(scope="module")
def histories():
    return {"default": [history_of(1, {"rounds": 1}), history_of(2, {"rounds": 1})],
            "four": [history_of(3, {"centre_piles": 4, "refill_empty_hand": "on", "stock_out": "at_once",
                                    "payoff_size": 10, "rounds": 2})],
            "short": [history_of(4, SHORT), history_of(5, SHORT)]}


def decisions(history):
    """(step, position) of every real decision: ``history[:step]`` ends at it."""
    return [(i + 1, p) for i, p in enumerate(history) if p.decision() is not None]


@njit(types.int64(PUBLIC_T[::1], PRIVATE_T[::1], types.boolean[::1], types.int64[::1]), cache=True)
def engine_actions(pub, priv, legal, out):
    """actions_nb on the legal array as rules.step_nb marks it before a pointer policy's call."""
    seat = pub[0]["seat"]
    legal_nb(pub[0], priv[seat]["hand"], seat, legal)
    return actions_nb(pub[0], priv[seat], legal, out)


def test_actions_are_the_kits_legal_actions(histories):
    out = np.empty(MAX_CHOICES, np.int64)
    checked = most = 0
    for history in histories["default"] + histories["four"]:
        for _, p in decisions(history):
            legal = np.ones(LEGAL_SIZE, np.bool_)          # what the last decision left there
            n = engine_actions(p.pub, p.priv, legal, out)
            seat = int(p.pub[0]["seat"])
            assert out[:n].tolist() == legal_actions(p.pub[0], p.priv[seat]["hand"], seat)
            checked += 1
            most = max(most, n)
    assert checked > 500 and 20 < most <= MAX_CHOICES


def fields(records) -> tuple:
    """The records' fields as bytes (not their padding, which no one reads)."""
    return tuple((name, records[name].tobytes()) for name in records.dtype.names)


def same(a, b) -> bool:
    return all(fields(x) == fields(y) for x, y in ((a.pub, b.pub), (a.priv, b.priv), (a.hid, b.hid)))


def kernel_worlds(position, count, seed=0):
    _, (pb, pv, _) = position.decision()
    pubs, privs, hids = np.zeros(count, PUBLIC_DTYPE), np.zeros((count, PLAYERS), PRIVATE_DTYPE), \
        np.zeros(count, HIDDEN_DTYPE)
    assert sample_worlds_nb(pb, pv, seed, count, pubs, privs, hids) == count
    return [SpitePosition(pubs[i: i + 1], privs[i], hids[i: i + 1], position.settings) for i in range(count)]


def python_worlds(history, step, count, shuffles=True, seed=0):
    """The rollouts' worlds (follow, then the kit's sampler); ``shuffles=False``: a wrong sampler
    that follows the unit without the kit, so it takes no completed pile for a shuffle and keeps
    its twelve cards in the stock."""
    position, knowledge = follow(history[:step], int(history[step - 1].pub[0]["seat"]), KIT if shuffles else None)
    sampler = KIT.world_sampler(history[:step], knowledge.seat, knowledge)
    assert isinstance(sampler, WorldSampler)
    rng = np.random.default_rng(seed)
    return [sampler.draw(rng) for _ in range(count)]


def statistics(position):
    """What the chi-square tests compare: the other hand's count of the pool's commonest value, the
    stock's next card, the card under the seat's own payoff top and the other's (when there is one),
    and the stock's count of the commonest value."""
    pb = position.pub[0]
    seat = int(pb["seat"])
    other = 1 - seat
    pool = Counter(c for name, cs in position.locations().items() if name not in position.seen_by(seat) for c in cs)
    common = max(range(1, N_VALUES + 1), key=lambda v: (pool[v], v))
    out = [(f"hand{other}[{common}]", lambda w: int(w.priv[other]["hand"][common])),
           ("next draw", lambda w: int(w.hid[0]["stock"][int(w.pub[0]["stock_len"]) - 1])),
           (f"stock[{common}]", lambda w: int((w.hid[0]["stock"][: int(w.pub[0]["stock_len"])] == common).sum()))]
    for s in range(PLAYERS):
        if pb["payoff_len"][s] >= 2:
            under = int(pb["payoff_len"][s]) - 2
            out.append((f"under payoff{s}", lambda w, s=s, under=under: int(w.hid[0]["payoff"][s, under])))
    return out


def chi_square(a: list[int], b: list[int]) -> float:
    values = sorted(set(a) | set(b))
    table = np.array([[Counter(x)[v] for v in values] for x in (a, b)])
    return 1.0 if len(values) == 1 else chi2_contingency(table)[1]


def completions(history, step) -> int:
    return int(history[step - 1].hid[0]["completed"].sum())


def pick(history) -> dict[str, int]:
    """Decisions early (the first), middle (the first after a completed pile, the stock shuffled),
    late (the fewest cards in the stock) and, in a match of several rounds, in a later round."""
    found = decisions(history)
    zero = [st for st, p in found if p.pub[0]["round"] == 0]
    out = {"early": zero[0]}
    out["after a completion"] = next(st for st in zero if completions(history, st) > 0)
    out["late"] = min((int(history[st - 1].pub[0]["stock_len"]), st) for st in zero)[1]
    later = [st for st, p in found if p.pub[0]["round"] > 0]
    if later:
        out["later round"] = later[len(later) // 2]
    return out


def test_kernel_worlds_are_drawn_as_the_python_sampler_draws_them(histories):
    tested = 0
    for h, history in enumerate(histories["default"] + histories["four"] + histories["short"][:1]):
        for when, st in pick(history).items():
            position = history[st - 1]
            ours, theirs = kernel_worlds(position, N, seed=h), python_worlds(history, st, N, seed=h)
            for name, stat in statistics(position):
                p = chi_square([stat(w) for w in ours], [stat(w) for w in theirs])
                assert p > 1e-3, (h, when, name, p)
                tested += 1
    assert tested >= 40


def test_the_chi_square_rejects_a_sampler_that_keeps_a_completed_pile_in_the_stock(histories):
    """The power check: right after a build pile was completed (and shuffled into the stock), a
    sampler that knows its twelve cards are in the stock puts more of them there than ours."""
    history = histories["default"][0]
    found = [st for st, _ in decisions(history)]
    st = next(st for st in found if completions(history, st) > completions(history, st - 1))
    position = history[st - 1]

    def stock(w):       # the stock's cards of value 3 or less
        return int((w.hid[0]["stock"][: int(w.pub[0]["stock_len"])] <= 3).sum())

    ours = [stock(w) for w in kernel_worlds(position, N)]
    wrong = [stock(w) for w in python_worlds(history, st, N, shuffles=False)]
    right = [stock(w) for w in python_worlds(history, st, N, seed=1)]
    assert chi_square(ours, right) > 1e-3 and chi_square(ours, wrong) < 1e-3


def play_out(world) -> int:
    """Play a world to its match's end with the random policy in every seat, checking the kit's
    bookkeeping and the 104 cards after every step; returns the steps."""
    pub, priv, hid = world.pub.copy(), world.priv.copy(), world.hid.copy()
    for s in range(PLAYERS):
        priv[s]["rng"][0] = 11 + s
    kinds = np.full(PLAYERS, RANDOM, np.int64)
    params, legal, log = np.zeros((PLAYERS, 8)), np.zeros(LEGAL_SIZE, np.bool_), np.zeros(0, np.int32)
    steps, over = 0, False
    while not over:
        over = step(9, 0, world.settings, STREAMS, SCRIPTED, kinds, params, pub, priv, hid, legal, log)
        steps += 1
        places = SpitePosition(pub, priv, hid, world.settings).locations()
        assert Counter(c for cs in places.values() for c in cs) == Counter(world.deck())
    assert not hid[0]["error"] and not hid[0]["aborted"]
    return steps


def test_a_world_is_a_legal_position_that_plays_to_its_end(histories):
    for history in histories["short"]:
        for when, st in pick(history).items():
            position = history[st - 1]
            seat = int(position.pub[0]["seat"])
            here, seen = position.locations(), position.seen_by(seat)
            for w in kernel_worlds(position, 3):
                there = w.locations()                  # the kit's bookkeeping checks
                assert Counter(c for cs in there.values() for c in cs) == Counter(position.deck())
                assert {n: len(c) for n, c in there.items()} == {n: len(c) for n, c in here.items()}
                assert all(there[name] == here[name] for name in seen), when
                assert fields(w.pub) == fields(position.pub)
                assert fields(w.priv[seat: seat + 1]) == fields(position.priv[seat: seat + 1])
                assert w.hid[0]["rounds_played"] == position.hid[0]["rounds_played"]
                if position.pub[0]["round"] == 0:
                    assert w.hid[0]["first"] == position.hid[0]["first"]
                assert play_out(w) > 1


def test_the_real_hidden_cards_do_not_change_the_worlds(histories):
    """Two positions that differ only in what the seat cannot see (re-dealt by the Python sampler)
    give the same worlds for the same seed."""
    history = histories["default"][1]
    for when, st in pick(history).items():
        position = history[st - 1]
        worlds = kernel_worlds(position, 50, seed=3)
        for other in python_worlds(history, st, 3, seed=8):
            assert not same(other, position)
            again = kernel_worlds(other, 50, seed=3)
            assert all(same(a, b) for a, b in zip(worlds, again, strict=True)), when


def ask(policy, t, seed=None):
    """The policy's action at a Table's position (StateTable.ask), its legal actions marked."""
    legal = np.zeros(LEGAL_SIZE, np.bool_)
    legal[t.legal_actions()] = True
    return t.ask(policy, GAME, legal, PLAYERS, seed)


def searches(rollout):
    """Both search players, small budgets, their defaults otherwise (the round's score margin). Not
    smaller: at 4 worlds PIMC's default margin (3 standard errors) keeps its heuristic's choice unless
    that lost in every world, and a random heuristic's choice here wins some random play-outs (36 of
    40 streams found the win). ISMCTS reads its results, score margins a few hundredths apart, on the
    range it has seen; before it did (c against the raw margins), 50 iterations spread its visits
    almost evenly over the 18 actions and found the win on 9 of 20 streams with random play-outs."""
    return (GAME.policy_map["pimc"].bind(worlds=8, rollout=rollout),
            GAME.policy_map["ismcts"].bind(iterations=50, rollout=rollout))


def test_an_action_that_wins_at_once_is_chosen():
    # seat 0's payoff pile is its last card, a 5, which fits build pile 0 (showing 4) and no other:
    # playing it wins the round. Every other action loses it for certain with builder in both seats:
    # the hand's 5 onto pile 0 takes the pile away (no pile shows 4 again, nothing else builds, so a
    # discard follows), and a discard ends the turn, when seat 1 plays its own last payoff card, an Ace,
    # onto the empty pile 1 (seat 0 holds no Ace or King to fill it first).
    t = Table(payoffs=["5", "A"], hands=["5 5 9 J Q", "2 7 10 10 Q"], builds=["A 2 3 4", "", "A 2 3 4 5 6"])
    winning = action("P>b0")
    legal = t.legal_actions()
    assert winning in legal and len(legal) == 2 + 4 * 4         # the two builds, four values onto four piles
    random = GAME.policy_map["random"].bind()
    seeds = (1, 2, 3)                  # the seat's stream: random, the rollouts' own choice, misses on one of them
    assert any(ask(random, t, seed) != winning for seed in seeds)
    for seed in seeds:
        for rollout in ("random", "builder", "patient", "blocker"):
            for policy in searches(rollout):
                assert ask(policy, t, seed) == winning, (policy.spec.name, rollout, seed)
