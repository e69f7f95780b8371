"""Calibration of relative skill's and the luck share's intervals (analyser.stats.skill) over seeds.

    .venv/bin/python benchmarks/calibrate_skill.py --seeds 100

On toys whose values are known (analyser.testing.skill_toys): the p-deterministic toy (a deal is a
game of skill with probability p, else a coin; RS = p: 0 is the coin-flip toy, 1 the toy without
chance) at 200 and 1,000 deals, and the luck toy (a deal gives seat 0 a chance q ~ Beta(a, a); the
luck share is 1 / (2a + 1)) at 200 deals, replayed 2 and 7 times (a 4-player and a 2-player game's
replays with disjoint policy streams). Seed s is numpy seed 1000 * cell + s, and the bootstrap's seed
is s too. Each row says how often the 95% interval covered the truth, with the Wilson interval of that
share over the seeds, against the target 93-97%, the mean estimate and the mean width. RS = 1 is
shown apart: its interval's upper end is 1 by construction there (the open player never differs on
any deal, so RE's bound for the deals not seen sets RS's lower end), so its coverage is 100% and not a
calibration. About a second a seed.
"""
from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
from machine import machine_line

from analyser.stats.intervals import wilson
from analyser.stats.skill import luck_share, relative_skill
from analyser.testing.skill_toys import luck_toy, skill_toy

TARGET = (0.93, 0.97)
RS_CELLS = [(p, n) for n in (200, 1000) for p in (0.0, 0.25, 0.5, 0.75, 1.0)]
ICC_CELLS = [(icc, r) for r in (2, 7) for icc in (0.1, 0.4, 0.8)]
ICC_DEALS = 200


def _row(name: str, truth: float, hits: list[bool], estimates: list[float], widths: list[float],
         note: str = "") -> str:
    k, n = int(np.sum(hits)), len(hits)
    low, high = wilson(k, n)
    ok = "yes" if TARGET[0] <= k / n <= TARGET[1] else "no"
    return (f"| {name} | {truth:g} | {100 * k / n:.0f}% [{100 * float(low):.0f}, {100 * float(high):.0f}] | "
            f"{ok}{note} | {np.nanmean(estimates):.3f} | {np.nanmean(widths):.3f} |")


def rs_rows(seeds: int):
    for cell, (p, n) in enumerate(RS_CELLS):
        hits, est, width = [], [], []
        for s in range(seeds):
            r = relative_skill(*skill_toy(p, n, np.random.default_rng(1000 * cell + s)), span=1.0, seed=s)
            hits.append(bool(r["ci_low"] <= p <= r["ci_high"]))
            est.append(r["rs"])
            width.append(r["ci_high"] - r["ci_low"])
        note = " (by construction)" if p == 1 else ""
        yield _row(f"RS, p = {p:g}, {n:,} deals", p, hits, est, width, note)


def icc_rows(seeds: int):
    for cell, (icc, r) in enumerate(ICC_CELLS):
        hits, est, width = [], [], []
        for s in range(seeds):
            out = luck_share(luck_toy(icc, ICC_DEALS, r, np.random.default_rng(10**6 + 1000 * cell + s)), seed=s)
            hits.append(bool(out["ci_low"] <= icc <= out["ci_high"]))
            est.append(out["luck_share"])
            width.append(out["ci_high"] - out["ci_low"])
        yield _row(f"luck share, {ICC_DEALS} deals x {r} replays", icc, hits, est, width)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    print(machine_line())
    print(f"\n{args.seeds} seeds a row; target 93-97%\n")
    print("| toy | truth | coverage [95% CI over seeds] | in 93-97% | mean estimate | mean width |")
    print("|---|---:|---:|---|---:|---:|")
    for line in itertools.chain(rs_rows(args.seeds), icc_rows(args.seeds)):       # each row as it is done
        print(line, flush=True)
    print(f"\n{time.perf_counter() - start:,.0f} s")


if __name__ == "__main__":
    main()
