import numpy as np
import pytest
from scipy.stats import binomtest

from analyser.games.palace.state import RECORD_DTYPE
from analyser.stats.intervals import wilson
from analyser.stats.tally import Tally


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (512, 1000), (1, 1_000_000)])
def test_wilson_matches_scipy(k, n):
    low, high = wilson(k, n)
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert low == pytest.approx(ci.low, abs=1e-12) and high == pytest.approx(ci.high, abs=1e-12)


def fake_records(n, rng):
    rec = np.zeros(n, RECORD_DTYPE)
    for i in range(n):
        rec["place"][i, :4] = rng.permutation(4) + 1
    rec["win"][:, :4] = rec["place"][:, :4] < 4
    rec["actions"] = rng.integers(20, 400, n)
    rec["aborted"] = rng.random(n) < 0.05
    rec["burns"][:, :4] = rng.integers(0, 5, (n, 4))
    return rec


def test_tallies_of_chunks_merge_into_the_whole():
    rng = np.random.default_rng(0)
    rec = fake_records(1000, rng)
    events = ("picked_up", "pickups", "voluntary", "burns")
    whole = Tally(4, events, ("actions",)).add(rec)
    parts = Tally(4, events, ("actions",))
    for lo in range(0, 1000, 137):
        parts.merge(Tally(4, events, ("actions",)).add(rec[lo: lo + 137]))
    assert parts.completed == whole.completed == (~rec["aborted"]).sum()
    assert np.array_equal(parts.places, whole.places) and np.array_equal(parts.wins, whole.wins)
    assert np.array_equal(parts.seat_sums["burns"], rec["burns"][:, :4].sum(axis=0))
    for q in (0.5, 0.95):
        assert parts.actions_quantile(q) == np.quantile(rec["actions"], q, method="lower")
    assert parts.mean_actions() == pytest.approx(rec["actions"].mean())
