"""Swap decisions ignore what a seat cannot see.

The shared kit (analyser.testing) checks decisions from the first play on; the swap
runs inside the deal. Here every seat's swap is replayed after re-dealing
everything that seat cannot see (the other hands, every face-down card, the
draw pile): its final hand and face-up cards must not change. A policy that
reads the other seats' face-up cards (public) is included: with seats swapping
one after another, seat 1 would see seat 0's swapped row, which depends on
seat 0's hand, and this test fails.
"""
import numpy as np
import pytest
from numba import njit, types

from analyser.games.palace.constants import ACTION, MAX_PLAYERS, MAX_SLOTS, PHASE
from analyser.games.palace.rules import deal_nb, swap_phase_nb
from analyser.games.palace.state import HIDDEN_T, POLICIES_T, POLICY_SIG, PRIVATE_T, PUBLIC_T, new_state_nb
from analyser.kernels.rng import below_nb
from tests.games.palace.table import give_hand

STREAMS = np.arange(MAX_PLAYERS, dtype=np.int64)
SETTINGS = np.array([0, 0, 5000], np.int64)


@njit(types.void(POLICIES_T, types.float64[:, ::1], types.Array(PUBLIC_T, 1, "C"), types.Array(PRIVATE_T, 1, "C"),
                 types.Array(HIDDEN_T, 1, "C"), types.boolean[::1], types.int32[::1]), cache=True)
def swap(policies, params, pub, priv, hid, legal, log):
    swap_phase_nb(policies, params, pub[0], priv, hid[0], legal, log)


@njit(POLICY_SIG, cache=True)
def table_reader(pub, pv, legal, params):
    """Makes (sum of the ranks of the other seats' face-up cards) % 4 random
    swaps, counted in its memory: it reads public cards, which must be as dealt."""
    if pub["phase"] != PHASE.SWAP:
        return -1
    ranks = 0
    for s in range(pub["players"]):
        for j in range(MAX_SLOTS):
            c = pub["face_up"][s, j]
            if s != pub["seat"] and c >= 0:
                ranks += c >> 2
    if pv["memory"][0] >= ranks % 4:
        return ACTION.SWAP_DONE
    pv["memory"][0] += 1
    n = 0
    for a in range(ACTION.SWAP, ACTION.SWAP_DONE):
        n += legal[a]
    k = below_nb(pv["rng"], n)
    for a in range(ACTION.SWAP, ACTION.SWAP_DONE):
        if legal[a]:
            if k == 0:
                return a
            k -= 1
    return ACTION.SWAP_DONE


def redeal_unseen(pub, priv, hid, seat, rng):
    """Copies with the cards ``seat`` cannot see shuffled among their places (sizes kept)."""
    pub, priv, hid = pub.copy(), priv.copy(), hid.copy()
    pb, hd = pub[0], hid[0]
    players = int(pb["players"])
    others = [s for s in range(players) if s != seat]
    pool = [c for s in others for c in np.flatnonzero(priv[s]["has"])]
    pool += [c for s in range(players) for c in hd["face_down"][s, : pb["face_down_len"][s]]]
    pool += list(hd["draw"][: pb["draw_len"]])
    pool = list(rng.permutation(pool))
    for s in others:
        size = int(pb["hand_len"][s])
        give_hand(pb, priv[s], s, pool[:size])
        del pool[:size]
    for s in range(players):
        size = int(pb["face_down_len"][s])
        hd["face_down"][s, :size] = pool[:size]
        del pool[:size]
    hd["draw"][: pb["draw_len"]] = pool
    return pub, priv, hid


def swapped(pub, priv, hid, policies, params):
    """Each seat's (hand, face-up row) after the swap phase."""
    pub, priv, hid = pub.copy(), priv.copy(), hid.copy()
    legal = np.zeros(ACTION.COUNT, np.bool_)
    swap(policies, params, pub, priv, hid, legal, np.zeros(0, np.int32))
    assert hid[0]["error"] == 0
    return [(list(np.flatnonzero(priv[s]["has"])), list(pub[0]["face_up"][s])) for s in range(pub[0]["players"])]


def policies_under_test():
    from analyser.games.palace.catalog import POLICIES

    heuristics = [spec for spec in POLICIES if not spec.search]     # search players: tests/test_search_players.py
    out = [(spec.name, spec.function, spec.bind().row()) for spec in heuristics]
    out += [(f"{spec.name}:swap={rule}", spec.function, spec.bind(swap=rule).row())
            for spec in POLICIES for rule in (2, 3) if spec.name == "saver"]
    return out + [("table_reader", table_reader, np.zeros(8))]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_swap_decisions_ignore_what_the_seat_cannot_see(players):
    rng = np.random.default_rng(players)
    moved = 0
    for name, fn, row in policies_under_test():
        policies, params = (fn,) * MAX_PLAYERS, np.tile(row, (MAX_PLAYERS, 1))
        for deal in range(12):
            pub, priv, hid, _ = new_state_nb()
            deal_nb(3, deal, players, SETTINGS, STREAMS, pub, priv, hid)
            before = swapped(pub, priv, hid, policies, params)
            for seat in range(players):
                pub2, priv2, hid2 = redeal_unseen(pub, priv, hid, seat, rng)
                after = swapped(pub2, priv2, hid2, policies, params)
                assert after[seat] == before[seat], f"{name} at seat {seat} swapped otherwise after a re-deal"
                moved += after != before
    assert moved > 50, "the re-deals hardly changed anything"
