"""Benjamini-Hochberg and Holm adjusted p-values (analyser.stats.multiple) and the p-values of paired differences."""
import math

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from analyser.stats.intervals import difference_p, differences_ci
from analyser.stats.multiple import bh_adjust, holm


@pytest.mark.parametrize("seed", range(5))
def test_bh_matches_statsmodels(seed):
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(size=30), rng.uniform(0, 0.01, size=5), [0.0, 1.0, 0.02, 0.02]])
    rng.shuffle(p)
    reject, adjusted, _, _ = multipletests(p, alpha=0.05, method="fdr_bh")
    np.testing.assert_allclose(bh_adjust(p), adjusted, rtol=1e-12)
    assert ((bh_adjust(p) < 0.05) == reject).all()


def test_nan_p_values_are_not_tests():
    p = np.array([0.01, np.nan, 0.04, 0.03])
    adjusted = bh_adjust(p)
    assert math.isnan(adjusted[1])
    np.testing.assert_allclose(adjusted[[0, 2, 3]], multipletests(p[[0, 2, 3]], method="fdr_bh")[1])
    assert np.isnan(bh_adjust([np.nan])).all() and bh_adjust([]).size == 0


def test_p_values_agree_with_the_intervals():
    """p < 0.05 exactly when the score interval excludes 0 (the same score test); nothing differing gives p = 1."""
    rng = np.random.default_rng(4)
    for rate in (0.01, 0.03, 0.1, 0.4):
        for _ in range(20):
            d = np.where(rng.random(300) < rate, rng.choice([-1.0, -0.5, 0.5, 1.0, 1.0], 300), 0.0)
            ci = differences_ci(d, 1.0)
            if ci["low"] != 0 and ci["high"] != 0:          # the interval's end on 0 is the test's boundary
                assert (ci["p"] < 0.05) == (ci["low"] > 0 or ci["high"] < 0)
    assert difference_p(0.0, 0.0, 0.0) == 1.0 and math.isnan(difference_p(math.nan, 0.0, 1.0))
    assert difference_p(3.0, 0.0, 3.0) == pytest.approx(math.erfc(math.sqrt(3) / math.sqrt(2)))   # McNemar


def test_holm():
    adjusted = holm([0.01, 0.04, np.nan, 0.03, 0.5])
    assert np.allclose(adjusted[[0, 1, 3, 4]], [0.04, 0.09, 0.09, 0.5]) and np.isnan(adjusted[2])
