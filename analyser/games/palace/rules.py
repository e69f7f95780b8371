"""Palace rules in numba: the deal, the swap, legal actions and their effects.

Functions take the three state arrays (``pub`` of one record, ``priv`` of one
record per seat, ``hid`` of one record) and mutate them in place; ``log`` is the
trace buffer (empty when not tracing). The rule book is
``shared/rules/palace.md``; comments name the rule each branch implements.
"""
import numpy as np
from numba import njit

from analyser.core.rng import below_nb, shuffle_nb, stream_seed_nb
from analyser.games.palace.constants import (
    ACTION, DRAW_PILE, ERROR, EVENT, MAX_PLAYERS, MAX_SLOTS, MAX_SWAPS, N_CARDS,
    N_RANKS, PHASE, RANK, SOURCE,
)
from analyser.games.palace.log import log_card_nb, log_event_nb

SHORT_GAME, TEN_ON_ANYTHING, MAX_ACTIONS = 0, 1, 2   # indices into the settings row


@njit(cache=True)
def target_size_nb(players, short_game):
    """n: cards per face-down, face-up and hand at the deal."""
    if short_game or players == 4:
        return 3
    return 6 if players == 2 else 4


@njit(cache=True)
def add_to_hand_nb(pub, pv, seat, card):
    pv["has"][card] = True
    pv["counts"][card >> 2] += 1
    pub["hand_len"][seat] += 1


@njit(cache=True)
def reset_nb(pub, priv, hid):
    """Empty every field, so one set of arrays serves many deals."""
    pub.view(np.uint8)[:] = 0
    priv.view(np.uint8)[:] = 0
    hid.view(np.uint8)[:] = 0


@njit(cache=True)
def deal_nb(seed, deal, players, settings, pub, priv, hid):
    """Shuffle with the deal's stream and lay out face-down, face-up, hand, draw pile."""
    reset_nb(pub, priv, hid)
    pb = pub[0]
    hd = hid[0]
    hd["rng"][0] = stream_seed_nb(seed, deal, 0)
    for s in range(MAX_PLAYERS):
        priv[s]["rng"][0] = stream_seed_nb(seed, deal, 1 + s)
    deck = np.arange(N_CARDS).astype(np.int8)
    shuffle_nb(hd["rng"], deck)
    n = target_size_nb(players, settings[SHORT_GAME] != 0)
    pb["players"] = players
    pb["n"] = n
    pb["ten_on_anything"] = settings[TEN_ON_ANYTHING] != 0
    pb["top_rank"] = -1
    pb["phase"] = PHASE.SWAP
    k = 0
    for s in range(MAX_PLAYERS):
        for j in range(MAX_SLOTS):
            pb["face_up"][s, j] = -1
            hd["face_down"][s, j] = -1
    for s in range(players):
        for j in range(n):
            hd["face_down"][s, j] = deck[k]
            k += 1
        pb["face_down_len"][s] = n
        for j in range(n):
            pb["face_up"][s, j] = deck[k]
            k += 1
        pb["face_up_len"][s] = n
        for j in range(n):
            add_to_hand_nb(pb, priv[s], s, deck[k])
            k += 1
    for i in range(DRAW_PILE):              # deck[k] is the top of the draw pile
        hd["draw"][DRAW_PILE - 1 - i] = deck[k + i]
    pb["draw_len"] = DRAW_PILE
    k += DRAW_PILE
    for i in range(N_CARDS - k):            # short_game leaves cards out
        hd["unused"][i] = deck[k + i]
    hd["unused_len"] = N_CARDS - k


@njit(cache=True)
def strength_nb(rank):
    """How much a card is worth keeping: 10 > 2 > A > K > ... > 3."""
    if rank == RANK.TEN:
        return 14
    if rank == RANK.TWO:
        return 13
    return rank


@njit(cache=True)
def fill_swap_legal_nb(pb, pv, seat, legal):
    """Any hand rank with any face-up slot, or done."""
    legal[:] = False
    n_legal = 1
    legal[ACTION.SWAP_DONE] = True
    for r in range(N_RANKS):
        if pv["counts"][r] > 0:
            for j in range(MAX_SLOTS):
                if pb["face_up"][seat, j] >= 0:
                    legal[ACTION.SWAP + r * MAX_SLOTS + j] = True
                    n_legal += 1
    return n_legal


@njit(cache=True)
def apply_swap_nb(pb, pv, seat, action):
    r = (action - ACTION.SWAP) // MAX_SLOTS
    j = (action - ACTION.SWAP) % MAX_SLOTS
    for suit in range(4):
        card = r * 4 + suit
        if pv["has"][card]:
            break
    up = pb["face_up"][seat, j]
    pv["has"][card] = False
    pv["counts"][r] -= 1
    pv["has"][up] = True
    pv["counts"][up >> 2] += 1
    pb["face_up"][seat, j] = card


@njit(cache=True)
def log_swap_nb(pb, pv, seat, log):
    head = log_event_nb(log, EVENT.SWAP, seat, pb["hand_len"][seat])
    if head < 0:
        return
    for c in range(N_CARDS):
        if pv["has"][c]:
            log_card_nb(log, head, c)
    for j in range(MAX_SLOTS):
        if pb["face_up"][seat, j] >= 0:
            log_card_nb(log, head, pb["face_up"][seat, j])


@njit(cache=True)
def decide_nb(policies, params, pub, priv, hid, seat, legal, n_legal):
    """Ask the seat's policy when there is a choice; check what it answers."""
    hd = hid[0]
    if n_legal == 1:
        for a in range(legal.size):
            if legal[a]:
                return a
    hd["decisions"] += 1
    a = policies[seat](pub[0], priv[seat], legal, params[seat])
    if a < 0 or a >= legal.size or not legal[a]:
        hd["error"] = ERROR.ILLEGAL_ACTION
        hd["error_seat"] = seat
        hd["aborted"] = True
        return -1
    return a


@njit(cache=True)
def swap_phase_nb(policies, params, pub, priv, hid, legal, log):
    """Each seat in turn exchanges hand and face-up cards until it says done."""
    pb = pub[0]
    hd = hid[0]
    for seat in range(pb["players"]):
        pb["seat"] = seat
        for _ in range(MAX_SWAPS):
            n_legal = fill_swap_legal_nb(pb, priv[seat], seat, legal)
            a = decide_nb(policies, params, pub, priv, hid, seat, legal, n_legal)
            if a < 0:
                return
            if a == ACTION.SWAP_DONE:
                break
            apply_swap_nb(pb, priv[seat], seat, a)
            hd["actions"] += 1
        log_swap_nb(pb, priv[seat], seat, log)


@njit(cache=True)
def start_nb(pub, priv, hid):
    """The start rule: the lowest rank of 3 or above in any hand; ties by the deal's stream."""
    pb = pub[0]
    hd = hid[0]
    holders = np.zeros(MAX_PLAYERS, np.int64)
    best = N_RANKS
    n_holders = 0
    for s in range(pb["players"]):
        for r in range(RANK.THREE, N_RANKS):
            if priv[s]["counts"][r] > 0:
                if r < best:
                    best = r
                    n_holders = 0
                if r == best:
                    holders[n_holders] = s
                    n_holders += 1
                break
    pick = below_nb(hd["rng"], max(n_holders, 1))
    pb["seat"] = holders[pick]
    hd["first"] = holders[pick]
    pb["top_rank"] = best          # the rank the opening play must be
    pb["first_play"] = True
    pb["phase"] = PHASE.PLAY


@njit(cache=True)
def source_nb(pb, seat):
    if pb["hand_len"][seat] > 0:
        return SOURCE.HAND
    if pb["face_up_len"][seat] > 0:
        return SOURCE.FACE_UP
    return SOURCE.FACE_DOWN


@njit(cache=True)
def playable_nb(pb, rank):
    """May a card of this rank go on the pile?"""
    if pb["pile_len"] == 0:
        return True
    top = pb["top_rank"]
    if rank == RANK.TWO or top == RANK.TWO:
        return True
    if rank == RANK.TEN and pb["ten_on_anything"]:
        return True
    if top == RANK.NINE:
        return rank <= RANK.NINE
    return rank >= top


@njit(cache=True)
def fill_play_legal_nb(pb, pv, seat, legal):
    """Legal actions of the seat to move; returns how many there are."""
    legal[:] = False
    src = source_nb(pb, seat)
    pb["source"] = src
    n_legal = 0
    if src == SOURCE.FACE_DOWN:
        for i in range(pb["face_down_len"][seat]):
            legal[ACTION.FACE_DOWN + i] = True
            n_legal += 1
        return n_legal
    for r in range(N_RANKS):
        if src == SOURCE.HAND:
            count = pv["counts"][r]
        else:
            count = 0
            for j in range(MAX_SLOTS):
                c = pb["face_up"][seat, j]
                if c >= 0 and c >> 2 == r:
                    count += 1
        if count == 0:
            continue
        if pb["first_play"]:
            ok = r == pb["top_rank"]    # the opening play must be the start rank
        else:
            ok = playable_nb(pb, r)
        if ok:
            for k in range(count):
                legal[r * 4 + k] = True
            n_legal += count
    if n_legal > 0 and pb["pile_len"] > 0:
        legal[ACTION.PICKUP] = True     # voluntary pickup
        n_legal += 1
    elif n_legal == 0:
        legal[ACTION.PICKUP] = True     # no legal play: must pick up
        n_legal = 1
    return n_legal


@njit(cache=True)
def push_pile_nb(pb, card):
    r = card >> 2
    if pb["pile_len"] > 0 and pb["top_rank"] == r:
        pb["top_run"] += 1
    else:
        pb["top_rank"] = r
        pb["top_run"] = 1
    pb["pile"][pb["pile_len"]] = card
    pb["pile_len"] += 1


@njit(cache=True)
def burn_nb(pb, hd, seat, log):
    for i in range(pb["pile_len"]):
        pb["gone"][pb["pile"][i] >> 2] += 1
    pb["pile_len"] = 0
    pb["top_rank"] = -1
    pb["top_run"] = 0
    hd["burns"][seat] += 1
    log_event_nb(log, EVENT.BURN, seat, 0)


@njit(cache=True)
def draw_nb(pb, pv, hd, seat, log):
    """Draw up to n cards after playing from the hand."""
    head = -1
    while pb["hand_len"][seat] < pb["n"] and pb["draw_len"] > 0:
        if head < 0:
            head = log_event_nb(log, EVENT.DRAW, seat, 0)
        pb["draw_len"] -= 1
        card = hd["draw"][pb["draw_len"]]
        add_to_hand_nb(pb, pv, seat, card)
        log_card_nb(log, head, card)


@njit(cache=True)
def pickup_pile_nb(pb, pv, hd, seat, head, log):
    """Move the whole pile into the seat's hand."""
    for i in range(pb["pile_len"]):
        card = pb["pile"][i]
        add_to_hand_nb(pb, pv, seat, card)
        log_card_nb(log, head, card)
    hd["picked_up"][seat] += pb["pile_len"]
    hd["pickups"][seat] += 1
    pb["pile_len"] = 0
    pb["top_rank"] = -1
    pb["top_run"] = 0


@njit(cache=True)
def next_seat_nb(pb, seat):
    s = seat
    for _ in range(MAX_PLAYERS):
        s = (s + 1) % pb["players"]
        if pb["place"][s] == 0:
            return s
    return seat


@njit(cache=True)
def finish_nb(pb):
    """With one player left, that player is the loser and the game is over."""
    if pb["n_out"] < pb["players"] - 1:
        return False
    for s in range(pb["players"]):
        if pb["place"][s] == 0:
            pb["place"][s] = pb["players"]
    pb["phase"] = PHASE.OVER
    return True


@njit(cache=True)
def after_play_nb(pb, pv, hd, seat, src, log):
    """Burns, drawing, going out and who moves next, after cards reached the pile."""
    burned = pb["top_rank"] == RANK.TEN or pb["top_run"] >= 4
    if burned:
        burn_nb(pb, hd, seat, log)
    if src == SOURCE.HAND:
        draw_nb(pb, pv, hd, seat, log)
    if pb["hand_len"][seat] == 0 and pb["face_up_len"][seat] == 0 and pb["face_down_len"][seat] == 0:
        pb["n_out"] += 1
        pb["place"][seat] = pb["n_out"]
        log_event_nb(log, EVENT.OUT, seat, pb["n_out"])
        if finish_nb(pb):
            return
        pb["seat"] = next_seat_nb(pb, seat)
    elif not burned:
        pb["seat"] = next_seat_nb(pb, seat)


@njit(cache=True)
def apply_play_nb(pb, pv, hd, seat, action, log):
    """PLAY(rank, k) from the hand or the face-up cards."""
    r = action >> 2
    k = (action & 3) + 1
    src = pb["source"]
    head = log_event_nb(log, EVENT.PLAY, seat, src)
    if src == SOURCE.HAND:
        for suit in range(4):
            card = r * 4 + suit
            if k > 0 and pv["has"][card]:
                pv["has"][card] = False
                pv["counts"][r] -= 1
                pb["hand_len"][seat] -= 1
                push_pile_nb(pb, card)
                log_card_nb(log, head, card)
                k -= 1
    else:
        for j in range(MAX_SLOTS):
            card = pb["face_up"][seat, j]
            if k > 0 and card >= 0 and card >> 2 == r:
                pb["face_up"][seat, j] = -1
                pb["face_up_len"][seat] -= 1
                push_pile_nb(pb, card)
                log_card_nb(log, head, card)
                k -= 1
    pb["first_play"] = False
    after_play_nb(pb, pv, hd, seat, src, log)


@njit(cache=True)
def apply_face_down_nb(pb, pv, hd, seat, slot, log):
    """Turn over a face-down card: play it if legal, else take it and the pile."""
    last = pb["face_down_len"][seat] - 1
    card = hd["face_down"][seat, slot]
    hd["face_down"][seat, slot] = hd["face_down"][seat, last]
    hd["face_down"][seat, last] = -1
    pb["face_down_len"][seat] = last
    if playable_nb(pb, card >> 2):
        head = log_event_nb(log, EVENT.PLAY, seat, SOURCE.FACE_DOWN)
        log_card_nb(log, head, card)
        push_pile_nb(pb, card)
        after_play_nb(pb, pv, hd, seat, SOURCE.FACE_DOWN, log)
    else:
        head = log_event_nb(log, EVENT.PICKUP, seat, 2)  # aux 2: a failed face-down card
        log_card_nb(log, head, card)
        add_to_hand_nb(pb, pv, seat, card)
        hd["picked_up"][seat] += 1
        pickup_pile_nb(pb, pv, hd, seat, head, log)
        pb["seat"] = next_seat_nb(pb, seat)


@njit(cache=True)
def apply_pickup_nb(pb, pv, hd, seat, voluntary, log):
    head = log_event_nb(log, EVENT.PICKUP, seat, 1 if voluntary else 0)
    if voluntary:
        hd["voluntary"][seat] += 1
    pickup_pile_nb(pb, pv, hd, seat, head, log)
    pb["seat"] = next_seat_nb(pb, seat)


@njit(cache=True)
def step_nb(policies, params, settings, pub, priv, hid, legal, log):
    """One action by the seat to move. Returns True when the game is over."""
    pb = pub[0]
    hd = hid[0]
    if hd["actions"] >= settings[MAX_ACTIONS]:
        hd["aborted"] = True
        return True
    seat = pb["seat"]
    pv = priv[seat]
    n_legal = fill_play_legal_nb(pb, pv, seat, legal)
    a = decide_nb(policies, params, pub, priv, hid, seat, legal, n_legal)
    if a < 0:
        return True
    hd["actions"] += 1
    hd["turns"] += 1
    if a < ACTION.PICKUP:
        apply_play_nb(pb, pv, hd, seat, a, log)
    elif a == ACTION.PICKUP:
        apply_pickup_nb(pb, pv, hd, seat, n_legal > 1, log)
    else:
        apply_face_down_nb(pb, pv, hd, seat, a - ACTION.FACE_DOWN, log)
    return pb["phase"] == PHASE.OVER


@njit(cache=True)
def new_game_nb(seed, deal, players, settings, policies, params, pub, priv, hid, legal, log):
    """Deal, swap and find the opening player: the state before the first play."""
    deal_nb(seed, deal, players, settings, pub, priv, hid)
    swap_phase_nb(policies, params, pub, priv, hid, legal, log)
    if hid[0]["error"] == ERROR.NONE:
        start_nb(pub, priv, hid)
