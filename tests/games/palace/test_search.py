"""Palace's search hooks (analyser.games.palace.search) and its PIMC player.

The in-kernel world sampler is checked against the Python one it must equal in law
(analyser.games.worlds.WorldSampler with the Knowledge the rollouts follow, less the opening
clue, which the search leaves out: see the search module), by a chi-square test at positions
after pickups; the same test rejects a sampler that forgets what the pickups showed.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.games.palace import GAME, search
from analyser.games.palace.constants import ACTION, N_RANKS, PHASE
from analyser.games.palace.kit import PalaceKit, PalacePosition
from analyser.games.palace.state import HIDDEN_DTYPE, PRIVATE_DTYPE, PUBLIC_DTYPE
from analyser.games.worlds import WorldSampler, follow
from analyser.testing.checks import check_hidden_information, fresh
from tests.games.palace.table import PICKUP, PLAY, Table

KIT = PalaceKit()
LINEUP = ["saver", "lowest", "pickup", "saver"]


def runner(policies=LINEUP, players=4, **rules):
    return ChunkRunner(RunConfig.build(GAME, players=players, policies=policies[:players], deals=1, seed=0,
                                       rules=rules))


def history(unit, players=4, **rules):
    """The table as dealt (before the swap), then the positions of the unit from its first play."""
    r = runner(players=players, **rules)
    return [KIT.dealt(5, unit, players, r.settings, r.streams),
            *KIT.play(5, unit, players, r.settings, r.fns, r.params, r.streams)]


def kernel_worlds(position, n, seed=1):
    pb, pv = position.pub[0], position.priv[int(position.pub[0]["seat"])]
    pubs = np.zeros(n, PUBLIC_DTYPE)
    privs = np.zeros((n, len(position.priv)), PRIVATE_DTYPE)
    hids = np.zeros(n, HIDDEN_DTYPE)
    found = search.sample_worlds_nb(pb, pv, seed, n, pubs, privs, hids)
    assert found == n
    return [PalacePosition(pubs[i: i + 1], privs[i], hids[i: i + 1], position.settings) for i in range(n)]


def python_worlds(positions, i, n, seed=2):
    seat = int(positions[i].pub[0]["seat"])
    last, knowledge = follow(positions[: i + 1], seat, KIT)
    sampler = WorldSampler(last, knowledge)
    rng = np.random.default_rng(seed)
    return [sampler.draw(rng) for _ in range(n)]


def rank_counts(world, name):
    return np.bincount(np.array(world.locations()[name], dtype=np.int64) >> 2, minlength=N_RANKS)


def statistics(world, seat):
    """Discrete features of a world: per other seat, how many of its hand cards are 10 or higher and
    the lowest rank it holds; the top card of the draw pile; the rank under the seat's first face-down slot."""
    out = []
    for s in range(world.players):
        if s != seat and world.pub[0]["place"][s] == 0:
            counts = rank_counts(world, f"hand{s}")
            out.append(("high", s, int(counts[10:].sum())))
            out.append(("low", s, int(np.flatnonzero(counts)[0]) if counts.any() else -1))
    draw = world.locations()["draw"]
    out.append(("top", int(draw[-1]) >> 2 if draw else -1))
    down = world.locations()[f"down{seat}"]
    out.append(("down", int(down[0]) >> 2 if down else -1))
    return out


def decisions_after_pickups(positions, least=3):
    """Indices of play decisions after at least ``least`` pickups, where the knowledge matters."""
    out = []
    for i, p in enumerate(positions):
        pb = p.pub[0]
        if pb["phase"] == PHASE.PLAY and p.decision() is not None and int(pb["known"].astype(bool).sum()) >= 2:
            out.append(i)
    return out[::max(1, len(out) // least)][:least]


def chi2_pvalues(a_worlds, b_worlds, seat):
    """Per feature, the two-sample chi-square p-value of its distribution in two sets of worlds."""
    a = [dict((f[:-1], f[-1]) for f in statistics(w, seat)) for w in a_worlds]
    b = [dict((f[:-1], f[-1]) for f in statistics(w, seat)) for w in b_worlds]
    out = {}
    for key in a[0]:
        values = sorted({x[key] for x in a} | {x[key] for x in b})
        if len(values) < 2:
            continue
        table = np.array([[sum(x[key] == v for x in side) for v in values] for side in (a, b)])
        table = table[:, table.sum(axis=0) >= 10]          # cells too rare for the test's approximation
        if table.shape[1] >= 2:
            out[key] = chi2_contingency(table)[1]
    return out


@pytest.fixture(scope="module")
def late():
    """A unit with pickups and three decisions after them."""
    for unit in range(40):
        positions = history(unit)
        chosen = decisions_after_pickups(positions)
        if len(chosen) == 3:
            return positions, chosen
    raise AssertionError("no unit with knowledge to test")


def test_actions_are_the_kits_legal_actions():
    for unit in range(3):
        for p in history(unit):
            decision = p.decision(forced=True)
            if decision is None:
                continue
            _, (pb, pv, legal) = decision
            out = np.zeros(search.MAX_CHOICES, np.int64)
            n = search.actions_nb(pb, pv, legal, out)
            assert list(out[:n]) == list(KIT.legal_actions((pb, pv, legal)))


def test_a_world_is_a_legal_position_that_keeps_what_the_seat_sees(late):
    positions, chosen = late
    for i in chosen:
        real = positions[i]
        seat = int(real.pub[0]["seat"])
        seen = real.seen_by(seat) - {"burned"}              # burned cards are public by rank only
        before = real.locations()
        for world in kernel_worlds(real, 50):
            after = world.locations()                     # its bookkeeping assertions hold
            for name in before:
                if name in seen:
                    assert after[name] == before[name], name
                else:
                    assert len(after[name]) == len(before[name]), name
            for s in range(real.players):                  # the cards every seat saw go into a hand stay there
                known = [c for c in range(52) if int(real.pub[0]["known"][s]) >> c & 1]
                assert set(known) <= set(after[f"hand{s}"])
            assert np.array_equal(rank_counts(world, "burned"), rank_counts(real, "burned"))


def test_kernel_worlds_match_the_python_sampler(late):
    positions, chosen = late
    for i in chosen:
        seat = int(positions[i].pub[0]["seat"])
        pvalues = chi2_pvalues(kernel_worlds(positions[i], 1500), python_worlds(positions, i, 1500), seat)
        assert pvalues, "no feature varied"
        assert min(pvalues.values()) > 1e-3, pvalues


def test_the_chi_square_sees_a_sampler_that_forgets_the_pickups(late):
    positions, chosen = late
    rejected = 0
    for i in chosen:
        real = positions[i]
        seat = int(real.pub[0]["seat"])
        forgetful = PalacePosition(real.pub.copy(), real.priv, real.hid, real.settings)
        forgetful.pub[0]["known"][:] = 0
        pvalues = chi2_pvalues(kernel_worlds(forgetful, 1500), python_worlds(positions, i, 1500), seat)
        rejected += min(pvalues.values()) < 1e-3
    assert rejected >= 2


def test_worlds_depend_only_on_what_the_seat_sees(late):
    positions, chosen = late
    rng = np.random.default_rng(3)
    for i in chosen:
        real = positions[i]
        seat = int(real.pub[0]["seat"])
        other = real.redeal(seat, rng)
        a = kernel_worlds(real, 20)
        b = kernel_worlds(other, 20)
        for x, y in zip(a, b, strict=True):
            assert x.locations() == y.locations()


def pimc(**values):
    return GAME.policy_map["pimc"].bind(**values)


def ismcts(**values):
    return GAME.policy_map["ismcts"].bind(**values)


def searches(rollout):
    """Both search players, small budgets, with the rollout heuristic ``rollout``."""
    return pimc(worlds=4, rollout=rollout), ismcts(iterations=50, rollout=rollout)


def ask(policy, t):
    """The policy's action at a Table's position, and the seat's stream after it."""
    t.legal[:] = False
    pb, pv = t.pub[0], t.priv[int(t.pub[0]["seat"])]
    from tests.games.palace.table import legal_actions
    legal_actions(pb, pv, int(pb["seat"]), t.legal)
    args = fresh((pb, pv, t.legal))
    action = policy.spec.function(*args, policy.engine_row(GAME, t.settings, t.players))
    return int(action), int(args[1]["rng"][0])


def test_an_action_that_wins_at_once_is_chosen():
    # seat 0  hand: 9H (its last card)    pile: 4S    seat 1 hand: 3C 5D KH, face-down 3 cards
    # playing the 9 goes out, and with two players the other seat is the loser; picking up does not.
    t = Table(hands=["9H", "3C 5D KH"], face_down=["", "6C 7C 8C"], pile="4S", seat=0)
    for rollout in ("random", "saver", "lowest"):
        for policy in searches(rollout):
            assert ask(policy, t)[0] == PLAY("9", 1), (policy.spec.name, rollout)


def test_an_action_that_wins_at_once_is_chosen_over_the_heuristics_choice():
    # seat 0  hand: KH (its last card)    pile: 4S    seat 1 hand: one card, nothing else
    # playing the K goes out and wins; picking up loses for certain: seat 1 then leads its last card
    # onto the empty pile and goes out. pickup (and random, on some streams) picks up here, so a
    # search that kept its heuristic's choice, or played a random action, would fail.
    t = Table(hands=["KH", "3C"], pile="4S", seat=0)
    assert ask(GAME.policy_map["pickup"].bind(), t)[0] == PICKUP
    for rollout in ("pickup", "random", "saver"):
        for policy in searches(rollout):
            assert ask(policy, t)[0] == PLAY("K", 1), (policy.spec.name, rollout)


def test_a_forced_move_costs_no_search():
    # seat 0 can only pick up (a 3 on a king): no world is drawn, so its stream is untouched
    t = Table(hands=["3H", "4C 5D KH"], face_down=["6C", "7C 8C 9C"], pile="KS", seat=0)
    start = int(t.priv[0]["rng"][0])
    action, after = ask(pimc(worlds=64), t)
    assert action == ACTION.PICKUP == PICKUP and after == start


def test_one_thread_and_two_give_the_same_records():
    import numba

    config = RunConfig.build(GAME, players=4, policies=["pimc:worlds=4", "saver", "pickup", "lowest"], deals=6,
                             seed=3)
    r = ChunkRunner(config)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = r.run(0, 6)
        numba.set_num_threads(2)
        two = r.run(0, 6)
    finally:
        numba.set_num_threads(before)
    assert one.tobytes() == two.tobytes()


def test_the_search_is_honest_in_the_line_up():
    checked, changed = check_hidden_information(GAME, KIT, ["pimc:worlds=4,rollout=lowest"], 3, {}, units=2,
                                                lineup=["pimc:worlds=2", "saver", "lowest"])
    assert checked >= 20 and changed >= checked // 2
