"""One game's one-thread throughput at a git revision against the working tree, measured in alternation.

    .venv/bin/python benchmarks/ab.py [--game palace] [--base REV] [--policies saver,lowest,pickup,saver]
                                      [--count 200000] [--rounds 5]

This VM's speed drifts by several percent over minutes, so two versions timed
minutes apart cannot be compared; run one after the other, round after round,
the drift hits both alike. Each round times each side (best of three runs of
``--count`` units, compiled code loaded, one thread) in a fresh process; the
base side runs from a temporary git worktree of REV. Prints every round, the
medians and their ratio (working tree / base), for the simulation alone and
end to end (the whole API call: simulation and tally).
"""
from __future__ import annotations

import argparse
import statistics

from revisions import checkouts, run_with

DEFAULT_POLICIES = {"palace": "saver,lowest,pickup,saver", "enemy_anemone": "timing,greedy,lowball,timing",
                    "olenon": "shed,shed,shed,shed", "spite_and_malice": "builder,builder"}

CHILD = """
import sys, warnings
warnings.simplefilter("ignore")
import time
import analyser
game, policies, deals = sys.argv[3], sys.argv[1].split(","), int(sys.argv[2])
best_sim = best_end = 0
for _ in range(3):
    t = time.perf_counter()
    f = analyser.simulate(game, players=None, policies=policies, deals=deals, seed=1, threads=1,
                          keep_records=False, progress=False).figures
    end = deals / (time.perf_counter() - t)
    # before the outcome block, games_per_second was the simulation alone
    best_sim = max(best_sim, f.get("simulation_units_per_second") or f["games_per_second"])
    best_end = max(best_end, end)
print(round(best_sim), round(best_end))
"""


def units_per_second(src, game: str, policies: str, count: int, cwd: str) -> tuple[int, int]:
    """(simulation alone, end to end: the API call with its tally) units/s."""
    sim, end = run_with(src, CHILD, [policies, str(count), game], cwd).split()[-2:]
    return int(sim), int(end)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--game", default="palace", choices=sorted(DEFAULT_POLICIES))
    ap.add_argument("--policies", help="one policy per seat, or one for all (default: a mix of the game's)")
    ap.add_argument("--count", "--deals", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    args.policies = args.policies or DEFAULT_POLICIES[args.game]
    with checkouts(args.base) as (tmp, sides):
        for src in sides.values():      # compile (or load) each side once before timing
            units_per_second(src, args.game, args.policies, 1000, tmp)
        runs = {name: [] for name in sides}
        for i in range(args.rounds):
            for name, src in sides.items():
                runs[name].append(units_per_second(src, args.game, args.policies, args.count, tmp))
            print(f"round {i + 1}: {args.base} {runs['base'][-1][0]:,} / {runs['base'][-1][1]:,}  "
                  f"working tree {runs['tree'][-1][0]:,} / {runs['tree'][-1][1]:,} units/s (simulation / end to end)")
    for k, what in enumerate(("simulation", "end to end")):
        a = statistics.median(r[k] for r in runs["base"])
        b = statistics.median(r[k] for r in runs["tree"])
        print(f"{what}: median {args.base} {a:,.0f}  working tree {b:,.0f}  ratio {b / a:.3f}  "
              f"({args.policies}, one thread)")


if __name__ == "__main__":
    main()
