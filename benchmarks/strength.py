"""How strong the compiled search players are; prints Markdown rows for RESULTS.md.

    .venv/bin/python benchmarks/strength.py GAME [--deals 400] [--seed 1] [--ladder 4,8,16,32]

Each line is ``analyser.compare`` (duplicate deals, every arrangement of the seats, so seats are
rotated and the deal's luck is shared): A's advantage in win share over B in points, with its
paired 95% interval, on the game's default player count:

- PIMC at its defaults against each built-in heuristic (the best of them is the bar);
- ISMCTS at its defaults against PIMC;
- the budget ladder (analyser.analyses.skill_ladder, as ``analyser skill`` plays it): PIMC at 2B
  worlds against B worlds, rung by rung, until a rung is not significant.
"""
from __future__ import annotations

import argparse
import time

from machine import machine_line

import analyser
from analyser.analyses.skill_ladder import ladder
from analyser.games.registry import get_game


def line(game, a: str, b: str, deals: int, estimate: float, low: float, high: float, seconds: float) -> str:
    return (f"| {game} | `{a}` | `{b}` | {deals:,} | {100 * estimate:+.2f} [{100 * low:+.2f}, {100 * high:+.2f}] | "
            f"{seconds:,.0f} s |")


def row(game, a: str, b: str, deals: int, seed: int, unit=None) -> str:
    t = time.perf_counter()
    result = analyser.compare(game, [a, b], deals=deals, seed=seed, progress=False, unit=unit)
    win = result.summary.set_index("quantity").loc["win share difference"]
    return line(game, a, b, deals, win["estimate"], win["ci_low"], win["ci_high"], time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ladder", default="4,8,16,32")
    parser.add_argument("--skip", default="", help="comma-separated parts to leave out: heuristics,ismcts,ladder")
    parser.add_argument("--against", default="", help="comma-separated heuristics (default: every one)")
    parser.add_argument("--unit", default=None, help="the game's --unit (a hand or round where a match is long)")
    args = parser.parse_args()
    game = get_game(args.game)
    skip = set(filter(None, args.skip.split(",")))
    print(machine_line())
    print(f"\n{game.title}, {game.default_players} players, {args.deals:,} deals x every arrangement, "
          f"seed {args.seed}{f', unit {args.unit}' if args.unit else ''}\n")
    print("| game | A | B | deals | A - B, points of win share [95% CI] | time |")
    print("|---|---|---|---:|---:|---:|")
    if "heuristics" not in skip:
        names = args.against.split(",") if args.against else [h.name for h in game.heuristics]
        for name in names:
            print(row(game.name, "pimc", name, args.deals, args.seed, args.unit), flush=True)
    if "ismcts" not in skip:
        print(row(game.name, "ismcts", "pimc", args.deals, args.seed, args.unit), flush=True)
    if "ladder" not in skip:
        def show(r, _):
            print(line(game.name, r["a"], r["b"], args.deals, r["estimate"], r["ci_low"], r["ci_high"],
                       r["seconds"]), flush=True)

        ladder(game.name, "pimc", [int(b) for b in args.ladder.split(",")], deals=args.deals, seed=args.seed,
               unit=args.unit, progress=False, on_rung=show)


if __name__ == "__main__":
    main()
