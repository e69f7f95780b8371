"""A policy's decision must not change when the cards it cannot see are dealt differently."""
import numpy as np
import pytest

from analyser.games.palace import stepwise
from analyser.games.palace.constants import MAX_PLAYERS
from analyser.games.palace.policies import POLICIES, random_policy
from analyser.games.palace.state import new_state_nb
from tests.games.palace.table import give_hand, legal_actions


def redeal_hidden(pub, priv, hid, seat, rng):
    """Shuffle the other seats' hand cards, all face-down cards and the draw pile among themselves."""
    pub2, priv2, hid2 = pub.copy(), priv.copy(), hid.copy()
    pb, hd = pub2[0], hid2[0]
    players = pb["players"]
    others = [s for s in range(players) if s != seat]
    pool = [c for s in others for c in np.flatnonzero(priv2[s]["has"])]
    pool += [c for s in range(players) for c in hd["face_down"][s, : pb["face_down_len"][s]]]
    pool += list(hd["draw"][: pb["draw_len"]])
    pool = list(rng.permutation(pool))
    for s in others:
        size = int(pb["hand_len"][s])
        give_hand(pb, priv2[s], s, pool[:size])
        del pool[:size]
    for s in range(players):
        size = int(pb["face_down_len"][s])
        hd["face_down"][s, :size] = pool[:size]
        del pool[:size]
    hd["draw"][: pb["draw_len"]] = pool
    return pub2, priv2, hid2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_decisions_ignore_hidden_cards(players):
    rng = np.random.default_rng(players)
    settings = np.array([0, 0, 5000], np.int64)
    walkers = (random_policy,) * MAX_PLAYERS
    walk_params = np.zeros((MAX_PLAYERS, 8))
    pub, priv, hid, legal = new_state_nb()
    log = np.zeros(0, np.int32)
    checked = 0
    changed = 0
    for deal in range(6):
        stepwise.new_game(11, deal, players, settings, walkers, walk_params, pub, priv, hid, legal, log)
        over = False
        while not over:
            seat = int(pub[0]["seat"])
            if legal_actions(pub[0], priv[seat], seat, legal)[0] > 1:
                pub2, priv2, hid2 = redeal_hidden(pub, priv, hid, seat, rng)
                changed += not np.array_equal(hid2["draw"], hid["draw"]) or not np.array_equal(
                    hid2["face_down"], hid["face_down"])
                for spec in POLICIES:
                    row = spec.bind().row()
                    a = spec.fn(pub[0], priv[seat].copy(), legal.copy(), row)
                    b = spec.fn(pub2[0], priv2[seat].copy(), legal.copy(), row)
                    assert a == b, f"{spec.name} changed its decision when hidden cards were re-dealt"
                checked += 1
            over = stepwise.step(walkers, walk_params, settings, pub, priv, hid, legal, log)
    assert checked > 100 and changed > 10
