"""Spite & Malice rules in numba: the deal, turns, builds, rounds, the match.

A match is played one decision at a time by ``step_nb``, for simulation,
traces and the test kit alike: between two steps the state names the seat to
act (``pub["seat"]``), who always has two or more legal actions (a hand card
can always be discarded; with an empty hand, stopping is legal, and a turn
with nothing to build ends by itself). Everything forced after a move (a
completed pile, the win, a refill, the turn's end, the next turn's draw, the
next round) is done in the same step. ``begin_unit_nb`` deals the first round.
The rule book is docs/rules/spite_and_malice.md. Everything is a ``kernel``:
no allocation, no refcounts.
"""
import numpy as np

from analyser.games.spite_and_malice.constants import (
    ACTION,
    COMPLETE,
    DECK,
    DST_SIDE,
    ERROR,
    EVENT,
    HAND,
    KING,
    N_CARDS,
    N_VALUES,
    PLAYERS,
    ROUND_WHY,
    SETTING,
    SIDE_END,
    SIDES,
    SRC_HAND,
    SRC_PAYOFF,
    SRC_SIDE,
    START_WHY,
)
from analyser.games.spite_and_malice.dispatch import decide_nb, reads_legal_nb
from analyser.games.spite_and_malice.state import side_top_nb
from analyser.kernels.eventlog import log_event_nb, log_value_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.loops import unit_loop
from analyser.kernels.records import reset_nb, view_nb
from analyser.kernels.reveal import reveal_nb
from analyser.kernels.rng import (
    DEAL_SLOT,
    POLICY_SLOT,
    STREAMS_PER_HAND,
    below_nb,
    keyed_seed_nb,
    shuffle_from_nb,
    unit_key_nb,
)
from analyser.kernels.search_row import REVEAL

GOES_ON, WON, DRAWN, STOPPED = 0, 1, 2, 3     # what a move leaves the round in (STOPPED: capped)


@kernel
def begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """No points yet; round 0 dealt, its starter by the payoff tops.
    False: no match ends before its first action (the shape of every game: analyser.games)."""
    reset_nb(pub, priv, hid)
    pb = pub[0]
    hd = hid[0]
    pb["centre"] = settings[SETTING.CENTRE_PILES]
    pb["refill"] = settings[SETTING.REFILL_EMPTY_HAND]
    pb["stock_out"] = settings[SETTING.STOCK_OUT]
    pb["target"] = settings[SETTING.TARGET]
    hd["winner"] = -1
    hd["key"] = unit_key_nb(seed, unit)
    start_round_nb(settings, streams, pub, priv, hid, -1, START_WHY.HIGHER_TOP, log)
    hd["first"] = pb["starter"]
    return False


@kernel
def start_round_nb(settings, streams, pub, priv, hid, starter, why, log):
    """Shuffle the 104 cards from the round's own stream; deal the payoff piles one
    card at a time (seat 0, seat 1), then 5 cards each, from the top of the shoe
    (its last index); the rest is the stock. ``starter`` -1: the higher payoff top
    starts, a tie goes to the round's stream. Each seat's policy stream for the round."""
    pb = pub[0]
    hd = hid[0]
    r = pb["round"]
    deck = hd["stock"]
    for i in range(N_CARDS):
        deck[i] = DECK[i]
    key = hd["key"]
    hd["rng"][0] = keyed_seed_nb(key, r * STREAMS_PER_HAND + DEAL_SLOT)
    shuffle_from_nb(hd["rng"], deck, 1)
    size = settings[SETTING.PAYOFF_SIZE]
    top = N_CARDS
    for k in range(size):
        for s in range(PLAYERS):
            top -= 1
            hd["payoff"][s, k] = deck[top]
            deck[top] = 0
    for s in range(PLAYERS):
        for v in range(N_VALUES + 1):
            priv[s]["hand"][v] = 0
    for _ in range(HAND):
        for s in range(PLAYERS):
            top -= 1
            priv[s]["hand"][deck[top]] += 1
            deck[top] = 0
    pb["stock_len"] = top
    for s in range(PLAYERS):
        pb["payoff_len"][s] = size
        pb["payoff_top"][s] = hd["payoff"][s, size - 1]
        pb["hand_len"][s] = HAND
        for i in range(SIDES):
            for k in range(pb["side_len"][s, i]):
                pb["side"][s, i, k] = 0
            pb["side_len"][s, i] = 0
        priv[s]["rng"][0] = keyed_seed_nb(key, r * STREAMS_PER_HAND + POLICY_SLOT + streams[s])
    for b in range(pb["build_len"].size):
        for k in range(pb["build_len"][b]):
            pb["build"][b, k] = 0
        pb["build_len"][b] = 0
    if log.size > 0:
        for s in range(PLAYERS):
            head = log_event_nb(log, EVENT.DEAL, r, s, size, 0)
            for k in range(size):
                log_value_nb(log, head, hd["payoff"][s, k])
            for v in range(1, N_VALUES + 1):
                for _ in range(priv[s]["hand"][v]):
                    log_value_nb(log, head, v)
    if starter < 0:
        t0 = pb["payoff_top"][0]
        t1 = pb["payoff_top"][1]
        if t0 != t1:
            starter = 0 if t0 > t1 else 1
        else:
            starter = below_nb(hd["rng"], PLAYERS)
            why = START_WHY.TIE
    pb["starter"] = starter
    pb["seat"] = starter
    pb["turn"] = 1
    hd["turns"] += 1
    hd["round_moves"] = 0
    if log.size > 0:
        log_event_nb(log, EVENT.START, r, starter, why, 0)
        log_event_nb(log, EVENT.TURN, r, starter, 1, 0)    # the starter holds 5: nothing to draw


@inline_kernel
def legal_nb(pb, hand, seat, legal):
    """Mark the seat's legal actions in ``legal``; returns how many there are. A
    card goes onto a build pile showing v if it is v + 1 or a King; any hand card
    onto any own side pile; stop only with an empty hand."""
    words = view_nb(legal, np.uint64)
    for k in range(words.size):
        words[k] = 0
    n = 0
    t = pb["payoff_top"][seat]
    for b in range(pb["centre"]):
        need = int(pb["build_len"][b]) + 1
        if t == need or t == KING:
            legal[SRC_PAYOFF * 8 + b] = True
            n += 1
        for i in range(SIDES):
            c = side_top_nb(pb, seat, i)
            if c == need or c == KING:
                legal[(SRC_SIDE + i) * 8 + b] = True
                n += 1
        if hand[need] > 0:
            legal[(SRC_HAND + need) * 8 + b] = True
            n += 1
        if hand[KING] > 0:
            legal[(SRC_HAND + KING) * 8 + b] = True
            n += 1
    if pb["hand_len"][seat] > 0:
        for v in range(1, N_VALUES + 1):
            if hand[v] > 0:
                for i in range(SIDES):
                    legal[(SRC_HAND + v) * 8 + DST_SIDE + i] = True
                n += SIDES
    else:
        legal[ACTION.STOP] = True
        n += 1
    return n


@inline_kernel
def legal_action_nb(pb, hand, seat, a):
    """Whether action ``a`` (0 <= a < ACTION.COUNT) is legal: legal_nb's verdict on one
    action, for the policies that never read the legal array (dispatch.py)."""
    if a == ACTION.STOP:
        return pb["hand_len"][seat] == 0
    src = a >> 3
    dst = a & 7
    if dst >= DST_SIDE:                     # a discard: any hand card onto any own side pile
        return src >= SIDE_END and hand[src - SRC_HAND] > 0
    if dst >= pb["centre"]:
        return False
    if src == SRC_PAYOFF:
        c = int(pb["payoff_top"][seat])
    elif src < SIDE_END:
        c = side_top_nb(pb, seat, src - SRC_SIDE)
    else:
        c = src - SRC_HAND if hand[src - SRC_HAND] > 0 else 0
    return c > 0 and (c == KING or c == int(pb["build_len"][dst]) + 1)


@inline_kernel
def tops_build_nb(pb, seat):
    """Whether the seat's payoff top or a side top fits a build pile (with an empty
    hand: whether it has any move but to stop)."""
    fits = 1 << KING
    for b in range(pb["centre"]):
        fits |= 1 << (int(pb["build_len"][b]) + 1)
    if (fits >> int(pb["payoff_top"][seat])) & 1:
        return True
    for i in range(SIDES):
        if (fits >> side_top_nb(pb, seat, i)) & 1:       # an empty pile's 0 fits nothing
            return True
    return False


@inline_kernel
def draw_nb(pb, pv, hd, seat, need, head, log):
    """Draw ``need`` cards from the stock's top; returns True when the round ends
    in a draw: the stock could not give them all (what was left is drawn), or,
    with stock_out=at_once, it is empty now."""
    n = pb["stock_len"]
    take = min(need, n)
    for _ in range(take):
        n -= 1
        c = hd["stock"][n]
        hd["stock"][n] = 0
        pv["hand"][c] += 1
        log_value_nb(log, head, c)
    pb["stock_len"] = n
    pb["hand_len"][seat] += take
    if take < need:
        return True
    return pb["stock_out"] == 1 and n == 0


@kernel
def complete_nb(pb, hd, seat, b, log):
    """Build pile ``b`` reached Q: its 12 cards join the stock, which is shuffled
    whole from the round's stream; the pile is empty again."""
    n = pb["stock_len"]
    for k in range(COMPLETE):
        hd["stock"][n + k] = pb["build"][b, k]
        pb["build"][b, k] = 0
    n += COMPLETE
    pb["build_len"][b] = 0
    pb["stock_len"] = n
    shuffle_from_nb(hd["rng"], hd["stock"][:n], 1)
    hd["completed"][seat] += 1
    if log.size > 0:
        head = log_event_nb(log, EVENT.COMPLETE, pb["round"], seat, b, 0)
        log_value_nb(log, head, n)


@inline_kernel
def take_nb(pb, pv, hd, seat, src):
    """Remove the card of ``src`` (payoff top, a side pile's top, a hand card) and return it."""
    if src == SRC_PAYOFF:
        size = pb["payoff_len"][seat] - 1
        c = hd["payoff"][seat, size]
        hd["payoff"][seat, size] = 0
        pb["payoff_len"][seat] = size
        pb["payoff_top"][seat] = hd["payoff"][seat, size - 1] if size > 0 else 0
        hd["payoff_played"][seat] += 1
        return c
    if src < SIDE_END:
        i = src - SRC_SIDE
        size = pb["side_len"][seat, i] - 1
        c = pb["side"][seat, i, size]
        pb["side"][seat, i, size] = 0
        pb["side_len"][seat, i] = size
        return c
    c = src - SRC_HAND
    pv["hand"][c] -= 1
    pb["hand_len"][seat] -= 1
    return c


@kernel
def build_nb(pb, pv, hd, seat, src, b, log):
    """Play the card of ``src`` onto build pile ``b`` (a King counts as the pile's next value)."""
    c = take_nb(pb, pv, hd, seat, src)
    v = pb["build_len"][b]
    pb["build"][b, v] = c
    pb["build_len"][b] = v + 1
    hd["builds"][seat] += 1
    if c == KING:
        hd["kings"][seat] += 1
    if log.size > 0:
        head = log_event_nb(log, EVENT.BUILD, pb["round"], seat, src, b)
        log_value_nb(log, head, c)
        log_value_nb(log, head, v + 1)
    if v + 1 == COMPLETE:
        complete_nb(pb, hd, seat, b, log)


@kernel
def end_turn_nb(settings, pb, priv, hd, log):
    """The turn is over: the next player's turn begins with a draw up to 5 cards.
    Returns STOPPED when the round has had max_turns turns, DRAWN on a stock-out."""
    if pb["turn"] >= settings[SETTING.MAX_TURNS]:
        return STOPPED
    seat = 1 - pb["seat"]
    pb["seat"] = seat
    pb["turn"] += 1
    hd["turns"] += 1
    head = log_event_nb(log, EVENT.TURN, pb["round"], seat, pb["turn"], 0)
    if draw_nb(pb, priv[seat], hd, seat, HAND - pb["hand_len"][seat], head, log):
        return DRAWN
    return GOES_ON


@kernel
def end_round_nb(settings, streams, pub, priv, hid, winner, why, log):
    """The round is won by ``winner`` (scoring the other's payoff cards left) or
    drawn (-1). Returns True when the match is over: a player reached the target,
    the ``rounds`` limit was played (most points wins), or max_games rounds were
    played (aborted). Otherwise the next round is dealt, started by the loser, or
    after a draw by the player who did not start this one."""
    pb = pub[0]
    hd = hid[0]
    scored = 0
    if winner >= 0:
        scored = pb["payoff_len"][1 - winner]
        pb["points"][winner] += scored
        hd["rounds_won"][winner] += 1
    else:
        hd["drawn_rounds"] += 1
    for s in range(PLAYERS):
        hd["payoff_left"][s] += pb["payoff_len"][s]
    played = pb["round"] + 1
    hd["rounds_played"] = played
    if log.size > 0:
        head = log_event_nb(log, EVENT.ROUND_END, pb["round"], winner, why, scored)
        for s in range(PLAYERS):
            log_value_nb(log, head, pb["points"][s])
    if winner >= 0 and pb["points"][winner] >= pb["target"]:
        hd["winner"] = winner
        hd["over"] = True
        return True
    limit = settings[SETTING.ROUNDS]
    if limit > 0 and played >= limit:
        p0 = pb["points"][0]
        p1 = pb["points"][1]
        hd["winner"] = 0 if p0 > p1 else (1 if p1 > p0 else -1)
        hd["over"] = True
        return True
    if played >= settings[SETTING.MAX_GAMES]:
        hd["aborted"] = True
        hd["over"] = True
        return True
    if winner >= 0:
        starter = 1 - winner
        why = START_WHY.LOSER
    else:
        starter = 1 - pb["starter"]
        why = START_WHY.AFTER_DRAW
    pb["round"] += 1
    start_round_nb(settings, streams, pub, priv, hid, starter, why, log)
    return False


@inline_kernel
def stop_nb(pb, hd):
    """The round hit a cap: it and its match end as aborted."""
    hd["rounds_played"] = pb["round"] + 1
    hd["aborted"] = True
    hd["over"] = True
    return True


@inline_kernel
def fail_nb(pb, hd, seat):
    hd["error"] = ERROR.ILLEGAL_ACTION
    hd["error_seat"] = seat
    return stop_nb(pb, hd)


@kernel
def move_nb(settings, pb, pv, priv, hd, seat, a, log):
    """Apply legal action ``a`` and what it forces; returns GOES_ON, WON, DRAWN or STOPPED.
    After a build, in the rule book's order: a completed pile is shuffled into the
    stock (build_nb), then the win is checked, then an empty hand is refilled
    (refill_empty_hand=on); a turn left with an empty hand and nothing to build ends.
    The move that reaches max_moves stops the round right after it (a win by it
    stands): no refill and no next turn's draw, which could turn the capped round
    into a stock-out draw and let the match go on."""
    if a == ACTION.STOP:
        if log.size > 0:
            log_event_nb(log, EVENT.STOP, pb["round"], seat, 0, 0)
        return end_turn_nb(settings, pb, priv, hd, log)
    src = a >> 3
    dst = a & 7
    hd["moves"] += 1
    hd["round_moves"] += 1
    capped = hd["round_moves"] >= settings[SETTING.MAX_MOVES]
    if dst >= DST_SIDE:
        c = take_nb(pb, pv, hd, seat, src)
        i = dst - DST_SIDE
        size = pb["side_len"][seat, i]
        pb["side"][seat, i, size] = c
        pb["side_len"][seat, i] = size + 1
        hd["discards"][seat] += 1
        if log.size > 0:
            log_event_nb(log, EVENT.DISCARD, pb["round"], seat, c, i)
        return STOPPED if capped else end_turn_nb(settings, pb, priv, hd, log)
    build_nb(pb, pv, hd, seat, src, dst, log)
    if pb["payoff_len"][seat] == 0:
        return WON
    if capped:
        return STOPPED
    if pb["hand_len"][seat] == 0:
        if pb["refill"] == 1:
            head = log_event_nb(log, EVENT.REFILL, pb["round"], seat, 0, 0)
            if draw_nb(pb, pv, hd, seat, HAND, head, log):
                return DRAWN
        elif not tops_build_nb(pb, seat):      # only stop: no legal move
            return end_turn_nb(settings, pb, priv, hd, log)
    return GOES_ON


@kernel
def step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """One decision by the seat to act and whatever follows from it (see move_nb; the
    round's end, the next round); returns True when the match is over (won, capped,
    or stopped by an illegal action)."""
    pb = pub[0]
    hd = hid[0]
    seat = pb["seat"]
    pv = priv[seat]
    kind = kinds[seat]
    if reads_legal_nb(kind):
        legal_nb(pb, pv["hand"], seat, legal)
    hd["decisions"] += 1
    if kind == REVEAL:
        reveal_nb(params[seat], priv, hid)
    a = decide_nb(kind, policies, seat, pb, pv, legal, params[seat])
    if a < 0 or a >= ACTION.COUNT or not legal_action_nb(pb, pv["hand"], seat, a):
        return fail_nb(pb, hd, seat)
    result = move_nb(settings, pb, pv, priv, hd, seat, a, log)
    if result == WON:
        return end_round_nb(settings, streams, pub, priv, hid, seat, ROUND_WHY.WIN, log)
    if result == DRAWN:
        # np.int8: the type of a seat above, so end_round_nb compiles once
        return end_round_nb(settings, streams, pub, priv, hid, np.int8(-1), ROUND_WHY.STOCK_OUT, log)
    if result == STOPPED:
        return stop_nb(pb, hd)
    return False


play_unit_nb = unit_loop(__file__, begin_unit_nb=begin_unit_nb, step_nb=step_nb)
