"""Benjamini-Hochberg and Holm adjusted p-values and the p-values of paired means (analyser.stats.multiple)."""
import math

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from analyser.stats.intervals import mean_ci
from analyser.stats.multiple import bh_adjust, holm, mean_p, normal_p


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
    """p < 0.05 exactly when the floored normal interval excludes 0; an exact tie has p = 1."""
    for mean in (0.0, 0.01, 0.02, 0.05):
        low, high = mean_ci(mean, 0.04, 400)
        p = mean_p(mean, 0.04, 400)
        assert (p < 0.05) == (low > 0 or high < 0)
        assert normal_p(mean, (high - low) / 2) == pytest.approx(p)
    assert mean_p(0.0, 0.0, 300, tie=True) == 1.0
    assert mean_p(0.0, 0.0, 300) == 1.0 and mean_p(0.5, 0.0, 300) < 1e-6       # the floor: never a zero se
    assert normal_p(0.0, 0.0) == 1.0 and normal_p(0.1, 0.0) == 0.0 and math.isnan(normal_p(math.nan, 1))


def test_holm():
    adjusted = holm([0.01, 0.04, np.nan, 0.03, 0.5])
    assert np.allclose(adjusted[[0, 1, 3, 4]], [0.04, 0.09, 0.09, 0.5]) and np.isnan(adjusted[2])
