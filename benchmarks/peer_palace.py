"""Palace against masters-of-shithead, a pure-Python Shithead with AI players (issue 18).

The peer is Wolfgang Trachsler's masters-of-shithead 1.0.5 (github.com/trachwo/masters-of-shithead,
MIT). It is not a dependency of this project and is never copied into it: it lives in a throwaway
venv and this script calls it. Install it there (its GUI library, arcade, installs and imports
headless; the game's own modules import only numpy):

    python3 -m venv /tmp/peer
    /tmp/peer/bin/pip install masters-of-shithead
    # or, where that package index has no copy of it, from its source tree (repo root, pyproject.toml):
    #     /tmp/peer/bin/pip install PATH/TO/masters-of-shithead

Then

    /tmp/peer/bin/python benchmarks/peer_palace.py --games 2000       # the peer alone: games/s
    .venv/bin/python benchmarks/peer_palace.py --compare /tmp/peer/bin/python [--rounds 3]

The second runs, in each of ``--rounds`` alternating rounds, the peer in a subprocess (``--games``
games; only its game loop is timed, not its start-up) and then this package's

    analyser.simulate("palace", policies=[P], players=4, n=--count, seed=1, threads=1,
                      keep_records=False, progress=False)

for P = lowest and P = saver (``figures["simulation_units_per_second"]``, the games alone; the
end-to-end figure with the tally is printed beside it), and prints the medians and the median
ratios Palace/peer.

The peer's players: four ``CheapShit`` AIs, the peer's cheapest rule-based player (its module
calls it "medium": it always plays its cheapest playable card by a fixed value order with 2s, 3s and
10s last, never takes the pile by choice and turns over face-down cards at random; it swaps its
face-up cards with the peer's precomputed face-up table, as its own AI test does). The peer's other
AIs are either random (ShitHappens), add pile-taking heuristics (TakeShit), probability analysis
(BullShit) or Monte Carlo simulation and tree search (DeepShit, DeeperShit), which would measure
their search, not the game. CheapShit corresponds to Palace's ``saver`` (lowest legal rank, specials
kept back; ``lowest`` also plays 2s and 10s early), so both are timed. The games are played by
the peer's own non-GUI loop, ``shithead.shithead.play_round(players, None, None, None, auto=True)``
(the one its face-up-table generator uses): full games from shuffle and deal to the last player,
four players as in Palace's figures, no GUI, no statistics object, no printing (stdout is
captured and must stay empty), no logging to file; a game the peer aborts (its AIs give up after
100 turns per player) counts as played, as Palace's aborted games do (Palace's cap is 5,000 actions);
so does a game in which the peer crashes (rarely, at four players: its opening auction can run out of
cards and then reads an attribute nothing sets), counted apart.
The random dealer and shuffles come from Python's ``random``, seeded with ``--seed``.

What differs in the rules (the peer's shithead_rules.txt against docs/rules/palace.md), so a peer
game is not a Palace game and is longer: the peer plays 4 players with two decks, 28-36 cards
removed unseen (68-76 cards in play, a draw pile of 32-40 against Palace's 52 and 16); in the peer a
3 is transparent and goes on anything, a 7 (not a 9) caps the next card, an 8 skips the next
player, a K reverses the direction, a Q must be covered by the same player, a 10 goes on anything
but a 7 (in Palace only on 2-8 or a 10), and a drawn card of the top's rank may be played at
once; the opener is found by an auction for the lowest card (4 of clubs first) rather than the
lowest rank of 3 or above; a player taking the pile while playing face-up cards also takes face-up
cards into the hand. Common to both: a 2 resets, a 10 and four of a rank on top burn the pile, the
hand is refilled to 3, the pile is picked up when nothing can be played, face-up cards after the
hand and the draw pile, face-down cards blind, and the last player holding cards loses.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import cpu_model

PEER_PLAYER = "CheapShit"


def play_peer(games: int, players: int, seed: int) -> dict:
    """Run in the peer's venv: ``games`` full games between ``players`` CheapShit AIs."""
    from shithead import player as plr
    from shithead.fup_table import FUP_TABLE_FILE, FupTable
    from shithead.shithead import play_round

    fup_table = FupTable()
    fup_table.load(FUP_TABLE_FILE, True)      # the face-up table shipped in the package
    table = [getattr(plr, PEER_PLAYER)(f"{PEER_PLAYER}{i}", fup_table) for i in range(players)]
    random.seed(seed)
    aborted = crashed = 0
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink):
        start = time.perf_counter()
        for _ in range(games):
            try:
                loser, _turns = play_round(table, None, None, None, True)
            except AttributeError as e:
                # the peer's own bug: when its opening auction runs through all 52 cards without a
                # single winner (two decks: two players show the same card), resolve_auction reads
                # state.starter, which nothing sets. Such a game counts as played, and as crashed.
                if "starter" not in str(e):
                    raise
                crashed += 1
                continue
            aborted += loser == "ABORT"
        seconds = time.perf_counter() - start
    assert not sink.getvalue(), f"the peer printed during its games: {sink.getvalue()[:200]!r}"
    return {"games": games, "players": players, "aborted": aborted, "crashed": crashed, "seconds": seconds,
            "games_per_s": games / seconds, "python": platform.python_version()}


def play_palace(policy: str, players: int, count: int) -> dict:
    import analyser

    r = analyser.simulate("palace", policies=[policy], players=players, n=count, seed=1, threads=1,
                          keep_records=False, progress=False)
    f = r.figures
    return {"games_per_s": f["simulation_units_per_second"], "end_to_end": f["units_per_second"],
            "aborted_share": f["aborted_share"], "decisions_mean": f["decisions_mean"]}


def compare(peer_python: str, games: int, players: int, count: int, rounds: int, seed: int) -> None:
    import numba

    import analyser

    numba.set_num_threads(1)
    print(f"Machine: {platform.machine()}, {cpu_model()}, Python {platform.python_version()}, "
          f"analyser {analyser.__version__}; one thread; {players} players")
    for policy in ("lowest", "saver"):          # compile (or load) and warm up
        play_palace(policy, players, 1000)
    cmd = [peer_python, str(Path(__file__).resolve()), "--games", str(games), "--players", str(players), "--json"]
    rows = []
    for i in range(rounds):
        out = subprocess.run(cmd + ["--seed", str(seed + i)], check=True, capture_output=True, text=True)
        peer = json.loads(out.stdout.strip().splitlines()[-1])
        ours = {policy: play_palace(policy, players, count) for policy in ("lowest", "saver")}
        rows.append((peer, ours))
        print(f"round {i + 1}: peer {peer['games_per_s']:,.1f} games/s ({peer['aborted']} of {games} aborted, "
              f"{peer['crashed']} crashed); "
              + "; ".join(f"palace {p} {o['games_per_s']:,.0f} games/s = {o['games_per_s'] / peer['games_per_s']:,.0f}x"
                          for p, o in ours.items()), flush=True)
    med = statistics.median
    peer_rate = med(p["games_per_s"] for p, _ in rows)
    aborted = sum(p["aborted"] for p, _ in rows) / (rounds * games)
    crashed = sum(p["crashed"] for p, _ in rows)
    print(f"\nmedians of {rounds} alternating rounds (peer: {games:,} games of {players} {PEER_PLAYER}, Python "
          f"{rows[0][0]['python']}; Palace: {count:,} games), one thread:")
    print("| | games/s (games alone) | games/s end to end | aborted | Palace/peer |\n|---|---:|---:|---:|---:|")
    print(f"| masters-of-shithead, {PEER_PLAYER} x{players} | {peer_rate:,.1f} | | {aborted:.2%} | |")
    for policy in ("lowest", "saver"):
        rate = med(o[policy]["games_per_s"] for _, o in rows)
        end = med(o[policy]["end_to_end"] for _, o in rows)
        ratio = med(o[policy]["games_per_s"] / p["games_per_s"] for p, o in rows)
        share = rows[-1][1][policy]["aborted_share"]
        print(f"| Palace, {policy} x{players} | {rate:,.0f} | {end:,.0f} | {share:.2%} | {ratio:,.0f}x |")
    if crashed:
        print(f"(the peer crashed in {crashed} of {rounds * games:,} games, its opening auction bug; "
              "counted as played)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="peer games per run")
    ap.add_argument("--players", type=int, default=4, help="players at the table (both games)")
    ap.add_argument("--seed", type=int, default=1, help="the peer's random seed (round i uses seed + i)")
    ap.add_argument("--json", action="store_true", help="print the peer's figures as one JSON line")
    ap.add_argument("--compare", metavar="PEER_PYTHON", help="the peer venv's python: time it against Palace")
    ap.add_argument("--count", type=int, default=200_000, help="Palace games per run (with --compare)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (with --compare)")
    args = ap.parse_args()
    if args.compare:
        compare(args.compare, args.games, args.players, args.count, args.rounds, args.seed)
        return
    r = play_peer(args.games, args.players, args.seed)
    if args.json:
        print(json.dumps(r))
    else:
        print(f"masters-of-shithead: {r['games']:,} games of {r['players']} {PEER_PLAYER} in {r['seconds']:.2f} s: "
              f"{r['games_per_s']:,.1f} games/s, {r['aborted']} aborted, {r['crashed']} crashed "
              f"(Python {r['python']}, {sys.executable})")


if __name__ == "__main__":
    main()
