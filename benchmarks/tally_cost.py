"""What a tally costs a unit: ``Tally.add`` on one default chunk of each game's default line-up.

    .venv/bin/python benchmarks/tally_cost.py [--game GAME ...] [--rounds 7]

The tally runs beside the simulation (engine.background), so at one thread it is free (the
other core does it) and at two threads every nanosecond of it is taken from the simulation:
against a unit's CPU time (Olenon about 2.5 us a match, Palace 7 us a game) it bounds what
``simulate`` at two threads can reach without ``--out``. Prints the best of ``--rounds``
calls per game, in ns a unit; the records are played once beforehand (not timed).
"""
from __future__ import annotations

import argparse
import time

import analyser
from analyser.engine.config import DEFAULT_CHUNK
from analyser.games.registry import game_names, get_game
from analyser.stats.tally import Tally

GAMES = tuple(game_names())     # every registered game


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", nargs="*", default=list(GAMES))
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    print("| game | units | ns a unit |\n|---|---:|---:|")
    for name in args.game:
        count = DEFAULT_CHUNK if name != "spite_and_malice" else 4096     # a match is 2,700 decisions
        run = analyser.simulate(name, n=count, seed=1, keep_records=True, progress=False)
        game, best = get_game(name), float("inf")
        for _ in range(args.rounds):
            tally = Tally.for_run(game, run.meta["players"], run.meta["policies"])
            t0 = time.perf_counter()
            tally.add(run.records)
            best = min(best, time.perf_counter() - t0)
        print(f"| {name} | {count:,} | {best / count * 1e9:.0f} |")


if __name__ == "__main__":
    main()
