"""The race (analyser.stats.race): identical candidates are never eliminated, a better one wins and
the incumbent goes, the incumbent stays unless beaten, and over many seeds of equally good candidates
the incumbent is kept in at least 95% of races (Bonferroni over the looks, Holm within one)."""
import numpy as np
import pytest

from analyser.stats.race import race


def _player(means, deals=200, seed=0, spread=1.0):
    """Per-deal values in [0, 1]: a shared deal effect plus each candidate's own noise around its mean."""
    rng = np.random.default_rng(seed)

    def play(stage, alive):
        common = rng.normal(size=deals)
        own = rng.normal(size=(len(means), deals))
        values = 0.5 + 0.1 * common + 0.15 * spread * own + np.asarray(means)[:, None]
        return np.clip(values, 0, 1)[alive]

    return play


def test_identical_candidates_are_never_eliminated():
    def play(stage, alive):
        return np.tile(np.linspace(0, 1, 50), (len(alive), 1))

    r = race(play, 4, 4)
    assert r["out"] == [None] * 4 and r["kept"] and r["winner"] == 0
    assert r["challenger"] == 1 and r["deals"] == [200] * 4


def test_a_better_candidate_wins_and_the_incumbent_goes():
    r = race(_player([0.0, 0.0, 0.1, -0.1]), 4, 4)
    assert r["winner"] == 2 and not r["kept"] and r["challenger"] == 2
    assert r["out"][0] is not None and r["out"][3] is not None and r["out"][2] is None
    assert r["deals"][3] <= r["deals"][2]          # the eliminated stop playing


def test_the_incumbent_stays_unless_beaten():
    """A candidate a little better than the incumbent, too little to tell apart: the incumbent wins even when
    the other's mean is higher."""
    r = race(_player([0.0, 0.005], deals=100, seed=3), 2, 2)
    assert r["out"] == [None, None] and r["winner"] == 0 and r["kept"]


def test_equally_good_candidates_keep_the_incumbent_over_seeds():
    kept = [race(_player([0.0] * 6, deals=100, seed=s), 6, 4)["kept"] for s in range(300)]
    assert np.mean(kept) >= 0.95


def test_the_incumbent_must_be_a_candidate():
    with pytest.raises(ValueError):
        race(lambda s, a: np.zeros((len(a), 2)), 2, 2, incumbent=2)
