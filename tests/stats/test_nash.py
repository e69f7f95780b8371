"""analyser.stats.nash: the maximum-entropy equilibrium of the meta-game and its bootstrap over deals."""
import numpy as np
import pytest

from analyser.stats.nash import antisymmetric, equilibrium, nash_table, solve

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
                                                   "value_ci_low", "value_ci_high"]
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
    table = nash_table(["a", "b", "c"], values, [(0, 1), (0, 2), (1, 2)], seed=1, replicates=50).set_index("policy")
    c = table.loc["c"]
    assert c["value"] == -0.5 and c["value_ci_low"] == -0.5 and -0.5 < c["value_ci_high"] < -0.4
