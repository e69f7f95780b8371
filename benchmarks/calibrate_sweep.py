"""Calibration of ``sweep``: coverage of the fair share and Holm's family-wise error over many seeds.

The null: a Palace policy defined here, ``shifted``, plays a uniformly random legal action
whose draw is shifted by ``k`` places among the legal actions. Every k is exactly as strong
as every other (a uniform choice shifted mod n is still uniform) yet the values play
different cards on the same deals from the same streams, so their paired differences are
real noise, not exact ties: a sweep of k that changes nothing in strength. (A parameter that
changes nothing at all, or deterministic policies, would make both tests trivial: a value
that plays as the baseline differs by exactly 0, and deterministic identical policies win
exactly the fair share on every deal of the rotated design.) The swept policy plays alone,
so every other seat plays ``shifted`` at k=0, the baseline.

Per seed, one sweep of k = 0..K-1 at 2 and at 4 players:
  (a) coverage: does each value's win share interval cover the fair share (the value k=0
      plays exactly as the other seats; every other k is as strong); target 93-97%;
  (b) null: does Holm flag no value; target about 95% (at least 95%: Holm is conservative
      when the tests share a baseline, so a little above).

    .venv/bin/python benchmarks/calibrate_sweep.py --seeds 100      # about 4 minutes on 2 quiet cores
"""
from __future__ import annotations

import argparse
import math
import time

from numba import njit

from analyser.analyses.sweep import sweep
from analyser.games.palace.constants import PHASE
from analyser.games.palace.policies import swap_nb
from analyser.games.palace.state import POLICY_SIG
from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.kernels.rng import below_nb
from analyser.stats.intervals import wilson


@njit(POLICY_SIG, cache=True)
def shifted_policy(pub, pv, legal, params):
    """A uniformly random legal action, the draw shifted by k = params[0] places among the legal ones."""
    if pub["phase"] == PHASE.SWAP:
        return swap_nb(pub, pv, legal, 1.0)
    n = 0
    for a in range(legal.size):
        n += legal[a]
    j = (below_nb(pv["rng"], n) + int(params[0])) % n
    for a in range(legal.size):
        if legal[a]:
            if j == 0:
                return a
            j -= 1
    return -1


SHIFTED = PolicySpec("shifted", shifted_policy, "random, the draw shifted by k places",
                     (ParamSpec("k", 0, "which random action, not how good", low=0, high=20, integer=True),))


def run(players: int, seeds: int, deals: int, values: int, threads: int) -> dict:
    covered = flagged_none = cells = 0
    covered_k0 = 0
    for seed in range(seeds):
        r = sweep("palace", [SHIFTED], players=players, values={"k": range(values)}, deals=deals, seed=seed,
                  threads=threads)
        t = r.table
        fair = r.meta["fair_share"]
        inside = (t["win_ci_low"] <= fair) & (fair <= t["win_ci_high"])
        covered += int(inside.sum())
        covered_k0 += bool(inside.iloc[0])
        cells += len(t)
        flagged_none += not t["significant"].any()
    return {"players": players, "covered": covered, "cells": cells, "covered_k0": covered_k0,
            "none": flagged_none, "seeds": seeds}


def share(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * float(low):.1f}, {100 * float(high):.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--deals", type=int, default=500, help="deals per value (each in every arrangement)")
    ap.add_argument("--values", type=int, default=5, help="values of k swept (k = 0 .. values - 1)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    rows = []
    for players in a.players:
        t0 = time.perf_counter()
        rows.append({**run(players, a.seeds, a.deals, a.values, a.threads), "seconds": time.perf_counter() - t0})
    print(f"Sweep calibration: Palace, `shifted` k = 0..{a.values - 1} (equally strong values) alone at the "
          f"table, {a.deals:,} deals per value, {a.seeds} seeds (95% intervals over seeds in brackets)\n")
    print("| players | (a) value k=0 covers the fair share | (a) all values (pooled) cover it | target "
          "| (b) seeds flagging no value (Holm) | target | seconds |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['players']} | {share(r['covered_k0'], r['seeds'])} | {share(r['covered'], r['cells'])} "
              f"| 93-97% | {share(r['none'], r['seeds'])} | about 95% (Holm: >= 95%) | {math.ceil(r['seconds'])} |")
    print(f"\n{a.values - 1} tests per seed (k = 1.. against the baseline k = 0): paired z-tests with the floored "
          f"variance, Holm-adjusted (see analyser/analyses/sweep.py)")


if __name__ == "__main__":
    main()
