"""Palace rules in numba: the deal, the swap, legal actions and their effects.

The entry points (``begin_unit_nb``, ``step_nb``, ``play_unit_nb``: every game's shape, see
analyser.games; and ``play_out_nb``) take the three state arrays (``pub`` of one
record, ``priv`` of one record per seat, ``hid`` of one record); the helpers take
the records themselves (``pb``, ``pv``, ``hd``), which pass as one pointer each.
All mutate the state in place; ``log`` is the trace buffer (empty when not
tracing). The rule book is ``docs/rules/palace.md``; comments name the rule each
branch implements.
Everything here is a ``kernel`` (no reference counting, no allocation).
"""
import numpy as np

from analyser.games.palace.constants import (
    ACTION,
    DRAW_PILE,
    ERROR,
    EVENT,
    MAX_PLAYERS,
    MAX_SLOTS,
    MAX_SWAPS,
    N_CARDS,
    N_RANKS,
    PHASE,
    RANK,
    SETTING,
    SOURCE,
)
from analyser.games.palace.cycles import watch_nb
from analyser.games.palace.dispatch import decide_nb
from analyser.games.palace.state import PLAY_WORDS, legal_words_nb
from analyser.kernels.bits import BIT
from analyser.kernels.eventlog import log_event_nb, log_value_nb
from analyser.kernels.jit import inline_kernel, kernel
from analyser.kernels.records import illegal_action_nb, reset_nb
from analyser.kernels.reveal import reveal_nb
from analyser.kernels.rng import DEAL_SLOT, POLICY_SLOT, below_nb, hand_seed_nb, shuffle_nb
from analyser.kernels.search_row import REVEAL


@kernel
def target_size_nb(players, short_game):
    """n: cards per face-down, face-up and hand at the deal."""
    if short_game or players == 4:
        return 3
    return 6 if players == 2 else 4


BYTE_BITS = np.array([1 << (8 * i) for i in range(8)], np.uint64)   # the low bit of each byte


@inline_kernel
def add_to_hand_nb(pub, pv, seat, card):
    r = card >> 2
    pv["has"][card] = True
    pv["plays"][r >> 1] |= BYTE_BITS[(r & 1) * 4 + pv["counts"][r]]
    pv["counts"][r] += 1
    pub["hand_len"][seat] += 1


@inline_kernel
def remove_from_hand_nb(pub, pv, seat, card):
    r = card >> 2
    pv["has"][card] = False
    pv["counts"][r] -= 1
    pv["plays"][r >> 1] &= ~BYTE_BITS[(r & 1) * 4 + pv["counts"][r]]
    pub["hand_len"][seat] -= 1


@kernel
def deal_nb(seed, deal, players, settings, streams, pub, priv, hid):
    """Shuffle with the deal's stream and lay out face-down, face-up, hand, draw
    pile. Seat s's policy draws from policy stream ``streams[s]`` (see analyser.kernels.rng)."""
    reset_nb(pub, priv, hid)
    pb = pub[0]
    hd = hid[0]
    hd["rng"][0] = hand_seed_nb(seed, deal, 0, DEAL_SLOT)
    for s in range(MAX_PLAYERS):
        priv[s]["rng"][0] = hand_seed_nb(seed, deal, 0, POLICY_SLOT + streams[s])
    deck = hd["unused"]                     # the deck is shuffled in place, see below
    for i in range(N_CARDS):
        deck[i] = i
    shuffle_nb(hd["rng"], deck)
    n = target_size_nb(players, settings[SETTING.SHORT_GAME] != 0)
    pb["players"] = players
    pb["n"] = n
    pb["ten_on_anything"] = settings[SETTING.TEN_ON_ANYTHING] != 0
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
        for _ in range(n):
            add_to_hand_nb(pb, priv[s], s, deck[k])
            k += 1
    for i in range(DRAW_PILE):              # deck[k] is the top of the draw pile
        hd["draw"][DRAW_PILE - 1 - i] = deck[k + i]
    pb["draw_len"] = DRAW_PILE
    k += DRAW_PILE
    for i in range(N_CARDS):                # short_game leaves deck[k:] out
        deck[i] = deck[k + i] if k + i < N_CARDS else 0
    hd["unused_len"] = N_CARDS - k


@kernel
def fill_swap_legal_nb(pb, pv, seat, legal):
    """Any hand rank with any face-up slot, or done; returns how many.
    During the swap a seat's face-up cards fill its first slots, and
    swap_phase_nb has cleared everything else, so only those columns of each
    rank's row are written: no branch on the cards."""
    n = pb["face_up_len"][seat]
    held = 0
    for r in range(N_RANKS):
        h = pv["counts"][r] > 0
        held += h
        for j in range(n):
            legal[ACTION.SWAP + r * MAX_SLOTS + j] = h
    legal[ACTION.SWAP_DONE] = True
    return 1 + held * n


@kernel
def apply_swap_nb(pb, pv, seat, action):
    r = (action - ACTION.SWAP) // MAX_SLOTS
    j = (action - ACTION.SWAP) % MAX_SLOTS
    card = r * 4 + 3                    # the hand's lowest suit of rank r, found without branching
    for suit in range(2, -1, -1):
        card = r * 4 + suit if pv["has"][r * 4 + suit] else card
    up = pb["face_up"][seat, j]
    remove_from_hand_nb(pb, pv, seat, card)
    add_to_hand_nb(pb, pv, seat, up)
    pb["known"][seat] = (pb["known"][seat] & ~BIT[card]) | BIT[up]    # every seat saw the exchange
    pb["face_up"][seat, j] = card


@kernel
def log_swap_nb(pb, pv, seat, log):
    head = log_event_nb(log, EVENT.SWAP, 0, seat, pb["hand_len"][seat], 0)
    if head < 0:
        return
    for c in range(N_CARDS):
        if pv["has"][c]:
            log_value_nb(log, head, c)
    for j in range(MAX_SLOTS):
        if pb["face_up"][seat, j] >= 0:
            log_value_nb(log, head, pb["face_up"][seat, j])


@inline_kernel
def checked_nb(hd, seat, legal, a, lo, hi):
    """A decision's answer ``a``, counted, or -1 (the unit stops) if it is not legal. The
    phase's actions are lo..hi-1: checking the range as well as the mask keeps a policy
    that wrote into the mask from reaching the other phase's actions."""
    hd["decisions"] += 1
    if a < lo or a >= hi or not legal[a]:
        illegal_action_nb(hd, seat)
        return -1
    return a


@kernel
def swap_phase_nb(policies, params, pb, priv, hd, legal, log):
    """Everyone swaps at once (rule book: Swap): each seat decides from the dealt table.

    The seats are asked one after another, each until it says done, on the
    public record; ``hd["swap_up"]`` keeps the face-up rows as dealt. When a
    seat is done (its swap event logged), its row and the kept one change
    places: the public record shows the dealt row again to the seats after it,
    and ``swap_up`` holds its final row, until all final rows go face up
    together. Only face-up rows change hands: swaps keep every count. A seat
    whose answer is illegal ends the phase with the rows it has.

    Every seat is asked through its pointer, a built-in policy too: the swap is a
    few decisions a game, and calling the built-ins directly here as well
    (analyser.games.dispatch) would compile them into the engine a second time."""
    legal[:] = False
    up = pb["face_up"]
    kept = hd["swap_up"]
    for s in range(MAX_PLAYERS):
        for j in range(MAX_SLOTS):
            kept[s, j] = up[s, j]
    a = 0
    for seat in range(pb["players"]):
        pb["seat"] = seat
        for _ in range(MAX_SWAPS):
            a = ACTION.SWAP_DONE
            if fill_swap_legal_nb(pb, priv[seat], seat, legal) > 1:
                a = checked_nb(hd, seat, legal, policies[seat](pb, priv[seat], legal, params[seat]), ACTION.SWAP,
                               ACTION.COUNT)
            if a < 0 or a == ACTION.SWAP_DONE:
                break
            apply_swap_nb(pb, priv[seat], seat, a)
            hd["actions"] += 1
        if a >= 0:
            log_swap_nb(pb, priv[seat], seat, log)
        for j in range(MAX_SLOTS):
            final = up[seat, j]
            up[seat, j] = kept[seat, j]
            kept[seat, j] = final
        if a < 0:
            break
    for s in range(MAX_PLAYERS):
        for j in range(MAX_SLOTS):
            up[s, j] = kept[s, j]
    legal[:] = False    # from here on only play actions are set, see fill_play_legal_nb


@inline_kernel
def lowest_start_rank_nb(pv):
    """The seat's lowest hand rank of 3 or above (N_RANKS if it holds only 2s),
    by a scan with no early exit: no branch on the cards."""
    low = N_RANKS
    for r in range(N_RANKS - 1, RANK.THREE - 1, -1):
        low = r if pv["counts"][r] > 0 else low
    return low


@kernel
def start_nb(pb, priv, hd):
    """The start rule: the lowest rank of 3 or above in any hand; ties by the deal's stream."""
    lows = 0                        # seat s's lowest start rank in bits 4s .. 4s+3
    best = N_RANKS
    for s in range(pb["players"]):
        low = lowest_start_rank_nb(priv[s])
        lows |= low << (4 * s)
        best = min(best, low)
    n_holders = 0
    for s in range(pb["players"]):
        n_holders += (lows >> (4 * s) & 15) == best
    if best == N_RANKS:             # only 2s in every hand: seat 0 starts
        n_holders = 0
    pick = below_nb(hd["rng"], max(n_holders, 1))
    first = 0                       # the pick-th holder, in seat order
    for s in range(pb["players"]):
        if best < N_RANKS and (lows >> (4 * s) & 15) == best:
            if pick == 0:
                first = s
                break
            pick -= 1
    pb["seat"] = first
    hd["first"] = first
    pb["top_rank"] = best          # the rank the opening play must be
    pb["first_play"] = True
    pb["phase"] = PHASE.PLAY


@inline_kernel
def source_nb(pb, seat):
    if pb["hand_len"][seat] > 0:
        return SOURCE.HAND
    if pb["face_up_len"][seat] > 0:
        return SOURCE.FACE_UP
    return SOURCE.FACE_DOWN


def may_play(rank, top, ten_on_anything):
    """The pile rule: may a card of ``rank`` go on a pile whose top card has
    rank ``top`` (-1: an empty pile)? Tabulated in PLAYABLE below."""
    if top < 0 or rank == RANK.TWO or top == RANK.TWO:
        return True
    if rank == RANK.TEN and ten_on_anything:
        return True
    if top == RANK.NINE:
        return rank <= RANK.NINE
    return rank >= top


# PLAYABLE[ten_on_anything, top + 1]: the ranks that may go on the pile, as a bit
# mask; a table rather than branches because the pile's state is unpredictable.
PLAYABLE = np.array([[sum(1 << r for r in range(N_RANKS) if may_play(r, top, ten)) for top in range(-1, N_RANKS)]
                     for ten in (False, True)], np.int64)
# The bytes of a word of PLAY entries (two ranks) to keep, by the two ranks' playable bits.
KEEP_RANKS = np.array([0, 0xFFFFFFFF, 0xFFFFFFFF00000000, 0xFFFFFFFFFFFFFFFF], np.uint64)
BYTE_SUM = np.uint64(0x0101010101010101)


@inline_kernel
def playable_ranks_nb(pb):
    """The ranks that may be played now, as a bit mask; the opening play must
    be the start rank. An empty pile has top_rank -1."""
    top = np.int64(pb["top_rank"])     # int8 shifts would overflow without the JIT
    if pb["first_play"]:
        return 1 << top
    return PLAYABLE[np.int64(pb["ten_on_anything"]), top + 1]


@inline_kernel
def fill_hand_plays_nb(pv, ranks, words):
    """PLAY entries from the hand: the hand's ``plays`` bytes of the playable
    ranks, eight at a time through ``words``, a uint64 view of legal[:56] (bools
    are bytes; bytes 52..55 of ``plays`` are 0). Returns how many."""
    total = np.uint64(0)
    for w in range(PLAY_WORDS):
        x = pv["plays"][w] & KEEP_RANKS[(ranks >> (2 * w)) & 3]
        words[w] = x
        total += x                      # each byte lane counts its entries, at most 7
    return np.int64((total * BYTE_SUM) >> np.uint64(56))


@kernel
def fill_face_up_plays_nb(pb, seat, ranks, legal):
    """PLAY entries from the face-up cards, one card at a time: PLAY(rank, k)
    for the next k. Returns how many."""
    for a in range(N_CARDS):
        legal[a] = False
    n = 0
    for j in range(MAX_SLOTS):
        c = np.int64(pb["face_up"][seat, j])
        if c >= 0 and ranks >> (c >> 2) & 1:
            a = (c >> 2) * 4
            for _ in range(3):
                if legal[a]:
                    a += 1
            legal[a] = True
            n += 1
    return n


@inline_kernel
def fill_play_legal_nb(pb, pv, seat, legal, words):
    """Legal actions of the seat to move: (how many, the action when there is one).

    Only actions below SWAP are set: swap_phase_nb leaves the rest clear.
    ``words`` is legal_words_nb(legal)."""
    for a in range(N_CARDS, ACTION.SWAP):
        legal[a] = False
    src = source_nb(pb, seat)
    pb["source"] = src
    if src == SOURCE.FACE_DOWN:
        for a in range(N_CARDS):
            legal[a] = False
        n = pb["face_down_len"][seat]
        for i in range(MAX_SLOTS):
            legal[ACTION.FACE_DOWN + i] = i < n
        return n, ACTION.FACE_DOWN
    ranks = playable_ranks_nb(pb)
    if src == SOURCE.HAND:
        n_plays = fill_hand_plays_nb(pv, ranks, words)
    else:
        n_plays = fill_face_up_plays_nb(pb, seat, ranks, legal)
    # a pickup is legal on a pile: voluntary beside a play, forced without one
    # (without a play the pile is never empty); bitwise, so no branch on the pile
    pickup = (pb["pile_len"] > 0) | (n_plays == 0)
    legal[ACTION.PICKUP] = pickup
    n_legal = n_plays + pickup
    only = ACTION.PICKUP
    if n_legal == 1 and not pickup:     # a single play, on an empty pile
        for a in range(N_CARDS):
            if legal[a]:
                only = a
    return n_legal, only


@inline_kernel
def pushed_run_nb(pb, r, start, played):
    """After ``played`` cards of rank r went onto a pile of ``start`` cards: the
    run of r on top grows, or starts."""
    pb["pile_len"] = start + played
    grows = (start > 0) & (pb["top_rank"] == r)     # bitwise: no branch on the pile
    pb["top_run"] = pb["top_run"] * grows + played
    pb["top_rank"] = r


@inline_kernel
def push_pile_nb(pb, card):
    start = pb["pile_len"]
    pb["pile"][start] = card
    pushed_run_nb(pb, card >> 2, start, 1)


@kernel
def burn_nb(pb, hd, seat, log):
    for i in range(pb["pile_len"]):
        pb["gone"][pb["pile"][i] >> 2] += 1
    pb["pile_len"] = 0
    pb["top_rank"] = -1
    pb["top_run"] = 0
    hd["burns"][seat] += 1
    log_event_nb(log, EVENT.BURN, 0, seat, 0, 0)


@inline_kernel
def draw_nb(pb, pv, hd, seat, log):
    """Draw up to n cards after playing from the hand."""
    want = max(0, min(pb["n"] - pb["hand_len"][seat], pb["draw_len"]))
    head = log_event_nb(log, EVENT.DRAW, 0, seat, 0, 0) if want > 0 else -1
    for _ in range(want):
        pb["draw_len"] -= 1
        card = hd["draw"][pb["draw_len"]]
        add_to_hand_nb(pb, pv, seat, card)
        log_value_nb(log, head, card)


@inline_kernel
def pickup_pile_nb(pb, pv, hd, seat, head, log):
    """Move the whole pile into the seat's hand (where every seat knows those cards to be)."""
    for i in range(pb["pile_len"]):
        card = pb["pile"][i]
        add_to_hand_nb(pb, pv, seat, card)
        pb["known"][seat] |= BIT[card]
        log_value_nb(log, head, card)
    hd["picked_up"][seat] += pb["pile_len"]
    hd["pickups"][seat] += 1
    pb["pile_len"] = 0
    pb["top_rank"] = -1
    pb["top_run"] = 0


@inline_kernel
def next_seat_nb(pb, seat):
    """The next seat still playing (seat itself if none)."""
    s = seat
    for _ in range(MAX_PLAYERS):
        s += 1
        if s == pb["players"]:
            s = 0
        if pb["place"][s] == 0:
            return s
    return seat


@kernel
def finish_nb(pb):
    """With one player left, that player is the loser and the game is over."""
    if pb["n_out"] < pb["players"] - 1:
        return False
    for s in range(pb["players"]):
        if pb["place"][s] == 0:
            pb["place"][s] = pb["players"]
    pb["phase"] = PHASE.OVER
    return True


@inline_kernel
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
        log_event_nb(log, EVENT.OUT, 0, seat, pb["n_out"], 0)
        if finish_nb(pb):
            return
        pb["seat"] = next_seat_nb(pb, seat)
    elif not burned:
        pb["seat"] = next_seat_nb(pb, seat)


FIRST_BYTES = np.array([0, 0x01, 0x0101, 0x010101, 0x01010101], np.uint64)   # the first k of 4 bytes set


@inline_kernel
def play_from_hand_nb(pb, pv, seat, r, k, head, log):
    """k cards of rank r from the hand onto the pile, lowest suits first, with no
    branch on which suits the hand holds: each suit's card is written to the next
    pile slot and the slot kept only if the card was taken."""
    start = np.int64(pb["pile_len"])
    n = start
    ur = np.uint64(r)                   # unsigned indices: numba adds no negative-index fix-up
    for suit in range(4):
        card = r * 4 + suit
        uc = np.uint64(card)
        take = np.int64(pv["has"][uc]) & (k > 0)
        pv["has"][uc] &= ~take
        pb["known"][seat] &= ~(np.uint64(take) << uc)
        pb["pile"][np.uint64(min(n, N_CARDS - 1))] = card        # min: never past the pile's end
        n += take
        k -= take
    played = n - start
    pb["hand_len"][seat] -= played
    pv["counts"][ur] -= played
    shift = np.uint64(32 * (r & 1))
    word = pv["plays"][ur >> np.uint64(1)] & ~(FIRST_BYTES[4] << shift)
    pv["plays"][ur >> np.uint64(1)] = word | (FIRST_BYTES[np.uint64(pv["counts"][ur])] << shift)
    pushed_run_nb(pb, r, start, played)
    for i in range(start, n if head >= 0 else start):   # the trace
        log_value_nb(log, head, pb["pile"][i])


@inline_kernel
def apply_play_nb(pb, pv, hd, seat, action, log):
    """PLAY(rank, k) from the hand or the face-up cards."""
    r = action >> 2
    k = (action & 3) + 1
    src = pb["source"]
    head = log_event_nb(log, EVENT.PLAY, 0, seat, src, 0)
    if src == SOURCE.HAND:
        play_from_hand_nb(pb, pv, seat, r, k, head, log)
    else:
        for j in range(MAX_SLOTS):
            card = pb["face_up"][seat, j]
            if k > 0 and card >= 0 and card >> 2 == r:
                pb["face_up"][seat, j] = -1
                pb["face_up_len"][seat] -= 1
                push_pile_nb(pb, card)
                log_value_nb(log, head, card)
                k -= 1
    pb["first_play"] = False
    after_play_nb(pb, pv, hd, seat, src, log)


@kernel
def apply_face_down_nb(pb, pv, hd, seat, slot, log):
    """Turn over a face-down card: play it if legal, else take it and the pile."""
    last = pb["face_down_len"][seat] - 1
    card = hd["face_down"][seat, slot]
    hd["face_down"][seat, slot] = hd["face_down"][seat, last]
    hd["face_down"][seat, last] = -1
    pb["face_down_len"][seat] = last
    if playable_ranks_nb(pb) >> (card >> 2) & 1:
        head = log_event_nb(log, EVENT.PLAY, 0, seat, SOURCE.FACE_DOWN, 0)
        log_value_nb(log, head, card)
        push_pile_nb(pb, card)
        after_play_nb(pb, pv, hd, seat, SOURCE.FACE_DOWN, log)
    else:
        head = log_event_nb(log, EVENT.PICKUP, 0, seat, 2, 0)  # a = 2: a failed face-down card
        log_value_nb(log, head, card)
        add_to_hand_nb(pb, pv, seat, card)
        pb["known"][seat] |= BIT[card]                  # turned over: every seat saw it
        hd["picked_up"][seat] += 1
        pickup_pile_nb(pb, pv, hd, seat, head, log)
        pb["seat"] = next_seat_nb(pb, seat)


@inline_kernel
def apply_pickup_nb(pb, pv, hd, seat, voluntary, log):
    head = log_event_nb(log, EVENT.PICKUP, 0, seat, 1 if voluntary else 0, 0)
    if voluntary:
        hd["voluntary"][seat] += 1
    pickup_pile_nb(pb, pv, hd, seat, head, log)
    pb["seat"] = next_seat_nb(pb, seat)


@inline_kernel
def turn_nb(policies, kinds, params, max_actions, pub, priv, hid, legal, words, log, skip_cycles):
    """One action by the seat to move. Returns True when the game is over.
    With ``skip_cycles``, a pickup once the draw pile is empty looks for a
    repeating cycle (see cycles.py: every cycle has a pickup)."""
    pb = pub[0]
    hd = hid[0]
    if hd["actions"] >= max_actions:
        hd["aborted"] = True
        return True
    seat = pb["seat"] & 7       # & 7: the compiler then knows it is not negative (no index fix-ups)
    pv = priv[seat]
    n_legal, only = fill_play_legal_nb(pb, pv, seat, legal, words)
    a = only
    if n_legal > 1:
        if kinds[seat] == REVEAL:
            reveal_nb(params[seat], priv, hid)
        a = checked_nb(hd, seat, legal, decide_nb(kinds[seat], policies, seat, pb, pv, legal, params[seat]), 0,
                       ACTION.SWAP)
        if a < 0:
            return True
    hd["actions"] += 1
    hd["turns"] += 1
    if a < ACTION.PICKUP:
        apply_play_nb(pb, pv, hd, seat, a, log)
    elif a == ACTION.PICKUP:
        apply_pickup_nb(pb, pv, hd, seat, n_legal > 1, log)
        if skip_cycles and pb["draw_len"] == 0:
            watch_nb(pub, priv, hd, max_actions)
    else:
        apply_face_down_nb(pb, pv, hd, seat, a - ACTION.FACE_DOWN, log)
    return pb["phase"] == PHASE.OVER


@kernel
def turns_nb(policies, kinds, params, settings, pub, priv, hid, legal, log, most, skip_cycles):
    """Up to ``most`` actions (all of them when it is negative). True when the game is over.
    The one call site of the inlined ``turn_nb``: stepping and playing out share its compiled
    code instead of compiling the turn twice (with kernels.jit's calls compiled for their types, Palace's
    first run went from 35.4 to 28.4 s: benchmarks/RESULTS.md, nineteenth session)."""
    max_actions = settings[SETTING.MAX_ACTIONS]
    words = legal_words_nb(legal)
    done = 0
    while most < 0 or done < most:
        if turn_nb(policies, kinds, params, max_actions, pub, priv, hid, legal, words, log, skip_cycles):
            return True
        done += 1
    return False


@kernel
def step_nb(seed, unit, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """One action by the seat to move (for stepping through a game: every
    action is played, no cycle is skipped). True when it is over. ``seed``,
    ``unit`` and ``streams`` are the shared shape's (analyser.games): a game
    of Palace is one hand, dealt by begin_unit_nb, so a step needs none of them."""
    return turns_nb(policies, kinds, params, settings, pub, priv, hid, legal, log, 1, False)


@kernel
def play_out_nb(policies, kinds, params, settings, pub, priv, hid, legal, log):
    """Play turns until the game is over. A simulation (no trace log) skips a
    repeating cycle on its way to the cap, see cycles.py; a trace plays every action."""
    turns_nb(policies, kinds, params, settings, pub, priv, hid, legal, log, -1, log.size == 0)


@kernel
def begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """Deal, swap and find the opening player: the state before the first play.
    True when the game is over already (an illegal swap ends it)."""
    deal_nb(seed, unit, players, settings, streams, pub, priv, hid)
    swap_phase_nb(policies, params, pub[0], priv, hid[0], legal, log)
    if hid[0]["error"] != ERROR.NONE:
        return True
    start_nb(pub[0], priv, hid[0])
    return False


@kernel
def play_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal, log):
    """The one place a game is played, for simulation and traces alike."""
    if not begin_unit_nb(seed, unit, players, settings, streams, policies, kinds, params, pub, priv, hid, legal,
                         log):
        play_out_nb(policies, kinds, params, settings, pub, priv, hid, legal, log)
