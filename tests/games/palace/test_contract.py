"""Palace's own promises in random legal playouts, beside the shared kit's
(analyser.testing: cards conserved, games end, hidden information): the seat to move
is still playing and has a legal action, and a finished game places everyone."""
import numpy as np
import pytest

from analyser.games.palace.constants import ACTION, PHASE
from analyser.games.registry import get_game
from analyser.testing.checks import entry
from tests.games.palace.table import legal_actions

PALACE = get_game("palace")


@pytest.mark.parametrize("players,rules", PALACE.kit().cases(PALACE))
def test_random_playouts_move_only_players_still_in_and_place_everyone(players, rules):
    runner = entry(PALACE, players, "random", rules)
    for deal in range(4):
        positions = list(PALACE.kit().play(5, deal, players, runner.settings, runner.fns, runner.params,
                                           runner.streams))
        for pos in positions[:-1]:
            pb = pos.pub[0]
            seat = int(pb["seat"])
            assert pb["phase"] == PHASE.PLAY
            assert pb["place"][seat] == 0, "a player who is out is to move"
            assert legal_actions(pb, pos.priv[seat], seat, np.zeros(ACTION.COUNT, np.bool_))[0] >= 1
        end = positions[-1].pub[0]
        assert end["phase"] == PHASE.OVER and not positions[-1].hid[0]["aborted"]
        assert sorted(end["place"][:players]) == list(range(1, players + 1))
