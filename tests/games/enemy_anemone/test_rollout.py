"""Enemy Anemone rollouts: every legal action (card and tokens) once, worlds that respect
what the discards showed, worlds that read nothing hidden, the decided action first, the CLI."""
from __future__ import annotations

import inspect

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analyses.rollout import position_at, rollout
from analyser.cli.main import app
from analyser.engine.config import RunConfig
from analyser.games.enemy_anemone.constants import ACTION, N_SUITS, SUIT_MASK
from analyser.games.enemy_anemone.kit import AnemoneKit
from analyser.games.kit import shuffle_hidden
from analyser.games.worlds import follow, sample_world
from tests.games.enemy_anemone.positions import SCRIPTED, STREAMS, step

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")
KIT = AnemoneKit()


def match(players, seed, rules=None):
    return position_at(RunConfig.build("enemy_anemone", players=players, deals=1, seed=seed, rules=rules), None)[0]


def this_hand(history):
    """The positions of the last position's hand."""
    hand = int(history[-1].pub[0]["hand"])
    return [p for p in history if int(p.pub[0]["hand"]) == hand]


def discards_shown(history):
    """(position index in the hand, seat, suits void) for every discard of the last position's hand:
    a seat discards only holding no card of a suit of the deck not yet in the trick."""
    hand = this_hand(history)
    players = int(hand[0].pub[0]["players"])
    suits = 4 if players == 2 else players
    out = []
    for j, p in enumerate(hand[:-1]):
        pb = p.pub[0]
        if pb["discard"]:
            out.append((j, int(pb["seat"]), {u for u in range(suits) if not int(pb["trick_mask"]) & int(SUIT_MASK[u])}))
    return out


def void_position(players, seeds=range(40), rules=None):
    """(seed, step, history): a decision where another seat than the mover has discarded this hand."""
    for seed in seeds:
        history = match(players, seed, rules)
        for k in range(1, len(history) + 1):
            part = history[:k]
            decision = part[-1].decision()
            if decision is None or int(part[-1].pub[0]["trick"]) < 3:
                continue
            shown = discards_shown(part)
            if any(s != decision[0] for _, s, _ in shown):
                return seed, k, part
    raise AssertionError("no such position in the seeds searched")


def knowledge(history, seat):
    """worlds.follow: its third argument is the kit, or (before it was) the kit's shuffle test."""
    kit = KIT if "kit" in inspect.signature(follow).parameters else KIT.shuffled
    return follow(history, seat, kit)


def worlds_of(history, n=200, rng_seed=0):
    seat = history[-1].decision()[0]
    position, knowledge_ = knowledge(history, seat)
    consistent = KIT.consistent(history, seat)
    return seat, [sample_world(position, knowledge_, np.random.default_rng([rng_seed, t]), consistent)
                  for t in range(n)]


def test_a_mid_hand_rollout_has_every_legal_action_once():
    seed, step_, history = void_position(4)
    pb, pv, legal = history[-1].decision()[1]
    seat = int(pb["seat"])
    r = rollout("enemy_anemone", seed=seed, step=step_ - 1, trials=100)
    cards = np.flatnonzero(legal)
    combos = 1 if pb["discard"] else (int(pb["ones"][seat]) + 1) * (int(pb["twos"][seat]) + 1)
    assert len(r.table) == cards.size * combos == len(set(r.table["id"]))
    assert {int(a) % ACTION.ONE for a in r.table["id"]} == set(cards.tolist())
    assert ((r.table["win"] >= 0) & (r.table["win"] <= 1)).all() and r.table["played"].sum() == 1


@pytest.mark.parametrize("players", [4, 3])
def test_no_world_breaks_a_shown_void_and_what_the_seat_sees_is_kept(players):
    _, _, history = void_position(players)
    seat, worlds = worlds_of(history)
    truth = history[-1].locations()
    seen = history[-1].seen_by(seat)
    shown = discards_shown(history)
    for world in worlds:
        where = world.locations()
        for name, cards in truth.items():
            assert len(where[name]) == len(cards)
            if name in seen:
                assert where[name] == cards, name
        assert sorted(c for cards in where.values() for c in cards) == sorted(world.deck())
        for _, s, void in shown:
            assert not {c % N_SUITS for c in where[f"hand{s}"]} & void, (s, void, where[f"hand{s}"])
            # every discard of the hand was in the hand at the first discard, so none is of its void
            first = next(v for _, by, v in shown if by == s)
            assert not {c % N_SUITS for c in where[f"discards{s}"]} & first
    assert len({tuple(w.locations()[f"hand{(seat + 1) % players}"]) for w in worlds}) > 1   # worlds do vary


def test_two_players_the_draws_can_bring_a_void_suit_back_and_no_more():
    """At two players a seat draws after a discard: its cards of the void suits now are at most the
    cards it drew since (the public history replayed), and the worlds stay that honest."""
    _, _, history = void_position(2)
    seat, worlds = worlds_of(history)
    hand = this_hand(history)
    other = 1 - seat
    for world in worlds:
        held = world.locations()[f"hand{other}"]
        for j, s, void in discards_shown(history):
            if s != other:
                continue
            drawn = sum(int(hand[i + 1].pub[0]["hand_len"][other]) - int(hand[i].pub[0]["hand_len"][other])
                        + (int(hand[i].pub[0]["seat"]) == other) for i in range(j, len(hand) - 1))
            assert sum(c % N_SUITS in void for c in held) <= drawn


def test_the_worlds_do_not_depend_on_the_true_hidden_deal():
    """Hold what the seat knows fixed, deal the hidden cards anew (a world respecting the voids for
    the position, any re-deal of the hidden places for the earlier ones): the same worlds."""
    _, _, history = void_position(4)
    seat, worlds = worlds_of(history, n=50)
    rng = np.random.default_rng(99)
    other = sample_world(*knowledge(history, seat), rng, KIT.consistent(history, seat))
    assert other.locations() != history[-1].locations()
    moved = [p.relocate(shuffle_hidden(p.locations(), p.seen_by(seat), rng)) for p in history[:-1]] + [other]
    _, again = worlds_of(moved, n=50)
    assert [w.locations() for w in again] == [w.locations() for w in worlds]


def final_turn(players=3, seeds=range(60)):
    """(seed, step, history, outcomes): the last turn of a one-hand match, the mover able to attach
    tokens, at most one other seat with discards (so the seat knows every card: a single world),
    and the actions' true outcomes (the rules stepping the true position) not all alike."""
    rules = {"hands": 1}
    for seed in seeds:
        history = match(players, seed, rules)
        for k, position in enumerate(history, start=1):
            decision = position.decision()
            pb = position.pub[0]
            if decision is None or pb["trick"] != pb["tricks"] - 1 or pb["turn"] != pb["turns"] - 1:
                continue
            seat = decision[0]
            if sum(int(pb["discards"][s]) > 0 for s in range(players) if s != seat) > 1:
                continue
            outcomes = {int(a): true_win(position, seat, int(a)) for a in KIT.legal_actions(decision[1])}
            if len(set(outcomes.values())) > 1:
                return seed, k, history[:k], outcomes
    raise AssertionError("no such position in the seeds searched")


def true_win(position, seat, action):
    """The seat's win share when it plays ``action`` on the true position (the match ends with it)."""
    pub, priv, hid = position.pub.copy(), position.priv.copy(), position.hid.copy()
    params = np.zeros((6, 8))
    params[seat, 0] = action
    legal = np.zeros(64, np.bool_)
    assert step(0, 0, position.settings, STREAMS, SCRIPTED, np.zeros(6, np.int64), params, pub, priv, hid, legal,
                np.zeros(0, np.int32))
    pb = pub[0]
    key = [int(pb["totals"][s]) * 16 + int(pb["ones"][s]) + int(pb["twos"][s]) for s in range(int(pb["players"]))]
    top = max(key)
    return (key[seat] == top) / key.count(top)


def test_the_action_decided_by_construction_is_ranked_first():
    seed, k, history, outcomes = final_turn()
    r = rollout("enemy_anemone", seed=seed, step=k - 1, trials=50, rules={"hands": 1}, players=3)
    got = dict(zip(r.table["id"].astype(int), r.table["win"], strict=True))
    assert got == pytest.approx(outcomes)        # one world: the rollout is the truth, exactly
    assert r.table.iloc[0]["win"] == max(outcomes.values()) > min(outcomes.values())


runner = CliRunner()


def test_the_cli_prints_a_table_and_a_bad_step_is_one_line():
    r = runner.invoke(app, ["rollout", "enemy_anemone", "--seed", "1", "--step", "11", "--trials", "100"])
    assert r.exit_code == 0, r.output
    assert "C8 +1" in r.output and "played" in r.output
    r = runner.invoke(app, ["rollout", "enemy_anemone", "--seed", "1", "--step", "5000"])
    assert r.exit_code == 2 and "so there is no step 5000" in r.output and r.output.count("\n") == 1, r.output


def brute_possible(voids, arrivals, played, hand, discards):
    """Shown.possible by enumeration: some order of the discards over the discard events and some
    arrival (deal or draw) of every card, each taking its count, such that every card arrived before
    it left and none of a void suit was held at a discard (arrived before it, left at it or later)."""
    from itertools import permutations, product

    for order in set(permutations(discards)):
        cards = [(c, np.inf) for c in hand] + [(c, t) for t, c in played] + [(c, t) for c, (t, _) in
                                                                            zip(order, voids, strict=True)]
        for slots in product(range(len(arrivals)), repeat=len(cards)):
            if any(slots.count(i) != k for i, (_, k) in enumerate(arrivals)):
                continue
            if all(arrivals[i][0] < d and not any(v >> (c % N_SUITS) & 1 and arrivals[i][0] < t <= d
                                                    for t, v in voids)
                   for (c, d), i in zip(cards, slots, strict=True)):
                return True
    return False


def test_the_void_check_is_exact_on_small_timelines():
    """Random small timelines of one seat (a deal, draws, plays, discards with the suits they showed
    void) against the enumeration above: the same verdict on every split of its cards."""
    from analyser.games.enemy_anemone.kit import Shown

    rng = np.random.default_rng(5)
    checked = {True: 0, False: 0}
    for _ in range(150):
        times = sorted(rng.choice(np.arange(0, 12), size=rng.integers(2, 5), replace=False) * 2)
        events = rng.permutation(["discard"] * rng.integers(1, 3) + ["play"] * 4)[: len(times)]
        voids = [(int(t), int(rng.integers(1, 16))) for t, e in zip(times, events, strict=True) if e == "discard"]
        played = [(int(t), int(rng.integers(0, 24))) for t, e in zip(times, events, strict=True) if e == "play"]
        draws = sorted({int(t) for t in rng.choice(np.arange(0, 12), size=rng.integers(0, 3)) * 2 + 1})
        arrivals = [(-1, int(rng.integers(1, 4)))] + [(t, 1) for t in draws]
        n = sum(k for _, k in arrivals) - len(played) - len(voids)
        if n < 0 or not voids:
            continue
        shown = Shown.__new__(Shown)
        shown.voids, shown.arrivals, shown.played = {0: voids}, {0: arrivals}, {0: [(t, c % N_SUITS) for t, c
                                                                                     in played]}
        for _ in range(4):
            cards = [int(c) for c in rng.integers(0, 24, size=n + len(voids))]
            hand, discards = cards[:n], cards[n:]
            verdict = shown.possible(0, hand, discards)
            assert verdict == brute_possible(voids, arrivals, played, hand, discards), (voids, arrivals, played,
                                                                                       hand, discards)
            checked[verdict] += 1
    assert min(checked.values()) > 20, checked


def test_the_current_hand_is_valued_beside_the_match():
    """A match's rollout also values the hand being played: its score is the hand's score in the
    match's record, its win the highest hand score (ties to more tokens, then shared), unlike the
    match's; and the table has it."""
    from analyser.engine.local import ChunkRunner

    history = match(4, 3)
    step_ = next(k for k, p in enumerate(history, start=1) if p.decision() is not None and int(p.pub[0]["trick"]) >= 2)
    part = history[:step_]
    seat, worlds = worlds_of(part, n=60)
    hand = int(part[-1].pub[0]["hand"])
    actions = np.flatnonzero(part[-1].decision()[1][-1])[:3]
    runner = ChunkRunner(RunConfig.build("enemy_anemone", players=4, deals=1, seed=3))
    out, current = KIT.play_worlds(worlds, actions, runner.fns, runner.params, runner.settings, 3, 0)
    assert np.array_equal(current[:, :, 1, :4], out["hand_score"][:, :, :4, hand])
    assert np.allclose(current[:, :, 0, :4].sum(axis=2), 1.0)
    top = out["hand_score"][:, :, :4, hand].max(axis=2)
    assert (out["hand_score"][:, :, :4, hand][current[:, :, 0, :4] > 0] == np.repeat(top[..., None], 4, 2)[
        current[:, :, 0, :4] > 0]).all()
    assert not np.array_equal(current[:, :, 0, :4], out["win"][:, :, :4])
    r = rollout("enemy_anemone", seed=3, step=step_ - 1, trials=100)
    assert r.meta["current"] == "hand" and r.table["hand_win"].between(0, 1).all()
    assert not np.allclose(r.table["hand_score"], r.table["score"])
