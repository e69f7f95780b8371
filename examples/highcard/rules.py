"""High card, a small game written outside the analyser: its state, rules and simulation loop.

Four seats in two teams (0+2 against 1+3). A match is ``hands`` hands. Each
hand is dealt from its own sub-stream: 20 cards (ranks 10 J Q K A, card id
rank * 4 + suit), three to each seat, eight left in the stock. From a starter
drawn by the deal, each seat plays one card face up. The team with the highest
rank played wins the hand; when both teams played it, the hand is tied. The
team with more hands wins the match; equal hands draw it.

A policy is handed the whole table (``POLICY_SIG``), so a peeking policy is
possible: an honest one reads only its own hand, the played cards, the score,
its stream ``table["rng"][seat]`` and its memory ``table["memory"][seat]``
(kept between its decisions for the whole match).

Compiled through analyser.kernels.jit, so numba caches these functions under the
analyser's cache, keyed by its kernels (``kernel`` where nothing is allocated;
``jit()`` where the function allocates arrays and so needs numba's reference
counting; ``typed`` for the entry points, which take explicit signatures).
"""
import numba
import numpy as np
from numba import njit, prange, types

from analyser.kernels import cache
from analyser.kernels.jit import jit, kernel
from analyser.kernels.outcome import outcome_fields
from analyser.kernels.rng import DEAL_SLOT, POLICY_SLOT, below_nb, hand_seed_nb, shuffle_nb

SEATS, HAND, DECK, MEMORY = 4, 3, 20, 4
STOCK = DECK - SEATS * HAND
HANDS, MAX_ACTIONS = 0, 1            # the settings row
DEAL, PLAY, HAND_END = 1, 2, 3       # log events: type, hand, a, b (+ the 20 cards of a deal)
LOG_PER_HAND = 4 + DECK + SEATS * 4 + 4

TABLE_DTYPE = np.dtype([
    ("hands", np.int8, (SEATS, HAND)), ("hand_len", np.int8, (SEATS,)),
    ("played", np.int8, (SEATS,)),                 # this hand's card of each seat, -1 before it plays
    ("stock", np.int8, (STOCK,)),
    ("seat", np.int8), ("n_played", np.int8), ("hand", np.int16), ("n_hands", np.int16),
    ("won", np.int16, (2,)), ("ties", np.int16), ("actions", np.int32), ("max_actions", np.int32),
    ("over", np.bool_), ("aborted", np.bool_), ("illegal_seat", np.int8),
    ("seed", np.int64), ("unit", np.int64), ("streams", np.int64, (SEATS,)),
    ("rng", np.uint64, (SEATS, 1)), ("deal_rng", np.uint64, (1,)),
    ("memory", np.float64, (SEATS, MEMORY)),
], align=True)

RECORD_DTYPE = np.dtype([*outcome_fields(SEATS), ("hands_won", np.int16, (SEATS,)), ("ties", np.int16),
                         ("illegal_seat", np.int8)], align=True)

TABLE_T = numba.from_dtype(TABLE_DTYPE)
RECORD_T = numba.from_dtype(RECORD_DTYPE)
POLICY_SIG = types.int64(TABLE_T, types.int64, types.boolean[::1], types.float64[::1])
POLICIES_T = types.UniTuple(types.FunctionType(POLICY_SIG), SEATS)
TABLE_A = types.Array(TABLE_T, 1, "C")


def typed(signature, **options):
    """``njit(signature, cache=True, **options)``, cached as analyser.kernels.jit caches:
    compiled at once for these types only, so any tuple of policies (each converted to
    the policy function type) runs the one compiled entry point."""
    def decorate(fn):
        cache.claim(fn)
        return njit(signature, cache=True, **options)(fn)

    return decorate


@kernel
def log_nb(log, etype, hand, a, b):
    if log.size:
        p = log[0]
        log[p] = etype
        log[p + 1] = hand
        log[p + 2] = a
        log[p + 3] = b
        log[0] = p + 4


@jit()
def deal_nb(t, h, log):
    """Hand h: its shuffle, starter and policy streams come from its own sub-streams."""
    t["deal_rng"][0] = hand_seed_nb(t["seed"], t["unit"], h, DEAL_SLOT)
    deck = np.arange(DECK).astype(np.int8)
    shuffle_nb(t["deal_rng"], deck)
    for s in range(SEATS):
        t["hands"][s, :] = deck[s * HAND: (s + 1) * HAND]
        t["hand_len"][s] = HAND
        t["played"][s] = -1
        t["rng"][s][0] = hand_seed_nb(t["seed"], t["unit"], h, POLICY_SLOT + t["streams"][s])
    t["stock"][:] = deck[SEATS * HAND:]
    t["seat"] = below_nb(t["deal_rng"], SEATS)
    t["n_played"] = 0
    t["hand"] = h
    log_nb(log, DEAL, h, t["seat"], 0)
    if log.size:
        p = log[0]
        log[p: p + DECK] = deck
        log[0] = p + DECK


@jit()
def start_nb(seed, unit, settings, streams, t, log):
    t["seed"] = seed
    t["unit"] = unit
    t["n_hands"] = settings[HANDS]
    t["max_actions"] = settings[MAX_ACTIONS]
    t["streams"][:] = streams[:SEATS]
    deal_nb(t, 0, log)


@jit()
def turn_nb(policies, params, t, legal, log):
    """One play by the seat to move; True when the match is over."""
    if t["actions"] >= t["max_actions"]:
        t["aborted"] = True
        t["over"] = True
        return True
    seat = np.int64(t["seat"])
    n = t["hand_len"][seat]
    for i in range(HAND):
        legal[i] = i < n
    a = policies[seat](t, seat, legal, params[seat]) if n > 1 else 0
    if a < 0 or a >= n:
        t["illegal_seat"] = seat
        t["aborted"] = True
        t["over"] = True
        return True
    card = t["hands"][seat, a]
    for i in range(a, n - 1):
        t["hands"][seat, i] = t["hands"][seat, i + 1]
    t["hands"][seat, n - 1] = -1
    t["hand_len"][seat] = n - 1
    t["played"][seat] = card
    t["actions"] += 1
    log_nb(log, PLAY, t["hand"], seat, card)
    t["seat"] = (seat + 1) % SEATS
    t["n_played"] += 1
    if t["n_played"] < SEATS:
        return False
    best = np.zeros(2, np.int64)
    for s in range(SEATS):
        best[s % 2] = max(best[s % 2], t["played"][s] // 4 + 1)
    winner = 0 if best[0] > best[1] else 1 if best[1] > best[0] else -1
    if winner >= 0:
        t["won"][winner] += 1
    else:
        t["ties"] += 1
    log_nb(log, HAND_END, t["hand"], winner, 0)
    if t["hand"] + 1 == t["n_hands"]:
        t["over"] = True
        return True
    deal_nb(t, t["hand"] + 1, log)
    return False


@kernel
def record_nb(rec, t):
    """The outcome block: score = the seat's team's hands won, win 1 for each
    seat of the winning team, rank 1 or 2 (a draw: rank 1 and no win for all)."""
    rec["unit"] = t["unit"]
    rec["aborted"] = t["aborted"]
    rec["length"] = t["actions"]
    rec["ties"] = t["ties"]
    rec["illegal_seat"] = t["illegal_seat"]
    rec["draw"] = not t["aborted"] and t["won"][0] == t["won"][1]
    for s in range(SEATS):
        team = s % 2
        rec["team"][s] = team
        rec["hands_won"][s] = t["won"][team]
        if not t["aborted"]:
            rec["score"][s] = t["won"][team]
            ahead = t["won"][team] > t["won"][1 - team]
            rec["win"][s] = 1.0 if ahead else 0.0
            rec["rank"][s] = 1 if ahead or rec["draw"] else 2


@jit()
def play_match_nb(seed, unit, settings, policies, params, streams, out, log):
    t = np.zeros(1, TABLE_DTYPE)
    t[0]["illegal_seat"] = -1
    legal = np.zeros(HAND, np.bool_)
    start_nb(seed, unit, settings, streams, t[0], log)
    while not turn_nb(policies, params, t[0], legal, log):
        pass
    record_nb(out, t[0])


SIMULATE_SIG = types.void(types.int64, types.int64, types.int64, types.int64[::1], POLICIES_T,
                          types.float64[:, ::1], types.int64[::1], RECORD_T[::1])


@typed(SIMULATE_SIG, parallel=True)
def simulate_nb(seed, first_unit, players, settings, policies, params, streams, out):
    for i in prange(out.size):
        play_match_nb(seed, first_unit + i, settings, policies, params, streams, out[i], np.zeros(0, np.int32))


@typed(types.void(types.int64, types.int64, types.int64, types.int64[::1], POLICIES_T, types.float64[:, ::1],
                   types.int64[::1], types.int32[::1], RECORD_T[::1]))
def trace_nb(seed, unit, players, settings, policies, params, streams, log, out):
    log[0] = 1
    play_match_nb(seed, unit, settings, policies, params, streams, out[0], log)


# One action at a time, for the test kit (explicit signatures: any policies, one compilation).
@typed(types.void(types.int64, types.int64, types.int64[::1], types.int64[::1], TABLE_A))
def start(seed, unit, settings, streams, table):
    table[0]["illegal_seat"] = -1
    start_nb(seed, unit, settings, streams, table[0], np.zeros(0, np.int32))


@typed(types.boolean(POLICIES_T, types.float64[:, ::1], TABLE_A, types.boolean[::1]))
def step(policies, params, table, legal):
    return turn_nb(policies, params, table[0], legal, np.zeros(0, np.int32))
