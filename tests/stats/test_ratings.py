"""analyser.stats.ratings: Bradley-Terry by statsmodels recovers a planted ordering and its strengths."""
import math

import numpy as np
import pytest

from analyser.stats.ratings import ELO_SCALE, MODEL, bradley_terry, win_probability

STRENGTH = {"a": 1.2, "b": 0.5, "c": 0.0, "d": -0.8}


def planted(games=3000, seed=0):
    rng = np.random.default_rng(seed)
    first, second, w1, w2 = [], [], [], []
    names = list(STRENGTH)
    for x in range(len(names)):
        for y in range(x + 1, len(names)):
            p = 1 / (1 + math.exp(-(STRENGTH[names[x]] - STRENGTH[names[y]])))
            w = rng.binomial(games, p)
            first.append(names[x]), second.append(names[y]), w1.append(w), w2.append(games - w)
    return first, second, w1, w2


def test_recovers_a_planted_ordering_and_strengths():
    fit = bradley_terry(["c", "a", "b", "d"], *planted(), reference="c")
    t = fit.table.set_index("policy")
    assert list(fit.table["policy"]) == ["a", "b", "c", "d"] and list(fit.table["rank"]) == [1, 2, 3, 4]
    for name, beta in STRENGTH.items():
        assert t.loc[name, "ci_low"] <= beta <= t.loc[name, "ci_high"], name
    assert t.loc["c", "rating"] == 0 and t.loc["c", "se"] == 0
    assert t.loc["a", "elo"] == pytest.approx(ELO_SCALE * t.loc["a", "rating"])
    assert fit.model == MODEL and fit.describe().endswith("reference: c")
    assert fit.df_resid == 3 and fit.dispersion < 3 and fit.converged
    assert win_probability(fit, "a", "d") == pytest.approx(1 / (1 + math.exp(-2.0)), abs=0.03)


def test_the_default_reference_is_the_first_name_and_differences_do_not_depend_on_it():
    f1 = bradley_terry(["a", "b", "c", "d"], *planted()).table.set_index("policy")["rating"]
    f2 = bradley_terry(["d", "c", "b", "a"], *planted()).table.set_index("policy")["rating"]
    assert f1["a"] == 0 and f2["d"] == 0
    assert (f1 - f1["d"]).to_dict() == pytest.approx((f2 - f2["d"]).to_dict(), abs=1e-6)


def test_a_clean_sweep_stays_finite_and_fractional_counts_work():
    fit = bradley_terry(["x", "y"], ["x"], ["y"], [20.0], [0.0])
    row = fit.table.set_index("policy").loc["y"]
    assert np.isfinite(row["rating"]) and row["rating"] < -2 and row["ci_high"] < 0
    half = bradley_terry(["x", "y"], ["x"], ["y"], [10.5], [10.5]).table.set_index("policy")
    assert half.loc["y", "rating"] == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("args", [
    (["x"], ["x"], ["x"], [1], [1]),                          # one name
    (["x", "x"], ["x"], ["x"], [1], [1]),                     # duplicate names
    (["x", "y", "z"], ["x"], ["y"], [1], [1]),                # z never plays
    (["x", "y"], ["x"], ["y"], [-1], [1]),                    # negative wins
])
def test_bad_input(args):
    with pytest.raises(ValueError):
        bradley_terry(*args)
