"""The rank-mask helpers the built-in policies are made of, against plain loops
over the mask; and the memory the ``pickup`` policy keeps."""
import numpy as np

import analyser
from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.games.dispatch import policy_kinds
from analyser.games.palace import stepwise
from analyser.games.palace.catalog import MAX_VOLUNTARY, VOLUNTARY_NO_LIMIT
from analyser.games.palace.constants import ACTION, N_RANKS
from analyser.games.palace.dispatch import BUILT_IN
from analyser.games.palace.policies import VOLUNTARY_SLOT, all_of_rank_nb, legal_ranks_nb, lowest_rank_nb
from analyser.games.palace.state import new_state_nb


def test_rank_masks_match_the_legal_mask():
    rng = np.random.default_rng(0)
    for _ in range(200):
        legal = np.zeros(ACTION.COUNT, np.bool_)
        copies = rng.integers(0, 5, N_RANKS) * (rng.random(N_RANKS) < 0.4)
        for r, k in enumerate(copies):
            legal[r * 4: r * 4 + k] = True
        legal[ACTION.PICKUP] = rng.random() < 0.5
        ranks = legal_ranks_nb(legal)
        assert ranks == sum(1 << r for r in range(N_RANKS) if copies[r])
        assert lowest_rank_nb(ranks) == (int(np.flatnonzero(copies)[0]) if copies.any() else -1)
        for r in np.flatnonzero(copies):
            assert all_of_rank_nb(legal, r) == r * 4 + copies[r] - 1


def test_pickup_picks_up_by_choice_at_most_max_voluntary_times_a_game():
    # four pickup seats, max_voluntary=3: the limit binds in many games and is never passed
    r = analyser.simulate("palace", policies=["pickup:max_voluntary=3"], deals=2000, seed=1, progress=False)
    voluntary = r.records["voluntary"][:, :4]
    assert voluntary.max() == 3
    assert (voluntary == 3).any(axis=1).mean() > 0.1


def test_four_pickup_seats_no_longer_loop_until_the_cap():
    # with four pickup seats and no limit, 23.7% of games looped until the cap;
    # with the default limit about 0.3% do, as with four saver seats
    r = analyser.simulate("palace", policies=["pickup"], deals=4000, seed=1, progress=False)
    assert r.records["aborted"].mean() < 0.01
    assert r.records["voluntary"].max() <= MAX_VOLUNTARY


def test_pickup_counts_its_voluntary_pickups_in_its_memory_per_game():
    # seats: saver, lowest, pickup, saver; deals 0..11 played one after another on the same arrays
    # (deal 7 after one of 6 voluntary pickups has none: the memory of the last game does not carry over)
    # at every deal all memory is zero; at the end the pickup seat's memory slot holds its
    # voluntary pickups of that game (every pickup it chooses is voluntary), the others' memory is untouched
    policies = ["saver", "lowest", "pickup", "saver"]
    runner = ChunkRunner(RunConfig.build("palace", players=4, policies=policies, deals=1, seed=1))
    kinds = policy_kinds(runner.fns, BUILT_IN, runner.params)
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    counts = []
    for deal in range(12):
        stepwise.begin_unit(1, deal, 4, runner.settings, runner.streams, runner.fns, kinds, runner.params,
                            pub, priv, hid, legal, log)
        assert not priv["memory"].any()
        while not stepwise.step(1, deal, runner.settings, runner.streams, runner.fns, kinds, runner.params, pub, priv,
                                hid, legal, log):
            pass
        assert priv[2]["memory"][VOLUNTARY_SLOT] == hid[0]["voluntary"][2]
        assert not priv[[0, 1, 3]]["memory"].any()
        counts.append(int(hid[0]["voluntary"][2]))
    assert sum(counts) > 12 and min(counts) < max(counts)


def test_pickup_without_a_limit_counts_nothing():
    # four pickup seats, max_voluntary at its highest: no limit, the loops are back
    # (about 1 game in 4 at the cap) and the memory stays zero, so the cycle skip sees them repeat;
    # a cap of 1,000 actions (a game of four seats plays about 150) aborts the same games, stepped in Python
    spec = f"pickup:max_voluntary={VOLUNTARY_NO_LIMIT}"
    rules = {"max_actions": 1000}
    r = analyser.simulate("palace", policies=[spec], deals=400, seed=1, progress=False, rules=rules)
    deal = int(np.flatnonzero(r.records["aborted"])[0])
    assert r.records["aborted"].mean() > 0.1
    runner = ChunkRunner(RunConfig.build("palace", players=4, policies=[spec], deals=1, seed=1, first_deal=deal,
                                         rules=rules))
    kinds = policy_kinds(runner.fns, BUILT_IN, runner.params)
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    stepwise.begin_unit(1, deal, 4, runner.settings, runner.streams, runner.fns, kinds, runner.params,
                        pub, priv, hid, legal, log)
    while not stepwise.step(1, deal, runner.settings, runner.streams, runner.fns, kinds, runner.params, pub, priv, hid,
                            legal, log):
        assert not priv["memory"].any()
    assert hid[0]["voluntary"][:4].sum() > 100
