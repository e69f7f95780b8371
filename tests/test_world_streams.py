"""One rule for a rollout world's random streams (analyser.kernels.worlds): world w of a rollout
seeded S starts the hand it is in with the streams unit w of S has in that hand, whatever the game."""
import numpy as np

from analyser.games.registry import get_game
from analyser.games.spite_and_malice.rules import begin_unit_nb
from analyser.games.spite_and_malice.state import new_state_nb
from analyser.kernels.rng import DEAL_SLOT, hand_seed_nb
from analyser.kernels.worlds import reseed_world_nb


def test_a_world_gets_the_streams_of_the_unit_of_its_number():
    streams = np.array([1, 0], np.int64)                         # seats with each other's stream ids
    game = get_game("spite_and_malice")
    settings = game.settings_row(game.default_settings())
    for world in (0, 7):
        pub, priv, hid, legal = new_state_nb()
        begin_unit_nb(5, world, 2, settings, streams, (), np.zeros(2, np.int64), np.zeros((2, 1)), pub, priv, hid,
                      legal, np.zeros(0, np.int32))              # deals round 0: its policy streams untouched
        again = priv.copy()
        deal = np.zeros(1, np.uint64)
        key = reseed_world_nb(5, world, 0, streams, deal, again)
        assert key == hid[0]["key"]
        assert np.array_equal(again["rng"], priv["rng"])
        assert deal[0] == hand_seed_nb(5, world, 0, DEAL_SLOT)
        later = priv.copy()
        reseed_world_nb(5, world, 3, streams, deal, later)       # round 3: that round's streams of the same key
        assert deal[0] == hand_seed_nb(5, world, 3, DEAL_SLOT)
        assert not np.array_equal(later["rng"], priv["rng"])
