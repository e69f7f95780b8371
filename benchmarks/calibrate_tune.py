"""Calibration of ``tune``: over many seeds, do parameters that do nothing keep the defaults, does the
confirmed interval cover the truth, and is the confirmed estimate unbiased where the search's is not?

High card (examples/highcard) with the toy policies of examples/highcard/toys.py, where a game costs
microseconds and the truth is known by construction:

- ``inert``: x = 0..8 changes nothing (every setting plays as the defaults: exact ties);
- ``null``: k = 0..8 takes a random card's draw k places along its stream: every k exactly as strong, but
  each plays other cards, against ``random`` (the hard null: the search's best looks better than it is);
- ``planted``: x = 0..8, y = 0..4 with the optimum at x = 4, y = 2, against ``high``; each setting's true
  difference from the defaults measured once by a sweep of every setting on an independent seed
  (``--truth`` deals, paired; its own standard error is printed).

Per seed and scenario one tuning (blocks of 20 deals, 8 blocks a trial, a budget of 12 full trials); read:
the share of runs keeping the defaults, whether the challenger's (the best non-default setting of the race)
confirmed 95% interval covers its truth, the planted optimum found, and the mean of search - truth and
confirmed - truth for the setting confirmed (the winner, or the challenger when the defaults were kept).

    .venv/bin/python benchmarks/calibrate_tune.py --seeds 100      # about 10 minutes on 2 shared cores
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from highcard import register  # noqa: E402
from highcard.toys import INERT, PLANTED, SHIFTED  # noqa: E402
from machine import machine_line  # noqa: E402

from analyser.analyses.sweep import sweep  # noqa: E402
from analyser.analyses.tune import tune  # noqa: E402
from analyser.stats.intervals import wilson  # noqa: E402

SMALL = {"block": 20, "blocks": 8, "threads": 1}
BUDGET = 20 * 8 * 12
SCENARIOS = {
    "inert": (INERT, "high", {"x": range(9)}),
    "null": (SHIFTED, "random", {"k": range(9)}),
    "planted": (PLANTED, "high", {"x": range(9), "y": range(5)}),
}


def truths(deals: int) -> tuple[dict, float]:
    """Every planted setting's difference from the defaults (x=0, y=0) on an independent seed, and the largest
    standard error among them."""
    r = sweep("highcard", [PLANTED, "high"], values={"x": range(9), "y": range(5)}, deals=deals, seed=10**9,
              progress=False)
    t = r.table
    se = float(((t["win_diff_ci_high"] - t["win_diff_ci_low"]) / (2 * 1.96)).max())
    return {(int(a), int(b)): float(d) for a, b, d in zip(t["x"], t["y"], t["win_diff"], strict=True)}, se


def share(hits: int, n: int) -> str:
    low, high = wilson(hits, n)
    return f"{100 * hits / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def mean_se(values) -> str:
    v = np.asarray(values, float)
    return f"{100 * v.mean():+.2f} ± {100 * 1.96 * v.std(ddof=1) / math.sqrt(v.size):.2f}"


def interval_coverage(seeds: range, truth: dict, deals: int = 320) -> None:
    """The paired interval alone, no selection: one fixed pair of settings per scenario on the confirmation
    stream's deals of each seed, the confirmation's Tango interval against the normal one (mean +- 1.96 sd/sqrt n)."""
    from analyser.analyses.tune import STREAM_SPAN, Player, pooled, wins
    from analyser.analyses.tune_lineup import opponents, tuned_policy
    from analyser.engine.backend import make_executor
    from analyser.engine.config import RunConfig
    from analyser.games.registry import get_game
    from analyser.stats.intervals import differences_ci

    game = get_game("highcard")
    pairs = [("planted", {"x": 4, "y": 2}, {"x": 0, "y": 0}, truth[(4, 2)]), ("null", {"k": 3}, {"k": 0}, 0.0)]
    print(f"\n| pair ({deals} deals, seeds {seeds.start}..{seeds.stop - 1}) | Tango covers the truth | "
          "normal covers it |\n|---|---|---|")
    for name, a, b, true in pairs:
        policy, against, space = SCENARIOS[name]
        tuned, rivals = tuned_policy(game, policy, space), opponents(game, 4, [against])
        executor, tango, normal = make_executor(), 0, 0
        for seed in seeds:
            player = Player(RunConfig.build(game, players=4, deals=1, seed=seed), tuned, rivals, None, executor, 1,
                            1 << 16)
            d = wins(pooled(player.plays(tuned.seat(a), 2 * STREAM_SPAN, deals))) - \
                wins(pooled(player.plays(tuned.seat(b), 2 * STREAM_SPAN, deals)))
            r = differences_ci(d, 1.0)
            tango += r["low"] <= true <= r["high"]
            half = 1.96 * d.std(ddof=1) / math.sqrt(d.size)
            normal += d.mean() - half <= true <= d.mean() + half
        print(f"| {name}: {tuned.seat(a).label()} - {tuned.seat(b).label()} | {share(tango, len(seeds))} | "
              f"{share(normal, len(seeds))} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--first-seed", type=int, default=0, help="the seeds are first-seed .. first-seed + seeds - 1")
    ap.add_argument("--truth", type=int, default=20_000, help="deals per setting of the planted truth")
    ap.add_argument("--optimizers", default="tpe,random,ntbea", help="for the planted scenario")
    ap.add_argument("--scenarios", default="inert,null,planted")
    ap.add_argument("--intervals", type=int, default=0, help="also this many seeds of the interval alone")
    args = ap.parse_args()
    register()
    t0 = time.perf_counter()
    truth, truth_se = truths(args.truth)
    print(machine_line())
    print(f"planted truth: {args.truth:,} deals a setting on seed 10^9, largest SE {100 * truth_se:.2f} points; "
          f"optimum x=4, y=2 at {100 * truth[(4, 2)]:+.2f} points over the defaults")
    print()
    print("| scenario | optimizer | runs | defaults kept | challenger's 95% CI covers its truth | optimum found "
          "(within one step) | search - truth (points) | confirmed - truth (points) |")
    print("|---|---|---|---|---|---|---|---|")
    wanted = args.scenarios.split(",")
    cases = [(name, "tpe") for name in ("inert", "null") if name in wanted]
    cases += [("planted", o) for o in args.optimizers.split(",") if "planted" in wanted]
    for name, optimizer in cases:
        policy, against, space = SCENARIOS[name]
        kept = covered = found = near = 0
        search_err, confirm_err = [], []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            r = tune("highcard", policy, against=[against], space=space, budget=BUDGET, seed=seed,
                     optimizer=optimizer, **SMALL)
            kept += r.kept
            c = r.row("challenger")
            shown = r.row("winner") if not r.kept else c
            if name == "planted":
                key = (int(c["x"]), int(c["y"]))
                true_c = truth[key]
                w = r.winner
                found += (w["x"], w["y"]) == (4, 2)
                near += abs(w["x"] - 4) <= 1 and abs(w["y"] - 2) <= 1
                true_shown = truth[(int(shown["x"]), int(shown["y"]))]
            else:
                true_c = true_shown = 0.0
            covered += c["confirmed_ci_low"] <= true_c <= c["confirmed_ci_high"]
            if np.isfinite(shown["search_estimate"]):
                search_err.append(shown["search_estimate"] - true_shown)
            confirm_err.append(shown["confirmed"] - true_shown)
        n = args.seeds
        optimum = f"{share(found, n)} ({share(near, n)})" if name == "planted" else "-"
        print(f"| {name} | {optimizer} | {n} | {share(kept, n)} | {share(covered, n)} | {optimum} | "
              f"{mean_se(search_err)} | {mean_se(confirm_err)} |", flush=True)
    if args.intervals:
        interval_coverage(range(args.first_seed, args.first_seed + args.intervals), truth)
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
