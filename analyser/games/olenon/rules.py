"""Olenon rules in numba: the deal, turns, tricks, rounds.

A match is played one action (a play, a replace or a pass) at a time by
``step_nb``, for simulation, traces and the test kit alike: between two steps
the state names the seat to act (``pub["seat"]``). ``begin_unit_nb`` deals
the first round. The entry points take the three state arrays (``pub`` of one
record, ``priv`` of one per seat, ``hid`` of one); helpers take records (``pb``,
``pv``, ``hd``). The rule book is docs/rules/olenon.md; comments name the rule
each branch implements. Everything is a ``kernel``: no allocation, no refcounts.
"""
import numpy as np

from analyser.games.olenon.constants import (
    ACTION,
    DECK,
    EVENT,
    HAND,
    LEGAL_SIZE,
    N_CARDS,
    N_VALUES,
    PLAYERS,
    REASON,
    SET_ASIDE,
    SETTING,
    TABLE,
)
from analyser.games.olenon.dispatch import decide_nb, reads_legal_nb
from analyser.kernels.bits import BIT, NONE, lowest_nb, mark_nb
from analyser.kernels.eventlog import log_event_nb, log_value_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.loops import unit_loop
from analyser.kernels.records import illegal_action_nb, reset_nb
from analyser.kernels.reveal import reveal_nb
from analyser.kernels.rng import (
    DEAL_SLOT,
    POLICY_SLOT,
    STREAMS_PER_HAND,
    UNIT_STREAM,
    below_nb,
    keyed_seed_nb,
    shuffle_from_nb,
    unit_key_nb,
)
from analyser.kernels.search_row import REVEAL

# PUT_BITS[w, m]: the actions that put 1..m cards of value w down; REPLACE_BIT[w, k]: replacing k cards by w.
PUT_BITS = np.array([[sum(1 << (w * 4 + i) for i in range(m)) for m in range(TABLE + 1)] for w in range(N_VALUES)],
                    np.uint64)
REPLACE_BIT = np.array([[0] + [1 << (w * 4 + k - 1) for k in range(1, TABLE + 1)] for w in range(N_VALUES)],
                       np.uint64)
PASS_BIT = np.uint64(1 << ACTION.PASS)
# BEATING[v]: every replace action (any count) of a value that beats v: higher, or 0 over 6.
BEATING = np.array([sum(1 << (w * 4 + i) for w in range(N_VALUES) if w > v or (w == 0 and v == N_VALUES - 1)
                        for i in range(TABLE)) for v in range(N_VALUES)], np.uint64)


@kernel
def begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """No rounds won, the first starter from the match's own stream, round 0 dealt.
    False: no match ends before its first action (the shape of every game: analyser.games)."""
    reset_nb(pub, priv, hid)
    pb = pub[0]
    hd = hid[0]
    pb["rounds"] = settings[SETTING.ROUNDS]
    pb["talk"] = settings[SETTING.TALK]
    pb["round_starter"] = settings[SETTING.ROUND_STARTER]
    hd["winner"] = -1
    hd["key"] = unit_key_nb(seed, unit)
    hd["rng"][0] = keyed_seed_nb(hd["key"], UNIT_STREAM)
    hd["first"] = below_nb(hd["rng"], PLAYERS)
    start_round_nb(seed, unit, streams, pub, priv, hid, hd["first"], log)
    return False


@kernel
def start_round_nb(seed, unit, streams, pub, priv, hid, starter, log):
    """Shuffle the 32 cards from the round's own stream, deal 7 each, set 4 aside
    unseen; each seat's policy stream for the round; ``starter`` leads."""
    pb = pub[0]
    hd = hid[0]
    r = pb["round"]
    deck = hd["deck"]
    for i in range(N_CARDS):
        deck[i] = DECK[i]
    key = hd["key"]
    hd["rng"][0] = keyed_seed_nb(key, r * STREAMS_PER_HAND + DEAL_SLOT)
    shuffle_from_nb(hd["rng"], deck, SET_ASIDE)      # deck[:4] is set aside: its order does not matter
    for s in range(PLAYERS):
        pv = priv[s]
        for v in range(N_VALUES):
            pv["hand"][v] = 0
            pb["known"][s, v] = 0       # a new deal: nothing is known of any hand
        for i in range(HAND):
            pv["hand"][deck[SET_ASIDE + s * HAND + i]] += 1
        pv["rng"][0] = keyed_seed_nb(key, r * STREAMS_PER_HAND + POLICY_SLOT + streams[s])
        pb["hand_len"][s] = HAND
    for i in range(SET_ASIDE):
        hd["set_aside"][i] = deck[i]
    for v in range(N_VALUES):
        pb["discarded"][v] = 0
    pb["starter"] = starter
    pb["trick"] = 0
    hd["round_actions"] = 0
    new_trick_nb(pb, starter)
    show_hands_nb(pb, priv)
    if log.size > 0:
        head = log_event_nb(log, EVENT.DEAL, r, starter, 0, 0)
        for i in range(N_CARDS):             # the hands, then the set-aside cards
            log_value_nb(log, head, deck[(SET_ASIDE + i) % N_CARDS])


@inline_kernel
def new_trick_nb(pb, leader):
    pb["leader"] = leader
    pb["seat"] = leader
    pb["table_len"] = 0
    pb["table_value"] = -1
    pb["owner"] = -1
    for s in range(PLAYERS):
        pb["passed"][s] = -1


@inline_kernel
def show_hands_nb(pb, priv):
    """talk=open: every hand is public (the ``open`` counts); talk=none leaves them zero."""
    if pb["talk"] == 1:
        for s in range(PLAYERS):
            for v in range(N_VALUES):
                pb["open"][s, v] = priv[s]["hand"][v]


@inline_kernel
def legal_mask_nb(pb, hand):
    """The seat's legal actions as a mask (bit a = action a). An empty table: any
    1-4 cards of one value. A table of k cards of value v: add v's up to 4 in all,
    replace with exactly k cards of a value that beats v (higher, or 0 over 6), or pass."""
    k = pb["table_len"]
    mask = NONE
    if k == 0:
        for w in range(N_VALUES):
            mask |= PUT_BITS[w, min(hand[w], TABLE)]
        return mask
    v = pb["table_value"]
    held = NONE                     # the values held k times or more, as replace actions of k cards
    for w in range(N_VALUES):       # a fixed count, no data-dependent branch: this runs at most turns
        held |= REPLACE_BIT[w, k] * np.uint64(hand[w] >= k)
    return PUT_BITS[v, min(hand[v], TABLE - k)] | PASS_BIT | (held & BEATING[v])


@inline_kernel
def put_nb(pb, pv, hd, seat, value, count, log):
    """Play (onto an empty table, or add to it) or replace; the seat becomes the
    owner. Returns True when it put down its last card (it goes out)."""
    k = pb["table_len"]
    old = pb["table_value"]
    if k > 0 and value != old:      # a replace: the k cards on the table are discarded
        pb["discarded"][old] += k
        pb["table_len"] = count
        hd["replaces"][seat] += 1
        if log.size > 0:
            head = log_event_nb(log, EVENT.REPLACE, pb["round"], seat, value, count)
            log_value_nb(log, head, old)
    else:
        pb["table_len"] = k + count
        hd["plays"][seat] += 1
        if log.size > 0:
            log_event_nb(log, EVENT.PLAY, pb["round"], seat, value, count)
    pb["table_value"] = value
    pb["owner"] = seat
    pv["hand"][value] -= count
    pb["hand_len"][seat] -= count
    pb["known"][seat, value] = max(pb["known"][seat, value] - count, 0)    # the known cards go first
    hd["cards_played"][seat] += count
    if pb["talk"] == 1:
        pb["open"][seat, value] -= count
    return pb["hand_len"][seat] == 0


@inline_kernel
def pass_nb(pb, hd, seat, log):
    """Take one card off the table and lay it face up; returns True when the
    seat's partner has passed too (the trick ends)."""
    v = pb["table_value"]
    pb["passed"][seat] = v
    pb["table_len"] -= 1
    if pb["table_len"] == 0:        # the trick goes on: the next active player plays onto an empty table
        pb["table_value"] = -1
    hd["passes"][seat] += 1
    if log.size > 0:
        log_event_nb(log, EVENT.PASS, pb["round"], seat, v, 0)
    return pb["passed"][(seat + 2) % PLAYERS] >= 0


@kernel
def end_trick_nb(pb, priv, reason, log):
    """Passed cards go back into their takers' hands, the table is discarded,
    and the last player to put cards down leads the next trick."""
    if log.size > 0:
        head = log_event_nb(log, EVENT.TRICK_END, pb["round"], pb["owner"], reason, 0)
        for s in range(PLAYERS):
            log_value_nb(log, head, pb["passed"][s])
    for s in range(PLAYERS):
        c = pb["passed"][s]
        if c >= 0:
            priv[s]["hand"][c] += 1
            pb["hand_len"][s] += 1
            pb["known"][s, c] += 1      # every player saw it go into that hand
            if pb["talk"] == 1:
                pb["open"][s, c] += 1
    if pb["table_len"] > 0:
        pb["discarded"][pb["table_value"]] += pb["table_len"]
    pb["trick"] += 1
    new_trick_nb(pb, pb["owner"])


@kernel
def end_round_nb(seed, unit, streams, pub, priv, hid, seat, log):
    """``seat`` went out: its team wins the round at once (passed cards stay where
    they are). Returns True when that team has won the match; else the next round
    is dealt, started by the next seat (``rotate``) or by ``seat`` (``winner``)."""
    pb = pub[0]
    hd = hid[0]
    team = seat & 1
    pb["team_rounds"][team] += 1
    hd["goes_out"][seat] += 1
    hd["rounds_played"] = pb["round"] + 1
    if log.size > 0:
        log_event_nb(log, EVENT.ROUND_END, pb["round"], seat, team, 0)
    if pb["team_rounds"][team] >= pb["rounds"]:
        hd["winner"] = team
        hd["over"] = True
        return True
    starter = seat if pb["round_starter"] == 1 else (pb["starter"] + 1) % PLAYERS
    pb["round"] += 1
    start_round_nb(seed, unit, streams, pub, priv, hid, starter, log)
    return False


@inline_kernel
def fail_nb(pb, hd, seat):
    hd["rounds_played"] = pb["round"] + 1     # the round it stopped in counts, as a capped one does
    illegal_action_nb(hd, seat)
    hd["over"] = True
    return True


@inline_kernel
def step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """One action by the seat to act, then whatever follows from it (the trick's
    end, going out, the next round); returns True when the match is over
    (won, capped or stopped by an illegal action)."""
    pb = pub[0]
    hd = hid[0]
    if hd["round_actions"] >= settings[SETTING.MAX_ACTIONS]:
        hd["aborted"] = True
        hd["over"] = True
        hd["rounds_played"] = pb["round"] + 1
        return True
    seat = pb["seat"]
    pv = priv[seat]
    mask = legal_mask_nb(pb, pv["hand"])
    if mask & (mask - np.uint64(1)) == NONE:     # one legal action: no decision
        a = lowest_nb(mask)
    else:
        kind = kinds[seat]
        if reads_legal_nb(kind):
            mark_nb(legal, mask, LEGAL_SIZE // 8)
        hd["decisions"] += 1
        if kind == REVEAL:
            reveal_nb(params[seat], priv, hid)
        a = decide_nb(kind, policies, seat, pb, pv, legal, params[seat])
        if a < 0 or a >= ACTION.COUNT or mask & BIT[a] == NONE:
            return fail_nb(pb, hd, seat)
    hd["actions"] += 1
    hd["round_actions"] += 1
    if a == ACTION.PASS:
        if pass_nb(pb, hd, seat, log):
            end_trick_nb(pb, priv, REASON.TEAM_PASSED, log)
            return False
    else:
        if put_nb(pb, pv, hd, seat, a >> 2, (a & 3) + 1, log):
            return end_round_nb(seed, unit, streams, pub, priv, hid, seat, log)
        if pb["table_len"] == TABLE:
            end_trick_nb(pb, priv, REASON.FOUR, log)
            return False
    s = (seat + 1) % PLAYERS            # the next player who has not passed
    while pb["passed"][s] >= 0:
        s = (s + 1) % PLAYERS
    pb["seat"] = s
    return False


play_unit_nb = unit_loop(__file__, begin_unit_nb=begin_unit_nb, step_nb=step_nb)
