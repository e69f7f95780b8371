"""One game's 1- and 2-thread rates in alternation, as medians: is the engine scaling?

    .venv/bin/python benchmarks/scaling.py olenon shed [--count 400000] [--rounds 5]
    .venv/bin/python benchmarks/scaling.py spite_and_malice builder [--count 20000] [--rounds 5]

This VM's one-thread rate drifts by about 10% within minutes, so a best-of-five taken for one
thread count and then the other can put the ratio anywhere from 1.5x to 2x. Here every round
times both thread counts back to back, twice each: the runner alone (chunks of 65,536 into one
reused buffer, no tally) and the whole `simulate` call's simulation time; medians over rounds.
"""
from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numba
import numpy as np

import analyser
from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("policies", help="comma-separated, one for all seats or one per seat")
    ap.add_argument("--count", type=int, default=400_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    policies = args.policies.split(",")
    config = RunConfig.build(args.game, policies=policies, deals=args.count, seed=1)
    runner = ChunkRunner(config)
    buffer = np.zeros(65536, config.game.record_dtype)
    rates: dict[tuple[str, int], list[float]] = {}
    for _ in range(args.rounds):
        for threads in (1, 2):
            numba.set_num_threads(threads)
            start = time.perf_counter()
            for first in range(0, args.count, buffer.size):
                runner.run(first, min(buffer.size, args.count - first), buffer)
            rates.setdefault(("runner", threads), []).append(args.count / (time.perf_counter() - start))
            run = analyser.simulate(args.game, players=None, policies=policies, n=args.count, seed=1, threads=threads,
                                    keep_records=False, progress=False)
            rates.setdefault(("simulate", threads), []).append(run.figures["simulation_units_per_second"])
    for what in ("runner", "simulate"):
        one, two = statistics.median(rates[what, 1]), statistics.median(rates[what, 2])
        print(f"{args.game} {args.policies} {what}: median {one:,.0f} (1 thread) {two:,.0f} (2 threads), "
              f"{two / one:.2f}x over {args.rounds} rounds")


if __name__ == "__main__":
    main()
