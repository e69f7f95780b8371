"""Enemy Anemone rules in numba: the deal, turns, tricks, tokens, scoring.

A match is played one action (a play or a discard) at a time by ``step_nb``,
for simulation, traces and the test kit alike: between two steps the state
always names the seat to act (``pub["seat"]``) and its choices
(``priv[seat]["legal"]``). ``begin_unit_nb`` sets up the first hand. The
entry points take the three state arrays (``pub`` of one record, ``priv`` of
one per seat, ``hid`` of one); helpers take records (``pb``, ``pv``, ``hd``).
The rule book is docs/rules/enemy_anemone.md; comments name the rule each
branch implements. Everything is a ``kernel``: no allocation, no refcounts.
"""
import numpy as np

from analyser.games.enemy_anemone.constants import (
    ACTION,
    BONUS_MASK,
    DECK_SIZE,
    DECKS,
    EVENT,
    MAX_PLAYERS,
    N_SUITS,
    N_TOKENS,
    POINTS,
    RANK_OF,
    REASON,
    SETTING,
    SUIT_MASK,
    SUIT_OF,
    TOKEN_FROM,
)
from analyser.games.enemy_anemone.dispatch import decide_nb
from analyser.kernels.bits import BIT, NONE, count_nb, lowest_nb
from analyser.kernels.eventlog import log_event_nb, log_value_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.loops import unit_loop
from analyser.kernels.records import illegal_action_nb, reset_nb
from analyser.kernels.reveal import reveal_nb
from analyser.kernels.rng import DEAL_SLOT, POLICY_SLOT, UNIT_STREAM, below_nb, hand_seed_nb, shuffle_nb, stream_seed_nb
from analyser.kernels.search_row import REVEAL


@inline_kernel
def deck_nb(players, deck):
    """The cards of this player count (constants.DECKS) into ``deck``; returns how many."""
    n = DECK_SIZE[players]
    for i in range(n):
        deck[i] = DECKS[players, i]
    return n


@kernel
def begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """Empty table, tokens in the supply, the first starter from the match's own stream, hand 0 dealt.
    False: no match ends before its first action (the shape of every game: analyser.games)."""
    reset_nb(pub, priv, hid)
    pb = pub[0]
    hd = hid[0]
    pb["players"] = players
    pb["hands"] = settings[SETTING.HANDS]
    pb["spent_tokens"] = settings[SETTING.SPENT_TOKENS]
    pb["next_leader"] = settings[SETTING.NEXT_LEADER]
    pb["catchup"] = settings[SETTING.CATCHUP]
    pb["supply"] = N_TOKENS
    pb["turns"] = 4 if players == 2 else players
    pb["tricks"] = 10 if 3 <= players <= 5 else 8
    hd["error_seat"] = -1
    hd["rng"][0] = stream_seed_nb(seed, unit, UNIT_STREAM)
    hd["first"] = below_nb(hd["rng"], players)
    pb["starter"] = hd["first"]
    start_hand_nb(seed, unit, streams, pub, priv, hid, log)
    return False


@kernel
def start_hand_nb(seed, unit, streams, pub, priv, hid, log):
    """Deal hand ``pb["hand"]`` from its own stream and give the lead to its starter.
    Each seat's policy stream restarts from the hand's sub-stream (see analyser.kernels.rng)."""
    pb = pub[0]
    hd = hid[0]
    h = pb["hand"]
    players = pb["players"]
    hd["rng"][0] = hand_seed_nb(seed, unit, h, DEAL_SLOT)
    for s in range(MAX_PLAYERS):
        priv[s]["rng"][0] = hand_seed_nb(seed, unit, h, POLICY_SLOT + streams[s])
        priv[s]["hand"] = NONE
        priv[s]["legal"] = NONE
        priv[s]["discarded"] = NONE
        pb["won"][s] = NONE
        pb["won_points"][s] = 0
        pb["hand_len"][s] = 0
        pb["discards"][s] = 0
        for u in range(N_SUITS):
            pb["voided"][s, u] = 0
    deck = hd["deck"]
    n = deck_nb(players, deck)
    shuffle_nb(hd["rng"], deck[:n])
    each = 8 if players == 2 else n // players
    k = 0
    for s in range(players):
        hand = NONE
        for _ in range(each):
            hand |= BIT[deck[k]]
            k += 1
        priv[s]["hand"] = hand
        pb["hand_len"][s] = each
    pb["draw_len"] = n - k                      # 2 players: the other 16 cards, deck[k] on top
    for i in range(n - k):
        hd["draw"][n - k - 1 - i] = deck[k + i]
    if log.size > 0:
        head = log_event_nb(log, EVENT.DEAL, h, -1, each, 0)
        for s in range(players):
            m = priv[s]["hand"]
            while m != NONE:
                c = lowest_nb(m)
                log_value_nb(log, head, c)
                m &= m - np.uint64(1)
        for i in range(pb["draw_len"] - 1, -1, -1):
            log_value_nb(log, head, hd["draw"][i])
        log_event_nb(log, EVENT.START, h, pb["starter"], 0, 0)
    pb["trick"] = 0
    pb["played"] = NONE
    pb["leader"] = pb["starter"]
    clear_trick_nb(pb)
    prepare_turn_nb(pb, priv)


@inline_kernel
def clear_trick_nb(pb):
    pb["turn"] = 0
    pb["trick_len"] = 0
    pb["best"] = -1
    pb["low"] = -1
    pb["to_beat"] = 0
    pb["trick_points"] = 0
    pb["trick_mask"] = NONE


@inline_kernel
def prepare_turn_nb(pb, priv):
    """Name the seat to act and its choices: a card of a suit not yet in the
    trick, or, holding none, any card of its hand as a discard (A trick)."""
    players = pb["players"]
    seat = pb["leader"] + pb["turn"]      # mod players, in two selects: a division here cost 7% of a run
    seat = seat - players if seat >= players else seat
    seat = seat - players if seat >= players else seat
    pb["seat"] = seat
    pv = priv[np.uint8(seat)]
    legal = pv["hand"] & ~pb["trick_mask"]
    pb["discard"] = legal == NONE
    pv["legal"] = pv["hand"] if legal == NONE else legal


@kernel
def draw_nb(pb, priv, hd, log):
    """2 players, before every trick but the first: each draws 2 while the pile lasts, the leader first."""
    for k in range(2):
        seat = (pb["leader"] + k) % 2
        head = log_event_nb(log, EVENT.DRAW, pb["hand"], seat, 0, 0)
        for _ in range(2):
            if pb["draw_len"] == 0:
                break
            pb["draw_len"] -= 1
            c = hd["draw"][pb["draw_len"]]
            priv[seat]["hand"] |= BIT[c]
            pb["hand_len"][seat] += 1
            log_value_nb(log, head, c)
            for u in range(N_SUITS):            # the voids it showed may hold no more
                pb["voided"][seat, u] = 0


@inline_kernel
def next_seat_nb(seat, k, players):
    """(seat + k) % players for k < players, by a select: a division costs tens of cycles."""
    s = seat + k
    return s - players if s >= players else s


@inline_kernel
def give_token_nb(pb, hd, seat, plus_two, reason, log):
    """Seat takes a token (Anemone tokens). Ordinary (``plus_two`` False): flip a
    held +1 to +2, else one from the supply +1 side up. ``plus_two``: a new +2
    (6 players' end of hand), never a flip. With the supply empty, the other
    seat holding the most tokens (ties: first clockwise from the taker) gives its
    lowest-valued one, kept on its side (turned to +2 for ``plus_two``). Inlined:
    it runs at the end of every trick."""
    if not plus_two and pb["ones"][seat] > 0:
        pb["ones"][seat] -= 1
        pb["twos"][seat] += 1
        source = TOKEN_FROM.FLIP
        value = 2
    elif pb["supply"] > 0:
        pb["supply"] -= 1
        source = TOKEN_FROM.SUPPLY
        value = 2 if plus_two else 1
    else:
        players = pb["players"]
        source = -1
        most = 0
        for k in range(1, players):
            g = next_seat_nb(seat, k, players)
            held = pb["ones"][g] + pb["twos"][g]
            if held > most:
                most = held
                source = g
        if source < 0:
            return                      # no other player holds a token: nothing is taken
        if pb["ones"][source] > 0:
            pb["ones"][source] -= 1
            value = 1
        else:
            pb["twos"][source] -= 1
            value = 2
        if plus_two:
            value = 2
    if source != TOKEN_FROM.FLIP:
        if value == 2:
            pb["twos"][seat] += 1
        else:
            pb["ones"][seat] += 1
    hd["tokens_taken"][seat] += 1
    if log.size > 0:
        log_event_nb(log, EVENT.TOKEN, pb["hand"], seat, source, value + 4 * reason)


@inline_kernel
def play_card_nb(pb, pv, hd, seat, card, k1, k2, log):
    """Play ``card`` into the trick with k1 +1 and k2 +2 tokens attached; the
    tokens go back to the supply +1 side up, or out of the match (spent_tokens)."""
    pv["hand"] &= ~BIT[card]
    pb["hand_len"][seat] -= 1
    # No branches on the cards or tokens below: which card leads the trick changes at random.
    spent = k1 + k2
    pb["ones"][seat] -= k1
    pb["twos"][seat] -= k2
    removed = pb["spent_tokens"]              # 0 supply, 1 removed
    pb["supply"] += spent * (1 - removed)
    pb["removed"] += spent * removed
    hd["tokens_spent"][seat] += spent
    hd["value_spent"][seat] += k1 + 2 * k2
    value = RANK_OF[card] + k1 + 2 * k2
    i = pb["trick_len"]
    pb["trick_card"][i] = card
    pb["trick_seat"][i] = seat
    pb["trick_value"][i] = value
    pb["trick_len"] = i + 1
    # Winning a trick: the later of equal values counts higher for the best and lower for the low.
    best, low = pb["best"], pb["low"]
    pb["best"] = i if (i == 0) | (value >= pb["trick_value"][np.uint8(max(best, 0))]) else best
    pb["low"] = i if (i == 0) | (value <= pb["trick_value"][np.uint8(max(low, 0))]) else low
    pb["to_beat"] = max(pb["to_beat"], value)
    pb["trick_points"] += POINTS[card]
    pb["trick_mask"] |= SUIT_MASK[SUIT_OF[card]]
    pb["played"] |= BIT[card]
    if log.size > 0:
        head = log_event_nb(log, EVENT.PLAY, pb["hand"], seat, k1 + 16 * k2, value)
        log_value_nb(log, head, card)


@inline_kernel
def discard_nb(pb, pv, hd, seat, card, log):
    """Face down into the seat's own score pile; not part of the trick. Every player sees that
    the seat holds no card of the suits missing from the trick (pb["voided"], kept here)."""
    pv["hand"] &= ~BIT[card]
    pv["discarded"] |= BIT[card]
    pb["hand_len"][seat] -= 1
    pb["discards"][seat] += 1
    suits = 4 if pb["players"] == 2 else pb["players"]
    for u in range(suits):
        if pb["voided"][seat, u] == 0 and pb["trick_mask"] & SUIT_MASK[u] == NONE:
            pb["voided"][seat, u] = pb["discards"][seat]
    hd["discards"][seat] += 1
    if log.size > 0:
        head = log_event_nb(log, EVENT.DISCARD, pb["hand"], seat, 0, 0)
        log_value_nb(log, head, card)


@inline_kernel
def end_trick_nb(pb, hd, log):
    """The best card's player wins the played cards; the lowest card's player takes a token."""
    winner = pb["trick_seat"][pb["best"]]
    low = pb["trick_seat"][pb["low"]]
    won = NONE                      # summed in registers; the log only when tracing
    for i in range(pb["trick_len"]):
        won |= BIT[pb["trick_card"][i]]
    pb["won"][winner] |= won
    pb["won_points"][winner] += pb["trick_points"]
    if log.size > 0:
        head = log_event_nb(log, EVENT.TRICK, pb["hand"], winner, low, 0)
        for i in range(pb["trick_len"]):
            log_value_nb(log, head, pb["trick_card"][i])
    hd["tricks"][winner] += 1
    give_token_nb(pb, hd, low, False, REASON.LOWEST, log)
    pb["leader"] = low if pb["next_leader"] == 1 else winner
    pb["trick"] += 1
    clear_trick_nb(pb)


@inline_kernel
def basis_nb(pb, s, h, total):
    """What the end-of-hand award compares for seat s."""
    return pb["totals"][s] if total else pb["hand_score"][s, h]


@kernel
def end_hand_nb(pb, priv, hd, log):
    """Score the hand, award the catch-up tokens, pick the next starter (End of a hand)."""
    players = pb["players"]
    h = pb["hand"]
    for s in range(players):
        m = priv[s]["discarded"]                # 1 a card, 1 more a 3, 5 or 8
        score = pb["won_points"][s] + count_nb(m) + count_nb(m & BONUS_MASK)
        pb["hand_score"][s, h] = score
        pb["totals"][s] += score
    # catchup: this hand's scores, or the match totals after adding them; 6 players: hand scores
    total = pb["catchup"] == 1 and players != 6
    lowest = 1 << 14
    second = 1 << 14
    for s in range(players):
        lowest = min(lowest, basis_nb(pb, s, h, total))
    tied = 0
    for s in range(players):
        v = basis_nb(pb, s, h, total)
        tied += v == lowest
        if v > lowest:
            second = min(second, v)
    starter = pb["starter"]
    for k in range(players):              # awards go clockwise from the hand's starter
        s = next_seat_nb(starter, k, players)
        if basis_nb(pb, s, h, total) == lowest:
            give_token_nb(pb, hd, s, players == 6, REASON.CATCHUP, log)
    if players == 6 and tied == 1:        # a sole lowest: the second-lowest take one the ordinary way
        for k in range(players):
            s = next_seat_nb(starter, k, players)
            if basis_nb(pb, s, h, total) == second:
                give_token_nb(pb, hd, s, False, REASON.CATCHUP, log)
    if log.size > 0:
        head = log_event_nb(log, EVENT.HAND_END, h, -1, 0, 0)
        for s in range(players):
            log_value_nb(log, head, pb["hand_score"][s, h])
            log_value_nb(log, head, pb["totals"][s])
            log_value_nb(log, head, pb["ones"][s])
            log_value_nb(log, head, pb["twos"][s])
    # the next hand: the highest match total, ties to the first clockwise from this starter
    best = starter
    for k in range(1, players):
        s = next_seat_nb(starter, k, players)
        if pb["totals"][s] > pb["totals"][best]:
            best = s
    pb["starter"] = best
    pb["hand"] = h + 1
    hd["hands_played"] = h + 1


@inline_kernel
def fail_nb(hd, seat):
    illegal_action_nb(hd, seat)
    hd["over"] = True
    return True


@inline_kernel
def step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """One play or discard by the seat to act, then whatever follows from it (the
    trick's end, the draw, the hand's end, the next hand); returns True when the
    match is over (finished, capped or stopped by an illegal action)."""
    pb = pub[0]
    hd = hid[0]
    if hd["actions"] >= settings[SETTING.MAX_ACTIONS]:
        hd["aborted"] = True
        hd["over"] = True
        return True
    seat = np.uint8(pb["seat"])     # unsigned indices skip numba's negative-index fix-ups
    pv = priv[seat]
    mask = pv["legal"]
    ones = pb["ones"][seat]
    twos = pb["twos"][seat]
    n = count_nb(mask)
    if not pb["discard"]:
        n *= (ones + 1) * (twos + 1)
    if n == 1:
        a = lowest_nb(mask)
    else:
        hd["decisions"] += 1
        if kinds[seat] == REVEAL:
            reveal_nb(params[seat], priv, hid)
        a = decide_nb(kinds[seat], policies, seat, pb, pv, legal, params[seat], mask)
        if a < 0:
            return fail_nb(hd, seat)
    card = a & 63
    k1 = (a // ACTION.ONE) & 15
    k2 = a // ACTION.TWO
    if mask & BIT[card] == NONE or k1 > ones or k2 > twos or (pb["discard"] and k1 + k2 > 0):
        return fail_nb(hd, seat)
    if pb["discard"]:
        discard_nb(pb, pv, hd, seat, card, log)
    else:
        play_card_nb(pb, pv, hd, seat, card, k1, k2, log)
    hd["actions"] += 1
    pb["turn"] += 1
    if pb["turn"] == pb["turns"]:
        end_trick_nb(pb, hd, log)
        if pb["trick"] == pb["tricks"]:
            end_hand_nb(pb, priv, hd, log)
            if pb["hand"] == pb["hands"]:
                hd["over"] = True
                return True
            start_hand_nb(seed, unit, streams, pub, priv, hid, log)
            return False
        if pb["draw_len"] > 0:
            draw_nb(pb, priv, hd, log)
    prepare_turn_nb(pb, priv)
    return False


play_unit_nb = unit_loop(__file__, begin_unit_nb=begin_unit_nb, step_nb=step_nb)
