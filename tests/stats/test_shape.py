"""The shape measures on synthetic units whose answers are known."""
import itertools
import math

import numpy as np
import pytest
from scipy.stats import norm

from analyser.stats import shape
from analyser.stats.evaluator import Evaluator, brier, cross_fit, reliability


def _walk_probs(path: np.ndarray) -> np.ndarray:
    """A fair walk's chances: side A's is Phi(S_t / sqrt(steps left + 1)), B's the rest (level: 1/2 each)."""
    n = len(path)
    left = np.arange(n, 0, -1)
    a = norm.cdf(path / np.sqrt(left))
    return np.stack([a, 1 - a], axis=1)


def test_walk_lead_changes_enumerated():
    """Every path of a 12-step walk, equally likely: the mean lead changes is the formula's."""
    steps = 12
    changes = [shape.lead_changes(_walk_probs(np.cumsum(s))) for s in itertools.product((-1, 1), repeat=steps)]
    assert np.mean(changes) == pytest.approx(shape.walk_lead_changes(steps), abs=1e-12)


def test_walk_lead_changes_simulated():
    rng = np.random.default_rng(3)
    steps = 60
    changes = [shape.lead_changes(_walk_probs(np.cumsum(rng.choice((-1, 1), steps)))) for _ in range(4000)]
    se = np.std(changes) / math.sqrt(len(changes))
    assert abs(np.mean(changes) - shape.walk_lead_changes(steps)) < 4 * se
    assert shape.walk_lead_changes(steps) == pytest.approx(0.5 * sum(math.comb(2 * k, k) / 4 ** k
                                                                     for k in range(1, 30)))


def _race(rng, halftime_wins: bool, steps: int = 21, sides: int = 3):
    """A race: noise leads in the first half, then the half-time leader pulls away (or falls back)."""
    p = rng.dirichlet(np.ones(sides), size=steps)
    half = steps // 2
    lead = int(np.argmax(p[half]))
    winner = lead if halftime_wins else (lead + 1) % sides
    for t in range(half + 1, steps):
        share = 0.5 + 0.5 * (t - half) / (steps - 1 - half)
        p[t] = (1 - share) / (sides - 1)
        p[t, winner] = share
    return p, winner


def test_comeback_rate_zero_when_the_half_time_leader_wins():
    rng = np.random.default_rng(5)
    s = shape.shape_summary([_race(rng, True) for _ in range(300)])
    assert s["comeback"]["mean"] == 0 and s["comeback"]["low"] == 0 and 0 < s["comeback"]["high"] < 0.02


def test_comeback_rate_one_when_the_half_time_leader_loses():
    rng = np.random.default_rng(6)
    s = shape.shape_summary([_race(rng, False) for _ in range(300)])
    assert s["comeback"]["mean"] == 1


def test_decisive_point_and_drama():
    p = np.array([[0.5, 0.5], [0.3, 0.7], [0.95, 0.05], [0.6, 0.4], [0.92, 0.08], [1.0, 0.0]])
    assert shape.decisive_point(p, 0) == pytest.approx(4 / 5)
    assert shape.decisive_point(p, 1) == 1.0
    assert shape.drama(p, 0) == pytest.approx(0.4 / 6)
    at = [0, 0.1, 0.2, 0.3, 0.7, 1.0]                  # rows not evenly spaced: their own shares
    assert shape.decisive_point(p, 0, at=at) == 0.7 and shape.comeback(p, 1, at) == 1.0
    assert shape.lead_changes(p) == 1             # the level start is no leader: B, then A


def test_length_quantile_interval_covers():
    """The order-statistic interval of the median covers the true median in about 95% of samples."""
    rng = np.random.default_rng(7)
    hits = [lo <= math.log(2) <= hi for _, lo, hi in
            (shape.quantile_ci(rng.exponential(size=200), 0.5) for _ in range(400))]
    assert 0.92 <= np.mean(hits) <= 0.985


def test_end_shares_and_support():
    ways = shape.end_shares(["a", "b", "a", "aborted"], order=["b", "a"])
    assert [w["way"] for w in ways] == ["b", "a", "aborted"] and ways[1]["share"] == 0.5
    s = shape.support_entropy([0.5, 0.5, 0.0], low=[0.3, 0.0, 0], high=[0.7, 0.6, 0.1])
    assert (s["support"], s["entropy_bits"], s["support_low"], s["support_high"]) == (2, 1.0, 1, 3)


def test_dominant():
    pairs = [("a", "b", 0.1, 0.01), ("a", "c", 0.2, 0.001), ("b", "c", -0.05, 0.2)]
    assert shape.dominant(["a", "b", "c"], pairs) == "a"
    pairs[0] = ("a", "b", 0.1, 0.2)
    assert shape.dominant(["a", "b", "c"], pairs) is None


def test_evaluator_beats_the_base_rate_and_is_calibrated():
    """Units whose features tell the winner's odds (a known logit): the fitted chances are out of
    sample, beat the base rate and their reliability bins agree with what came true."""
    rng = np.random.default_rng(11)
    units, steps, sides = 400, 10, 3
    left = np.sqrt(1 - np.arange(steps) / (steps - 1))[None, :, None, None]
    x = rng.normal(size=(units, 1, sides, 1)) + left * rng.normal(size=(units, steps, sides, 1))
    truth = np.exp(1.5 * x[..., 0])
    truth /= truth.sum(axis=2, keepdims=True)
    winners = np.array([rng.choice(sides, p=truth[u, -1]) for u in range(units)])
    y = np.repeat(np.eye(sides)[winners], steps, axis=0)
    unit = np.repeat(np.arange(units), steps)
    progress = np.tile(np.arange(steps) / (steps - 1), units)
    probs, base = cross_fit(x.reshape(-1, sides, 1), y, unit, progress)
    b = brier(probs, base, y, unit)
    assert b["gain_ci_low"] > 0 and b["skill"] > 0.05
    last = np.arange(units) * steps + steps - 1
    model = Evaluator.fit(x.reshape(-1, sides, 1)[last], y[last], np.ones(units), np.zeros(units))
    assert model.beta[0] / model.scale[0] == pytest.approx(1.5, abs=0.4)
    for row in reliability(probs[last], y[last]):
        if row["predictions"] >= 100:
            assert abs(row["predicted"] - row["observed"]) < 0.12
