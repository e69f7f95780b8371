"""Calibration: does a balance report on a fair setup flag at most its nominal false discovery rate?

A report makes dozens of tests and calls a finding significant when its Benjamini-Hochberg adjusted
p-value is below 5% (analyser.stats.multiple). This plays reports over many seeds on a setup where some
of those tests are null by construction, and counts how often they are flagged:

- the seat test (every seat has the same win share): with one policy in every seat, or a mixed line-up
  rotated over the seats, the seats are exchangeable in every built-in game (the first mover is drawn from
  the deal, and every other rule is the same for every seat), so the test's null is true;
- each seat's change in win share under each rule value (one policy in every seat only): the seats stay
  exchangeable under every value and the win total per unit does not change in Palace (one loser) or
  Enemy Anemone (shared wins sum to 1), so each seat's share stays the fair share.

The other tests of the report (the first mover's advantage, its change, length) are real effects here or of
unknown truth; they stay in the family, as in a real report, and a discovery among them is not counted false.
Per seed: V = flagged null tests, R = all flagged tests, FDP = V / max(R, 1). Printed: the mean FDP (the false
discovery rate, target at most 5%) with its Monte Carlo standard error, the share of seeds with any false
discovery, and the same with every test flagged at 5% on its own (what the report did before), and how often
a null test's own p-value is below 5% (about 5% if the p-values are calibrated).

    .venv/bin/python benchmarks/calibrate_report.py                     # 100 seeds, Enemy Anemone 4p, timing
    .venv/bin/python benchmarks/calibrate_report.py --seeds 5 --deals 500
    .venv/bin/python benchmarks/calibrate_report.py --game palace --players 2 --policy random --policy saver
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

import analyser
from analyser.stats.multiple import FDR


def null_tests(tests, uniform: bool) -> np.ndarray:
    """Which of a report's tests are null by construction (see the module docstring)."""
    name = tests["test"]
    seat = name.str.startswith("equal ") & name.str.contains(" win shares at ")
    share = name.str.contains(r": (?:seat|team) \d+'s win share$", regex=True)
    return (seat | (share & uniform)).to_numpy()


def one_seed(args, seed: int) -> dict:
    r = analyser.report(args.game, policies=args.policy, players=args.players, deals=args.deals, seed=seed,
                        sections=args.section, threads=args.threads, progress=False)
    tests = r.parts["tests"]["frame"]
    null = null_tests(tests, len(set(r.meta["policies"])) == 1)
    out = {"tests": len(tests), "null": int(null.sum()),
           "null_flagged": int((tests["p_value"].to_numpy()[null] < FDR).sum())}
    for name, flagged in (("bh", tests["p_adjusted"].to_numpy() < FDR), ("raw", tests["p_value"].to_numpy() < FDR)):
        v, total = int((flagged & null).sum()), int(flagged.sum())
        out[name] = (v / max(total, 1), v > 0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--deals", type=int, default=2000, help="units per run (default 2,000)")
    ap.add_argument("--game", default="enemy_anemone")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policy", action="append", help="the line-up (default: the game's default policy)")
    ap.add_argument("--section", action="append", help="report sections (default: seats and rules)")
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    args.section = args.section or ["seats", "rules"]
    start = time.perf_counter()
    runs = [one_seed(args, seed) for seed in range(args.seeds)]
    took = time.perf_counter() - start
    n = len(runs)
    lineup = ", ".join(args.policy) if args.policy else "the default policy in every seat"
    print(f"## Balance report calibration: {args.game}, {args.players} players, {lineup}; sections "
          f"{', '.join(args.section)}; {args.deals:,} units per run, seeds 0..{n - 1} ({took:,.0f} s)\n")
    print(f"Tests per report: {np.mean([r['tests'] for r in runs]):.1f}, of which null by construction: "
          f"{np.mean([r['null'] for r in runs]):.1f}; each null test's own p < 0.05 in "
          f"{sum(r['null_flagged'] for r in runs) / max(sum(r['null'] for r in runs), 1):.3f} of cases (a check of the "
          f"p-values: about 0.05).\n")
    print("| flagged when | false discovery rate (mean FDP) | target | any false discovery (share of seeds) |")
    print("|---|---:|---:|---:|")
    for key, label in (("bh", "BH adjusted p < 0.05 (the report)"), ("raw", "p < 0.05 each on its own")):
        fdp = np.array([r[key][0] for r in runs])
        anyf = np.mean([r[key][1] for r in runs])
        se = fdp.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
        print(f"| {label} | {fdp.mean():.3f} (+-{se:.3f}) | <= {FDR:.2f} | {anyf:.3f} |")


if __name__ == "__main__":
    main()
