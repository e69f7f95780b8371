"""Random legal playouts: every card accounted for after every action, games end, no empty move lists."""
import numpy as np
import pytest

from analyser.games.palace import stepwise
from analyser.games.palace.constants import MAX_PLAYERS, N_RANKS, PHASE
from analyser.games.palace.policies import random_policy
from analyser.games.palace.state import new_state_nb
from tests.games.palace.table import legal_actions


def locations(pub, priv, hid, players):
    """Every card's place: a list of card ids per location (burned cards excluded)."""
    pb, hd = pub[0], hid[0]
    out = {"pile": list(pb["pile"][: pb["pile_len"]]), "draw": list(hd["draw"][: pb["draw_len"]]),
           "unused": list(hd["unused"][: hd["unused_len"]])}
    for s in range(players):
        out[f"hand{s}"] = list(np.flatnonzero(priv[s]["has"]))
        out[f"up{s}"] = [c for c in pb["face_up"][s] if c >= 0]
        out[f"down{s}"] = list(hd["face_down"][s, : pb["face_down_len"][s]])
        assert pb["hand_len"][s] == len(out[f"hand{s}"])
        assert pb["face_up_len"][s] == len(out[f"up{s}"])
        counts = np.bincount(np.array(out[f"hand{s}"], dtype=int) >> 2, minlength=N_RANKS)
        assert np.array_equal(counts, priv[s]["counts"])
        plays = [int(k < counts[r]) for r in range(N_RANKS) for k in range(4)]
        held = priv[s]["plays"].view(np.uint8)
        assert list(held[: len(plays)]) == plays and not held[len(plays):].any()
    return out


def check_conservation(pub, priv, hid, players):
    held = [c for cards in locations(pub, priv, hid, players).values() for c in cards]
    assert len(held) == len(set(held)), "a card is in two places"
    burned = sorted(set(range(52)) - set(int(c) for c in held))
    assert np.array_equal(np.bincount(np.array(burned, dtype=int) >> 2, minlength=N_RANKS), pub[0]["gone"])


@pytest.mark.parametrize("players,short_game,ten", [(2, 0, 0), (3, 0, 1), (4, 0, 0), (4, 1, 0), (2, 1, 1)])
def test_random_playouts_conserve_cards_and_end(players, short_game, ten):
    settings = np.array([short_game, ten, 5000], np.int64)
    policies = (random_policy,) * MAX_PLAYERS
    params = np.zeros((MAX_PLAYERS, 8))
    params[:, 0] = 3                         # random swaps too
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    for deal in range(12):
        stepwise.new_game(5, deal, players, settings, policies, params, pub, priv, hid, legal, log)
        check_conservation(pub, priv, hid, players)
        over = False
        while not over:
            seat = pub[0]["seat"]
            assert pub[0]["place"][seat] == 0, "a player who is out is to move"
            assert legal_actions(pub[0], priv[seat], seat, legal)[0] >= 1
            over = stepwise.step(policies, params, settings, pub, priv, hid, legal, log)
            check_conservation(pub, priv, hid, players)
        assert not hid[0]["aborted"]
        assert pub[0]["phase"] == PHASE.OVER
        places = sorted(pub[0]["place"][:players])
        assert places == list(range(1, players + 1))
        assert hid[0]["actions"] < 5000
