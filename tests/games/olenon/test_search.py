"""Olenon's search hooks (analyser.games.olenon.search): the legal actions as the kit lists them,
the public count of known cards as Knowledge follows them, and in-kernel worlds drawn as the
Python WorldSampler draws them (chi-square), legal, card-conserving and blind to hidden cards."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numba import njit, types
from scipy.stats import chi2_contingency

from analyser.analyses.rollout import position_at
from analyser.engine.config import RunConfig
from analyser.games.olenon import GAME
from analyser.games.olenon.constants import LEGAL_SIZE, N_VALUES, PLAYERS
from analyser.games.olenon.dispatch import RANDOM
from analyser.games.olenon.kit import OlenonKit, OlenonPosition, legal_actions
from analyser.games.olenon.rules import legal_mask_nb
from analyser.games.olenon.search import MAX_CHOICES, actions_nb, sample_worlds_nb
from analyser.games.olenon.state import HIDDEN_DTYPE, PRIVATE_DTYPE, PRIVATE_T, PUBLIC_DTYPE, PUBLIC_T
from analyser.games.worlds import Knowledge, WorldSampler, follow
from analyser.kernels.bits import mark_nb
from tests.games.olenon.positions import SCRIPTED, STREAMS, Table, action, step

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

KIT = OlenonKit()
N = 1500            # worlds a side for each chi-square test


def history_of(seed: int, rules=None) -> list:
    return position_at(RunConfig.build("olenon", deals=1, seed=seed, rules=rules), None)[0]


@pytest.fixture(scope="module")
def histories():
    return {"none": [history_of(seed, {"rounds": 3}) for seed in (1, 2, 3)],
            "open": [history_of(4, {"talk": "open"})],
            "winner": [history_of(5, {"round_starter": "winner"})]}


def decisions(history):
    """(step, position) of every real decision: ``history[:step]`` ends at it."""
    return [(i + 1, p) for i, p in enumerate(history) if p.decision() is not None]


@njit(types.int64(PUBLIC_T[::1], PRIVATE_T[::1], types.boolean[::1], types.int64[::1]), cache=True)
def engine_actions(pub, priv, legal, out):
    """actions_nb on the legal array as rules.step_nb marks it before a pointer policy's call."""
    pv = priv[pub[0]["seat"]]
    mark_nb(legal, legal_mask_nb(pub[0], pv["hand"]), LEGAL_SIZE // 8)
    return actions_nb(pub[0], pv, legal, out)


def test_actions_are_the_kits_legal_actions(histories):
    out = np.empty(MAX_CHOICES, np.int64)
    checked = 0
    for history in histories["none"] + histories["winner"]:
        for _, p in decisions(history):
            legal = np.ones(LEGAL_SIZE, np.bool_)          # what the last decision left there
            n = engine_actions(p.pub, p.priv, legal, out)
            assert out[:n].tolist() == legal_actions(p.pub[0], p.priv[int(p.pub[0]["seat"])]["hand"])
            checked += 1
    assert checked > 200


def test_known_is_what_knowledge_follows(histories):
    """pub["known"] of every hand a seat does not see is the multiset Knowledge keeps for it."""
    matter = 0
    for history in histories["none"] + histories["winner"]:
        knowing = [Knowledge(s, history[0]) for s in range(PLAYERS)]
        for before, after in zip(history[:-1], history[1:], strict=True):
            pb = after.pub[0]
            for s, knowledge in enumerate(knowing):
                knowledge.see(after, KIT.shuffled(before, after))
                for o in range(PLAYERS):
                    if o != s:
                        want = knowledge.known.get(f"hand{o}", Counter())
                        got = Counter({v: int(pb["known"][o, v]) for v in range(N_VALUES) if pb["known"][o, v]})
                        assert got == +want, (s, o, got, want)
                        matter += bool(got)
            assert (pb["known"] <= after.priv["hand"]).all()
    assert matter > 100


def fields(records) -> tuple:
    """The records' fields as bytes (not their padding, which no one reads)."""
    return tuple((name, records[name].tobytes()) for name in records.dtype.names)


def same(a, b) -> bool:
    return all(fields(x) == fields(y) for x, y in ((a.pub, b.pub), (a.priv, b.priv), (a.hid, b.hid)))


def kernel_worlds(position, count, seed=0):
    seat, (pb, pv, _) = position.decision()
    pubs, privs, hids = np.zeros(count, PUBLIC_DTYPE), np.zeros((count, PLAYERS), PRIVATE_DTYPE), \
        np.zeros(count, HIDDEN_DTYPE)
    assert sample_worlds_nb(pb, pv, seed, count, pubs, privs, hids) == count
    return [OlenonPosition(pubs[i: i + 1], privs[i], hids[i: i + 1], position.settings) for i in range(count)]


def python_worlds(history, step, count, knows=True, seed=0):
    """The rollouts' worlds (follow, then the kit's sampler); ``knows=False``: a wrong sampler that
    forgets what the seat saw go into hands."""
    position, knowledge = follow(history[:step], int(history[step - 1].pub[0]["seat"]), KIT)
    if not knows:
        knowledge = Knowledge(knowledge.seat, position)
    sampler = KIT.world_sampler(history[:step], knowledge.seat, knowledge)
    assert isinstance(sampler, WorldSampler)
    rng = np.random.default_rng(seed)
    return [sampler.draw(rng) for _ in range(count)]


def statistics(position):
    """What the chi-square tests compare: per other seat, its count of the value the seat knows most
    of in it (else of the pool's most common value), and the set-aside count of the pool's commonest."""
    pb = position.pub[0]
    seat = int(pb["seat"])
    unseen = np.zeros(N_VALUES, np.int64)
    for s in range(PLAYERS):
        if s != seat:
            unseen += position.priv[s]["hand"]
    common = int(np.argmax(unseen))
    out = []
    for s in range(PLAYERS):
        if s != seat:
            v = int(np.argmax(pb["known"][s])) if pb["known"][s].any() else common
            out.append((f"hand{s}[{v}]", lambda w, s=s, v=v: int(w.priv[s]["hand"][v])))
    out.append((f"set_aside[{common}]", lambda w: int((w.hid[0]["set_aside"] == common).sum())))
    return out


def chi_square(a: list[int], b: list[int]) -> float:
    values = sorted(set(a) | set(b))
    table = np.array([[Counter(x)[v] for v in values] for x in (a, b)])
    return 1.0 if len(values) == 1 else chi2_contingency(table)[1]


def pick(history) -> dict[str, int]:
    """Decisions early (the first), middle (a later trick, a known card in another hand), late (the
    fewest cards in hands in round 0, one known) and in a later round."""
    found = decisions(history)

    def knows(p):
        pb = p.pub[0]
        return any(pb["known"][s].any() for s in range(PLAYERS) if s != pb["seat"])

    zero = [(st, p) for st, p in found if p.pub[0]["round"] == 0]
    out = {"early": zero[0][0]}
    out["middle"] = next(st for st, p in zero if p.pub[0]["trick"] >= 2 and knows(p))
    out["late"] = min((int(p.pub[0]["hand_len"].sum()), st) for st, p in zero if knows(p))[1]
    later = [st for st, p in found if p.pub[0]["round"] > 0 and knows(p)]
    if later:
        out["later round"] = later[len(later) // 2]
    return out


def test_kernel_worlds_are_drawn_as_the_python_sampler_draws_them(histories):
    tested = 0
    for h, history in enumerate(histories["none"] + histories["winner"]):
        for when, st in pick(history).items():
            position = history[st - 1]
            ours, theirs = kernel_worlds(position, N, seed=h), python_worlds(history, st, N, seed=h)
            for name, stat in statistics(position):
                p = chi_square([stat(w) for w in ours], [stat(w) for w in theirs])
                assert p > 1e-3, (h, when, name, p)
                tested += 1
    assert tested >= 40


def test_the_chi_square_rejects_a_sampler_that_forgets_the_known_cards(histories):
    history = histories["none"][0]
    st = pick(history)["middle"]
    position = history[st - 1]
    pb = position.pub[0]
    s = next(s for s in range(PLAYERS) if s != pb["seat"] and pb["known"][s].any())
    v = int(np.argmax(pb["known"][s]))
    ours = [int(w.priv[s]["hand"][v]) for w in kernel_worlds(position, N)]
    wrong = [int(w.priv[s]["hand"][v]) for w in python_worlds(history, st, N, knows=False)]
    assert min(ours) >= pb["known"][s, v] and chi_square(ours, wrong) < 1e-3


def test_with_open_talk_the_world_is_the_real_position(histories):
    """Every hand is public: only the set-aside cards are unknown, and they are what is left."""
    for _, p in decisions(histories["open"][0])[::5]:
        for w in kernel_worlds(p, 3):
            assert np.array_equal(w.priv["hand"], p.priv["hand"])
            assert sorted(w.hid[0]["set_aside"]) == sorted(p.hid[0]["set_aside"])


def play_out(world) -> int:
    """Play a world to its match's end with the random policy in every seat, checking the kit's
    bookkeeping and the 32 cards after every step; returns the steps."""
    pub, priv, hid = world.pub.copy(), world.priv.copy(), world.hid.copy()
    for s in range(PLAYERS):
        priv[s]["rng"][0] = 11 + s
    kinds = np.full(PLAYERS, RANDOM, np.int64)
    params, legal, log = np.zeros((PLAYERS, 8)), np.zeros(LEGAL_SIZE, np.bool_), np.zeros(0, np.int32)
    steps, over = 0, False
    while not over:
        over = step(9, 0, world.settings, STREAMS, SCRIPTED, kinds, params, pub, priv, hid, legal, log)
        steps += 1
        places = OlenonPosition(pub, priv, hid, world.settings).locations()
        assert Counter(c for cs in places.values() for c in cs) == Counter(world.deck())
    assert not hid[0]["error"]
    return steps


def test_a_world_is_a_legal_position_that_plays_to_its_end(histories):
    for history in histories["none"][:2] + histories["open"]:
        for when, st in pick(history).items():
            position = history[st - 1]
            seat = int(position.pub[0]["seat"])
            here, seen = position.locations(), position.seen_by(seat)
            for w in kernel_worlds(position, 4):
                there = w.locations()                  # the kit's bookkeeping checks
                assert Counter(c for cs in there.values() for c in cs) == Counter(position.deck())
                assert {n: len(c) for n, c in there.items()} == {n: len(c) for n, c in here.items()}
                assert all(there[name] == here[name] for name in seen), when
                assert fields(w.pub) == fields(position.pub)
                assert fields(w.priv[seat: seat + 1]) == fields(position.priv[seat: seat + 1])
                assert (w.pub[0]["known"] <= w.priv["hand"]).all()
                if not position.pub[0]["round_starter"]:       # rotate: the first starter follows from the round's
                    assert w.hid[0]["first"] == position.hid[0]["first"]
                assert play_out(w) > 1


def test_the_real_hidden_cards_do_not_change_the_worlds(histories):
    """Two positions that differ only in what the seat cannot see (re-dealt by the Python sampler)
    give the same worlds for the same seed."""
    history = histories["none"][1]
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
    """Both search players, small budgets, the default horizon (the round). PIMC at 8 worlds: at 4,
    with random play-outs, a pass that won all four (seat 1 passing too) ties with going out, and the
    search keeps its heuristic's choice (1 stream in 30 at the replace)."""
    return (GAME.policy_map["pimc"].bind(worlds=8, rollout=rollout),
            GAME.policy_map["ismcts"].bind(iterations=50, rollout=rollout))


# Seat 0 can put its whole hand down and go out, which wins the round for team 0 (seats 0, 2). Every
# card not named is discarded, so the unseen cards (the other hands and the set-aside) are the few
# named here, and whatever the worlds deal seat 1 (the next seat, team 1, one card) beats or adds to
# a single card of the table's value. So the other action does not win for certain: with shed in
# every seat it loses at once, seat 1 going out on its next turn.
GOING_OUT = {
    # leading: "6 6" goes out; "6" leaves seat 1 (a 0 or a 6) to replace or add, and go out
    "lead": (dict(hands=["6 6", "0", "0 0", "6"], set_aside=[0, 0, 0, 6]), "6 6"),
    # on seat 3's "4 4": replacing with "5 5" goes out; a pass leaves one 4 to seat 1 (a 4, 5 or 6)
    "replace": (dict(hands=["5 5", "6", "4 5", "6"], leader=3, seat=0, table="4 4", set_aside=[4, 5, 6, 6]),
                "5 5"),
}


@pytest.mark.parametrize("where", GOING_OUT)
def test_an_action_that_wins_at_once_is_chosen(where):
    position, winning = GOING_OUT[where]
    t = Table(**position)
    assert len(t.legal_actions()) == 2
    random = GAME.policy_map["random"].bind()
    seeds = (1, 2, 3)                  # the seat's stream: random, the rollouts' own choice, misses on one of them
    assert any(ask(random, t, seed) != action(winning) for seed in seeds)
    for seed in seeds:
        for rollout in ("random", "shed", "tempo", "partner"):
            for policy in searches(rollout):
                assert ask(policy, t, seed) == action(winning), (policy.spec.name, rollout, seed)
