"""Palace one-thread throughput of a git revision against the working tree, measured in alternation.

    .venv/bin/python benchmarks/ab_palace.py [--base REV] [--policies saver,lowest,pickup,saver]
                                             [--deals 200000] [--rounds 5]

This VM's speed drifts by several percent over minutes, so two versions timed
minutes apart cannot be compared; run one after the other, round after round,
the drift hits both alike. Each round times each side (best of three runs of
``--deals`` games, compiled code loaded, one thread) in a fresh process; the
base side runs from a temporary git worktree of REV. Prints every round, the
medians and their ratio (working tree / base).
"""
from __future__ import annotations

import argparse
import statistics

from revisions import checkouts, run_with

CHILD = """
import sys, warnings
warnings.simplefilter("ignore")
import analyser
policies, deals = sys.argv[1].split(","), int(sys.argv[2])
best = max(analyser.simulate("palace", players=4, policies=policies, deals=deals, seed=1, threads=1,
                             keep_records=False, progress=False).figures["games_per_second"] for _ in range(3))
print(round(best))
"""


def games_per_second(src, policies: str, deals: int, cwd: str) -> int:
    return int(run_with(src, CHILD, [policies, str(deals)], cwd).split()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--policies", default="saver,lowest,pickup,saver", help="one policy per seat, or one for all")
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with checkouts(args.base) as (tmp, sides):
        for src in sides.values():      # compile (or load) each side once before timing
            games_per_second(src, args.policies, 1000, tmp)
        runs = {name: [] for name in sides}
        for i in range(args.rounds):
            for name, src in sides.items():
                runs[name].append(games_per_second(src, args.policies, args.deals, tmp))
            print(f"round {i + 1}: {args.base} {runs['base'][-1]:,}  working tree {runs['tree'][-1]:,} games/s")
    a, b = statistics.median(runs["base"]), statistics.median(runs["tree"])
    print(f"median {args.base} {a:,.0f}  working tree {b:,.0f}  ratio {b / a:.3f}  ({args.policies}, one thread)")


if __name__ == "__main__":
    main()
