"""Palace throughput and start-up times; prints a Markdown table for RESULTS.md.

    .venv/bin/python benchmarks/bench_palace.py [--deals 400000]

Measures games/s (the simulation alone, and end to end with the tally),
decisions/s and ns per decision on 1 and 2 threads with the built-in policies at
4 players (compiled code already loaded); decisions are those of completed
games (an aborted game's count includes the cycle periods the engine skips, see
analyser/games/palace/cycles.py); and
the wall time of whole CLI runs: cold (empty numba cache) and warm.
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import analyser

MIXES = {
    "saver,lowest,pickup,saver": ["saver", "lowest", "pickup", "saver"],
    "saver x4": ["saver"],
    "lowest x4": ["lowest"],
    "pickup x4": ["pickup"],
    "random x4": ["random"],
}
CLI = str(Path(sys.executable).with_name("analyser"))


def throughput(policies, deals, threads, repeats=5):
    """Best of ``repeats``: (games/s simulating, games/s end to end, decisions per completed game)."""
    best = None
    for _ in range(repeats):
        r = analyser.simulate("palace", players=4, policies=policies, deals=deals, seed=1, threads=threads,
                              keep_records=False, progress=False)
        if best is None or r.sim_seconds < best.sim_seconds:
            best = r
    f = best.figures
    return f["simulation_units_per_second"], f["units_per_second"], f["decisions_mean"]


def wall(cmd, env=None, repeats=3):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=400_000)
    args = ap.parse_args()
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"analyser {analyser.__version__}\n")
    print("| policies (4 players) | threads | games/s simulating | games/s end to end | decisions/completed game "
          "| decisions/s | ns/decision |")
    print("|---|---|---|---|---|---|---|")
    for name, pols in MIXES.items():
        for threads in (1, 2):
            g, end, dpg = throughput(pols, args.deals, threads)
            print(f"| {name} | {threads} | {g:,.0f} | {end:,.0f} | {dpg:.1f} | {g * dpg:,.0f} "
                  f"| {1e9 / (g * dpg):.1f} |")
    sim = [CLI, "simulate", "palace", "--deals", "10000", "--no-progress"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ANALYSER_CACHE_DIR": cache}
        cold = wall(sim, env, repeats=1)
        warm = wall(sim, env)
    print("\n| command | wall time (s) |\n|---|---|")
    print(f"| `analyser simulate palace --deals 10000` cold (empty numba cache) | {cold:.2f} |")
    print(f"| `analyser simulate palace --deals 10000` warm | {warm:.2f} |")
    print(f"| `analyser --help` | {wall([CLI, '--help']):.2f} |")


if __name__ == "__main__":
    main()
