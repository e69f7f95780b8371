"""A minimal numba toy of Palace, to see how close the package comes to a hand-written kernel (issue 18).

    .venv/bin/python benchmarks/toy_shedding.py [--count 200000] [--rounds 5] [--cap 5000]

The toy is one ``@njit`` kernel, ``play_nb``, with a plain loop over games (no prange, one thread):
for each game it shuffles one 52-card deck with its own SplitMix64 stream (seeded from the run's seed
and the game's number), deals 4 players 3 face-down, 3 face-up and 3 hand cards and a draw pile of 16,
lets every seat swap its strongest cards face up (Palace's ``swap=1``, which ``lowest`` uses by
default), finds the opener (lowest hand rank of 3 or above, ties drawn at random; the opening play is
that rank) and plays the game out with the lowest-legal-card policy: all copies of the lowest legal
rank (2 lowest, as Palace's ``lowest`` policy does), face-down cards blind, a pickup only when nothing
is legal. The pile rules are Palace's at its default settings (docs/rules/palace.md): a 2 goes on
anything and anything on a 2; on a 9 only 2-9; otherwise the same rank or higher (a 10 too: it does
not go on a 9 or on J-A); a 10 on top or four of a rank on top burns the pile and the same player
plays again unless out; the hand is refilled from the draw pile to 3 after a play from the hand; a
failed face-down card goes into the hand with the pile. A game still running after ``--cap``
actions (swap exchanges, plays and pickups; Palace's ``max_actions``, 5000) is aborted.

Cards are held as counts per rank (suits play no part in Palace); nothing is recorded, traced or
dispatched through a policy pointer: the floor a kernel written for this one game and policy reaches.
It counts games, aborted games, actions and decisions, a decision being what Palace counts: a swap
question (every one, as in Palace's swap phase) or a turn with two or more legal moves (plays of 1..k
cards of each legal rank, face-down slots, a pickup on a non-empty pile).

Before timing, the script checks on 20,000 games that the toy plays Palace's game: every game ends
(by going out or at the cap), the 52 cards are all somewhere at the end of each game (hands,
face-up, face-down, draw pile, pile, burned), and the toy's mean actions and decisions per completed
game and its aborted share are printed beside the package's (different random streams: they agree
to within sampling error, not exactly). Then it times, in alternating rounds, the toy and

    analyser.simulate("palace", policies=["lowest"], players=4, n=N, seed=1, threads=1,
                      keep_records=False, progress=False, rules={"max_actions": cap})

and prints games/s, ns/decision (1e9 / (games/s x decisions per completed game), as bench.py
computes it) and the median ratio package/toy over the rounds. The package skips a looping game's
repeating cycle on its way to the cap (analyser/games/palace/cycles.py) and the toy plays every
action, so the toy's share of actions in aborted games is printed too; ``--cap 200`` compares the two
with aborted games cheap on both sides.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import time

import numba
import numpy as np
from machine import cpu_model
from numba import njit

import analyser

N_RANKS = 13
TWO, THREE, NINE, TEN = 0, 1, 7, 8
PLAYERS = 4
N = 3              # cards per face-down, face-up and hand at 4 players
DRAW = 16


def _may_play(rank, top):
    if top < 0 or rank == TWO or top == TWO:
        return True
    if top == NINE:
        return rank <= NINE
    return rank >= top


# PLAYABLE[top + 1]: the ranks that may go on a pile with this top rank (-1: empty), as a bit mask
PLAYABLE = np.array([sum(1 << r for r in range(N_RANKS) if _may_play(r, top)) for top in range(-1, N_RANKS)],
                    np.int64)
# how much a card is worth keeping face up (Palace's STRENGTH): 10 > 2 > A > K > ... > 3
STRENGTH = np.array([14 if r == TEN else 13 if r == TWO else r for r in range(N_RANKS)], np.int64)

# LOWEST[m]: the lowest rank in a non-empty rank mask
LOWEST = np.array([(m & -m).bit_length() - 1 for m in range(1 << N_RANKS)], np.int64)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _next(state):
    """SplitMix64: advance state[0] and return 32 random bits."""
    z = state[0] + _GOLDEN
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return (z ^ (z >> np.uint64(31))) >> np.uint64(32)


@njit(cache=True, inline="always")
def _below(state, n):
    """Uniform in 0..n-1 (multiply-shift; bias below 2**-26 for n <= 52)."""
    return np.int64((_next(state) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def play_nb(seed, first, count, cap, check):
    """Play games first..first+count-1. Returns [games, aborted, actions of completed games, decisions of
    completed games, actions of aborted games, decisions of aborted games, conservation failures]
    (conservation is checked only with ``check``)."""
    hand = np.zeros((PLAYERS, N_RANKS), np.int64)
    up = np.zeros((PLAYERS, N_RANKS), np.int64)
    hand_len = np.zeros(PLAYERS, np.int64)
    up_len = np.zeros(PLAYERS, np.int64)
    down = np.zeros((PLAYERS, N), np.int64)
    down_len = np.zeros(PLAYERS, np.int64)
    out = np.zeros(PLAYERS, np.int64)
    low = np.zeros(PLAYERS, np.int64)
    hmask = np.zeros(PLAYERS, np.int64)
    umask = np.zeros(PLAYERS, np.int64)
    draw = np.zeros(DRAW, np.int64)
    pile = np.zeros(N_RANKS, np.int64)
    gone = np.zeros(N_RANKS, np.int64)
    deck = np.zeros(52, np.int64)
    rng = np.zeros(1, np.uint64)
    res = np.zeros(7, np.int64)
    for g in range(first, first + count):
        # the deal: one shuffled deck, face-down, face-up, hand, then the draw pile
        rng[0] = np.uint64(seed) * _M1 ^ np.uint64(g) * _M2
        for i in range(52):
            deck[i] = i >> 2
        for i in range(51, 0, -1):
            j = _below(rng, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hand[:] = 0
        up[:] = 0
        pile[:] = 0
        gone[:] = 0
        k = 0
        for s in range(PLAYERS):
            for j in range(N):
                down[s, j] = deck[k]
                up[s, deck[k + N]] += 1
                hand[s, deck[k + 2 * N]] += 1
                k += 1
            k += 2 * N
            down_len[s] = N
            up_len[s] = N
            hand_len[s] = N
            out[s] = 0
        for i in range(DRAW):
            draw[i] = deck[k + i]
        draw_len = DRAW
        actions = 0
        decisions = 0
        # the swap (strong cards face up): exchange the hand's strongest rank for the weakest face-up
        # card while that is an improvement; every question is a decision, every exchange an action
        for s in range(PLAYERS):
            while True:
                decisions += 1
                h = -1
                u = -1
                for r in range(N_RANKS):
                    if hand[s, r] > 0 and (h < 0 or STRENGTH[r] > STRENGTH[h]):
                        h = r
                    if up[s, r] > 0 and (u < 0 or STRENGTH[r] < STRENGTH[u]):
                        u = r
                if STRENGTH[h] <= STRENGTH[u]:
                    break
                hand[s, h] -= 1
                up[s, h] += 1
                up[s, u] -= 1
                hand[s, u] += 1
                actions += 1
        # the opener: lowest hand rank of 3 or above, ties drawn at random
        best = N_RANKS
        for s in range(PLAYERS):
            low[s] = N_RANKS
            for r in range(N_RANKS - 1, THREE - 1, -1):
                if hand[s, r] > 0:
                    low[s] = r
            best = min(best, low[s])
        holders = 0
        for s in range(PLAYERS):
            holders += low[s] == best
        pick = _below(rng, max(holders, 1))
        seat = 0
        for s in range(PLAYERS):
            if best < N_RANKS and low[s] == best:
                if pick == 0:
                    seat = s
                    break
                pick -= 1
        opening = best < N_RANKS
        for s in range(PLAYERS):        # the ranks held, as bit masks
            hmask[s] = 0
            umask[s] = 0
            for r in range(N_RANKS):
                hmask[s] |= (hand[s, r] > 0) << r
                umask[s] |= (up[s, r] > 0) << r
        top = -1
        run = 0
        pile_len = 0
        pmask = 0
        n_out = 0
        aborted = False
        while True:
            if actions >= cap:
                aborted = True
                break
            actions += 1
            src = 0 if hand_len[seat] > 0 else 1 if up_len[seat] > 0 else 2
            if src == 2:
                # a face-down card, blind (the first slot; any is as good)
                decisions += down_len[seat] > 1
                down_len[seat] -= 1
                r = down[seat, 0]
                down[seat, 0] = down[seat, down_len[seat]]
                k = 1
                legal = (PLAYABLE[top + 1] >> r) & 1
                if not legal:
                    hand[seat, r] += 1
                    hmask[seat] |= 1 << r
            else:
                mask = (1 << best) if opening else PLAYABLE[top + 1]
                legal = (hmask[seat] if src == 0 else umask[seat]) & mask
                if legal:
                    r = LOWEST[legal]
                    if src == 0:
                        k = hand[seat, r]
                        hand[seat, r] = 0
                        hand_len[seat] -= k
                        hmask[seat] &= ~(1 << r)
                    else:
                        k = up[seat, r]
                        up[seat, r] = 0
                        up_len[seat] -= k
                        umask[seat] &= ~(1 << r)
                    # a choice: a pickup beside a play, two legal ranks, or two cards of one
                    decisions += pile_len > 0 or legal & (legal - 1) != 0 or k > 1
                    opening = False
            if not legal:
                # nothing legal (or a failed face-down card): the pile goes into the hand
                for q in range(N_RANKS):
                    hand[seat, q] += pile[q]
                    pile[q] = 0
                hand_len[seat] += pile_len + (src == 2)
                hmask[seat] |= pmask
                pile_len = 0
                pmask = 0
                top = -1
                run = 0
                seat = (seat + 1) & 3
                while out[seat]:
                    seat = (seat + 1) & 3
                continue
            # k cards of rank r onto the pile; burn; draw; out; who is next
            run = run + k if pile_len > 0 and top == r else k
            top = r
            pile[r] += k
            pile_len += k
            pmask |= 1 << r
            burned = r == TEN or run >= 4
            if burned:
                for q in range(N_RANKS):
                    gone[q] += pile[q]
                    pile[q] = 0
                pile_len = 0
                pmask = 0
                top = -1
                run = 0
            if src == 0:
                while hand_len[seat] < N and draw_len > 0:
                    draw_len -= 1
                    q = draw[draw_len]
                    hand[seat, q] += 1
                    hmask[seat] |= 1 << q
                    hand_len[seat] += 1
            if hand_len[seat] == 0 and up_len[seat] == 0 and down_len[seat] == 0:
                n_out += 1
                out[seat] = n_out
                if n_out == PLAYERS - 1:
                    break
            elif burned:
                continue
            seat = (seat + 1) & 3
            while out[seat]:
                seat = (seat + 1) & 3
        res[0] += 1
        if aborted:
            res[1] += 1
            res[4] += actions
            res[5] += decisions
        else:
            res[2] += actions
            res[3] += decisions
        if check:
            # every card is somewhere: 4 of each rank in hands, face-up, face-down, draw pile, pile, burned
            ok = pile_len == pile.sum()
            for s in range(PLAYERS):
                ok &= hand_len[s] == hand[s].sum() and up_len[s] == up[s].sum()
                for r in range(N_RANKS):
                    ok &= ((hmask[s] >> r) & 1) == (hand[s, r] > 0) and ((umask[s] >> r) & 1) == (up[s, r] > 0)
            for r in range(N_RANKS):
                n = pile[r] + gone[r]
                for s in range(PLAYERS):
                    n += hand[s, r] + up[s, r]
                    for j in range(down_len[s]):
                        n += down[s, j] == r
                for i in range(draw_len):
                    n += draw[i] == r
                ok &= n == 4
            if not aborted:
                ok &= n_out == PLAYERS - 1
            res[6] += not ok
    return res


def toy_figures(res, seconds):
    games, aborted = res[0], res[1]
    done = games - aborted
    dpg = res[3] / done
    return {"games_per_s": games / seconds, "decisions_mean": dpg, "length_mean": res[2] / done,
            "aborted_share": aborted / games, "ns_per_decision": 1e9 * seconds / (games * dpg),
            "aborted_action_share": res[4] / (res[2] + res[4])}


def run_toy(count, cap, seed=1):
    t = time.perf_counter()
    res = play_nb(seed, 0, count, cap, False)
    return toy_figures(res, time.perf_counter() - t)


def run_package(count, cap):
    r = analyser.simulate("palace", policies=["lowest"], players=4, n=count, seed=1, threads=1, keep_records=False,
                          progress=False, rules={"max_actions": cap})
    f = r.figures
    ups = f["simulation_units_per_second"]
    return {"games_per_s": ups, "decisions_mean": f["decisions_mean"], "length_mean": f["length_mean"],
            "aborted_share": f["aborted_share"], "ns_per_decision": 1e9 / (ups * f["decisions_mean"])}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=200_000, help="games per timed run")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (toy, package)")
    ap.add_argument("--cap", type=int, default=5000, help="actions before a game is aborted (Palace's max_actions)")
    args = ap.parse_args()
    numba.set_num_threads(1)
    print(f"Machine: {platform.machine()}, {cpu_model()}, Python {platform.python_version()}, "
          f"numba {numba.__version__}, analyser {analyser.__version__}; one thread; cap {args.cap} actions")

    # sanity: every game ends, cards are conserved, and the toy plays the package's game
    check = 20_000
    res = play_nb(7, 10**6, check, args.cap, True)
    assert res[0] == check, res
    assert res[6] == 0, f"{res[6]} games lost or made cards"
    toy = toy_figures(res, 1.0)
    pkg = run_package(check, args.cap)
    print(f"\nsanity ({check:,} games each, cards conserved in every toy game):")
    print("| | actions/completed game | decisions/completed game | aborted share |\n|---|---:|---:|---:|")
    for name, f in (("toy", toy), ("package (lowest x4)", pkg)):
        print(f"| {name} | {f['length_mean']:.2f} | {f['decisions_mean']:.2f} | {f['aborted_share']:.3%} |")
    print(f"toy: {toy['aborted_action_share']:.1%} of its actions are in aborted games (played to the cap)")

    run_toy(1000, args.cap)        # compiled already (cache); one short run each to warm up
    run_package(1000, args.cap)
    rows = []
    for i in range(args.rounds):
        t = run_toy(args.count, args.cap)
        p = run_package(args.count, args.cap)
        rows.append((t, p))
        print(f"round {i + 1}: toy {t['games_per_s']:,.0f} games/s ({t['ns_per_decision']:.1f} ns/decision), "
              f"package {p['games_per_s']:,.0f} games/s ({p['ns_per_decision']:.1f} ns/decision), "
              f"toy/package {t['games_per_s'] / p['games_per_s']:.2f}x", flush=True)
    med = statistics.median
    tg = med(t["games_per_s"] for t, _ in rows)
    pg = med(p["games_per_s"] for _, p in rows)
    tn = med(t["ns_per_decision"] for t, _ in rows)
    pn = med(p["ns_per_decision"] for _, p in rows)
    ratio = med(p["games_per_s"] / t["games_per_s"] for t, p in rows)
    print(f"\nmedians of {args.rounds} alternating rounds of {args.count:,} games, one thread:")
    print("| | games/s | ns/decision |\n|---|---:|---:|")
    print(f"| toy (one kernel) | {tg:,.0f} | {tn:.1f} |")
    print(f"| package (palace, lowest x4) | {pg:,.0f} | {pn:.1f} |")
    print(f"package/toy games/s: median {ratio:.3f} (the toy is {1 / ratio:.2f}x the package)")


if __name__ == "__main__":
    main()
