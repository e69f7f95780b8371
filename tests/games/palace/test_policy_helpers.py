"""The rank-mask helpers the built-in policies are made of, against plain loops over the mask."""
import numpy as np

from analyser.games.palace.constants import ACTION, N_RANKS
from analyser.games.palace.policies import all_of_rank_nb, legal_ranks_nb, lowest_rank_nb


def test_rank_masks_match_the_legal_mask():
    rng = np.random.default_rng(0)
    for _ in range(200):
        legal = np.zeros(ACTION.N, np.bool_)
        copies = rng.integers(0, 5, N_RANKS) * (rng.random(N_RANKS) < 0.4)
        for r, k in enumerate(copies):
            legal[r * 4: r * 4 + k] = True
        legal[ACTION.PICKUP] = rng.random() < 0.5
        ranks = legal_ranks_nb(legal)
        assert ranks == sum(1 << r for r in range(N_RANKS) if copies[r])
        assert lowest_rank_nb(ranks) == (int(np.flatnonzero(copies)[0]) if copies.any() else -1)
        for r in np.flatnonzero(copies):
            assert all_of_rank_nb(legal, r) == r * 4 + copies[r] - 1
