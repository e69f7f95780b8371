"""Do the bounds over all deals hold the all-deals truth? compare's "all aborts lost" / "all aborts won".

    .venv/bin/python benchmarks/calibrate_aborts.py --seeds 100

The bounds (stats.paired.abort_bounds) are bounds, so there is no single truth to calibrate them against;
what must hold is that each bound's interval covers its own truth, the all-deals difference with every
aborted play counted as lost (won) by A, and so that [lost's low end, won's high end] covers the whole
range of truths the aborted games could give. The truths come from one large run (--truth-deals, seed
10**6, which no calibration seed uses); seed s is run seed s, 1 .. --seeds. One Markdown table.

Cases: Palace 4p ``pickup:max_voluntary=5000`` against ``pickup`` (about a quarter of the deals abort in
some arrangement), and Palace 2p ``pickup`` against ``saver`` with a cap of 130 actions (a few percent of
the deals; Palace's own 2p games with ``random`` abort too rarely at the 5,000 cap to calibrate cheaply).
Target: each bound's coverage 93-97%; the union's at least 95%. The union covers both truths unless the
lost bound's interval misses low or the won bound's misses high; each tail is nominally 2.5% and the two
are all but disjoint, so the union sits at about 95%, not above. With a quarter of the deals aborted at
200 deals the outer tails are a little heavy (a quarter of the per-deal values sit at an extreme); the
truth run must be large (a 50,000-deal truth is off by about 1 SE of its own, which alone costs 1-2 points
of coverage over 1,000 seeds).
About 5 minutes for 300 seeds on a busy core (most of it the 200,000-deal truth and the 1,000-deal runs).
"""
from __future__ import annotations

import argparse
import time
import warnings

from analyser.analyses.compare import compare
from analyser.errors import AbortedUnits

TRUTH_SEED = 10**6
CASES = [("Palace 4p pickup:max_voluntary=5000 vs pickup", ["pickup:max_voluntary=5000", "pickup"], 4, (200, 1000),
          None),
         ("Palace 2p pickup vs saver, max_actions=130", ["pickup", "saver"], 2, (500,), {"max_actions": 130})]


def bounds(policies, players, deals, seed, rules) -> dict:
    """The win share difference's bounds over all deals; with no aborted deal both are the headline."""
    r = compare("palace", policies, players=players, deals=deals, seed=seed, rules=rules, progress=False, threads=1)
    b = r.tally.bounds("win")
    if b["aborted"] == 0:
        win = r.summary.set_index("quantity").loc["win share difference"]
        b["lost"] = b["won"] = {"mean": win["estimate"], "low": win["ci_low"], "high": win["ci_high"]}
    return b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--truth-deals", type=int, default=200_000)
    args = parser.parse_args()
    warnings.simplefilter("ignore", AbortedUnits)
    print("| case | deals | seeds | aborted (truth run) | truth lost | truth won | lost covered | won covered "
          "| union covers both | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, policies, players, sizes, rules in CASES:
        truth = bounds(policies, players, args.truth_deals, TRUTH_SEED, rules)
        for deals in sizes:
            t0 = time.perf_counter()
            lost_in = won_in = both = 0
            for seed in range(1, args.seeds + 1):
                b = bounds(policies, players, deals, seed, rules)
                lost, won = b["lost"], b["won"]
                lost_in += lost["low"] <= truth["lost"]["mean"] <= lost["high"]
                won_in += won["low"] <= truth["won"]["mean"] <= won["high"]
                both += lost["low"] <= truth["lost"]["mean"] and truth["won"]["mean"] <= won["high"]
            n = args.seeds
            print(f"| {name} | {deals:,} | {n} | {100 * truth['share']:.2f}% | {100 * truth['lost']['mean']:+.2f}pp "
                  f"| {100 * truth['won']['mean']:+.2f}pp | {100 * lost_in / n:.1f}% | {100 * won_in / n:.1f}% "
                  f"| {100 * both / n:.1f}% | {time.perf_counter() - t0:.0f} |", flush=True)


if __name__ == "__main__":
    main()
