"""Relative skill and the luck share (analyser.stats.skill) on toys whose values are known
(analyser.testing.skill_toys); benchmarks/calibrate_skill.py runs the coverage over 100 seeds."""
import numpy as np
import pytest

from analyser.stats.skill import luck_share, relative_skill
from analyser.testing.skill_toys import luck_toy, skill_toy


def rs(p, deals=400, seed=0, **kw):
    return relative_skill(*skill_toy(p, deals, np.random.default_rng(seed)), span=1.0, seed=seed, **kw)


def test_coin_flip_toy_gives_an_interval_around_0():
    r = rs(0.0)
    assert r["ci_low"] <= 0 <= r["ci_high"]
    assert r["ci_high"] - r["ci_low"] > 0.05
    assert r["le_ci_low"] <= 0 <= r["le_ci_high"] and r["re_ci_low"] > 0.4


def test_toy_without_chance_gives_1_with_an_interval_for_the_deals_not_seen():
    r = rs(1.0)
    assert r["rs"] == 1.0 and r["re_identical"]
    assert r["ci_high"] == 1.0
    assert 0.95 < r["ci_low"] < 1.0          # RE may still be up to its bound for the deals not seen


def test_rs_moves_monotonically_with_p():
    values = [rs(p, deals=3000, seed=1)["rs"] for p in (0.1, 0.3, 0.5, 0.7, 0.9)]
    assert np.all(np.diff(values) > 0)
    assert values == pytest.approx([0.1, 0.3, 0.5, 0.7, 0.9], abs=0.05)


def test_rs_interval_covers_the_truth_on_most_seeds():
    runs = [rs(0.5, deals=200, seed=s, bootstrap=500) for s in range(30)]
    hits = sum(r["ci_low"] <= 0.5 <= r["ci_high"] for r in runs)
    assert 26 <= hits <= 30


def test_rs_does_not_depend_on_the_results_scale_and_drops_a_deal_missing_for_anyone():
    b, s, o = skill_toy(0.4, 300, np.random.default_rng(3))
    plain = relative_skill(b, s, o, seed=2)
    scaled = relative_skill(2 * b - 1, 2 * s - 1, 2 * o - 1, seed=2)
    assert scaled["rs"] == pytest.approx(plain["rs"]) and scaled["ci_low"] == pytest.approx(plain["ci_low"])
    s = s.copy()
    s[0] = np.nan
    gone = relative_skill(b, s, o, seed=2)
    assert gone["deals"] == 299 and gone["dropped"] == 1


def test_rs_has_no_interval_when_its_denominator_may_be_0():
    zeros = np.zeros(50)
    r = relative_skill(zeros, zeros, zeros)
    assert np.isnan(r["rs"]) and np.isnan(r["ci_low"]) and not r["bounded"]


def test_luck_share_by_hand():
    # 3 deals x 2 replays, one seat: deal means 1, 0, 0.5; MSB = 2 * var([1, 0, .5]) = 0.5,
    # MSW = mean of var([1, 1]), var([0, 0]), var([1, 0]) = 0.5 / 3; ICC = (1/2 - 1/6) / (1/2 + 1/6) = 1/2
    y = np.array([[1, 1], [0, 0], [1, 0]], float)
    out = luck_share(y, bootstrap=200)
    assert out["luck_share"] == pytest.approx(0.5)
    assert out["msb"] == pytest.approx(0.5) and out["msw"] == pytest.approx(1 / 6)


def test_luck_share_of_deterministic_play_is_1_with_a_width():
    y = np.repeat(luck_toy(1.0, 200, 1, np.random.default_rng(0)), 3, axis=1)    # every replay the same
    out = luck_share(y)
    assert out["identical"] and out["luck_share"] == 1.0 and out["ci_high"] == 1.0
    assert out["ci_low"] < 1.0


@pytest.mark.parametrize("icc", [0.0, 0.5])
def test_luck_share_covers_the_toys_value(icc):
    out = luck_share(luck_toy(icc, 400, 4, np.random.default_rng(5)), seed=5)
    assert out["ci_low"] <= icc <= out["ci_high"]
    assert out["deals"] == 400 and out["replays"] == 4


def test_luck_share_grows_with_the_toys_value_and_drops_an_aborted_replay():
    values = [luck_share(luck_toy(icc, 2000, 3, np.random.default_rng(7)), bootstrap=50)["luck_share"]
              for icc in (0.1, 0.4, 0.7)]
    assert np.all(np.diff(values) > 0)
    y = luck_toy(0.4, 100, 3, np.random.default_rng(7))
    y[4, 1, :] = np.nan
    assert luck_share(y, bootstrap=50)["deals"] == 99
