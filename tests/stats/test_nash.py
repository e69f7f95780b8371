"""analyser.stats.nash: the maximum-entropy equilibrium of the meta-game and its bootstrap over deals."""
import numpy as np
import pytest

from analyser.stats.nash import antisymmetric, equilibrium, indistinguishable, nash_table, solve

RPS = 0.1 * np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]])


def test_rock_paper_scissors_is_the_uniform_mix_and_every_value_is_0():
    weights, values = solve(RPS)
    assert weights == pytest.approx([1 / 3] * 3, abs=1e-6) and (values == 0).all()


def test_a_transitive_game_puts_all_weight_on_the_best_and_values_the_others_against_it():
    a = np.array([[0, 0.2, 0.3], [-0.2, 0, 0.1], [-0.3, -0.1, 0]])
    weights, values = solve(a)
    assert list(weights) == [1, 0, 0] and list(values) == [0, -0.2, -0.3]


def test_two_names_for_one_policy_share_its_weight_exactly():
    """Rock twice: the equilibria split rock's third between its copies in any way; maximum entropy halves it."""
    idx = [0, 1, 2, 0]
    a = RPS[np.ix_(idx, idx)]
    weights, values = solve(a)
    assert weights[0] == weights[3] and weights[0] + weights[3] == pytest.approx(1 / 3, abs=1e-6)
    assert (values == 0).all()
    assert (equilibrium(np.zeros((3, 3))) == pytest.approx(1 / 3))


def test_the_bootstrap_over_deals_is_seeded_and_its_intervals_hold_the_estimate():
    rng = np.random.default_rng(0)
    pairs = [(0, 1), (0, 2), (1, 2)]
    values = rng.normal([0.05, -0.05, 0.05], 0.1, size=(400, 3))      # per deal, noisy rock-paper-scissors
    t1 = nash_table(["r", "p", "s"], values, pairs, seed=[1, 2], replicates=60)
    t2 = nash_table(["r", "p", "s"], values, pairs, seed=[1, 2], replicates=60)
    assert t1.equals(t2) and list(t1.columns) == ["policy", "weight", "weight_ci_low", "weight_ci_high", "value",
                                                   "value_ci_low", "value_ci_high", "indistinguishable_from"]
    assert (t1["weight_ci_low"] <= t1["weight"]).all() and (t1["weight"] <= t1["weight_ci_high"]).all()
    assert t1["weight"].sum() == pytest.approx(1) and (t1["weight_ci_high"] < 1).all()   # a mix, not one policy
    assert antisymmetric([0.1], [(0, 1)], 2).tolist() == [[0, 0.1], [-0.1, 0]]
    none = nash_table(["r", "p", "s"], values, pairs, seed=0, replicates=0)
    assert none["weight_ci_low"].isna().all() and none["weight"].sum() == pytest.approx(1)


def test_a_policy_beaten_on_every_deal_gets_a_floored_interval_not_a_zero_width_one():
    """Policy 2 loses every deal to both others (A = -1/2 on every deal): every replicate gives it the value
    -1/2, but 40 deals cannot show it never wins, so its interval is the floored one, like a 0-of-40 rate."""
    rng = np.random.default_rng(3)
    values = np.column_stack([rng.choice([-0.5, 0.0, 0.5], 40), np.full(40, 0.5), np.full(40, 0.5)])
    table = nash_table(["a", "b", "c"], values, [(0, 1), (0, 2), (1, 2)], seed=1, replicates=10).set_index("policy")
    c = table.loc["c"]
    assert c["value"] == -0.5 and c["value_ci_low"] == -0.5 and -0.5 < c["value_ci_high"] < -0.4


def test_two_noisy_copies_share_the_weight_and_their_intervals_cover_the_half():
    """a and its copy beat b; between themselves each deal is a coin (mean 0, so the truth is 1/2 each). The
    sample's noise would tip the maximum-entropy mix to one copy; held indistinguishable (in all but about
    5% of samples: the tests' level), they share it, and their intervals cover the half. The rate over 40
    samples is nash_table's classes (``indistinguishable``, on the whole sample); the table itself, nine
    solves of the equilibrium a sample, on the first ten."""
    merged, pairs = 0, [(0, 1), (0, 2), (1, 2)]
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n = 500
        values = np.column_stack([rng.choice([-0.5, 0.5], n),                 # a vs a_copy: a coin
                                  rng.choice([-0.5, 0.5], n, p=[0.3, 0.7]),   # a vs b
                                  rng.choice([-0.5, 0.5], n, p=[0.3, 0.7])])  # a_copy vs b
        classes = indistinguishable(values, pairs, 3)
        together = classes[0] == classes[1] != classes[2]
        merged += together
        if seed >= 10:
            continue
        t = nash_table(["a", "a_copy", "b"], values, pairs, seed=seed, replicates=8).set_index("policy")
        assert (t.loc["a", "indistinguishable_from"] == "a_copy") == together
        if together:
            assert t.loc["a", "weight"] == t.loc["a_copy", "weight"] == 0.5
            assert t.loc["a", "weight_ci_low"] <= 0.5 <= t.loc["a", "weight_ci_high"]
            assert t.loc["b", "indistinguishable_from"] == ""
    assert merged >= 36


def test_policies_a_paired_test_tells_apart_stay_apart():
    rng = np.random.default_rng(1)
    values = np.column_stack([rng.choice([-0.5, 0.5], 2000, p=[0.4, 0.6]), rng.normal(0.1, 0.2, 2000),
                              rng.normal(0.1, 0.2, 2000)])
    assert list(indistinguishable(values, [(0, 1), (0, 2), (1, 2)], 3)) == [0, 1, 2]
    assert list(indistinguishable(values[:, [1, 1, 2]] * [0, 1, 1], [(0, 1), (0, 2), (1, 2)], 3)) == [0, 0, 1]


def test_values_near_the_bound_cover_whatever_the_number_of_replicates():
    """a beats b (70% of deals) and c (97%); b beats c (90%): the mix is a in every replicate, and the values
    against it are b's -0.2 and c's -0.47, near the bound -1/2. Ten replicates give percentiles far inside
    the value's spread (main covered 101 of these 120 values, 84%); the part against the fixed mix is the
    delta-method interval of the per-deal values, which does not lean on the replicates' tails: the
    interval is the same at 10 and 200 replicates, and covers about 95% (a miss rate above 10% of 120 has
    about 1% chance at 95%)."""
    pairs, truth, covered = [(0, 1), (0, 2), (1, 2)], {"b": -0.2, "c": -0.47}, []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        values = np.column_stack([rng.choice([-0.5, 0.5], 500, p=[1 - q, q]) for q in (0.7, 0.97, 0.9)])
        t = nash_table(["a", "b", "c"], values, pairs, seed=seed, replicates=10).set_index("policy")
        assert list(t["weight"]) == [1, 0, 0]
        covered += [t.loc[x, "value_ci_low"] <= v <= t.loc[x, "value_ci_high"] for x, v in truth.items()]
        if seed == 0:
            more = nash_table(["a", "b", "c"], values, pairs, seed=1, replicates=200).set_index("policy")
            cols = ["value_ci_low", "value_ci_high"]
            assert np.allclose(more.loc[["b", "c"], cols], t.loc[["b", "c"], cols], atol=1e-9)
            assert (t.loc["a", cols] <= 0).all() and (t.loc["a", "value_ci_low"] <= 0)
    assert np.mean(covered) >= 0.9
