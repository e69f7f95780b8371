"""Palace throughput and start-up times; prints a Markdown table for RESULTS.md.

    .venv/bin/python benchmarks/bench_palace.py [--deals 400000]

Measures games/s, decisions/s and ns per decision on 1 and 2 threads with the
built-in non-random policies at 4 players (compiled code already loaded), also
per decision of a completed game (decisions/s counts the decisions of the cycle
periods the engine skips, see analyser/games/palace/cycles.py), and
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


def completed_decisions(policies, deals):
    """Decisions per completed game: the decisions a simulation plays. The
    per-game counts include the cycle periods the engine skips (cycles.py)."""
    g = analyser.simulate("palace", players=4, policies=policies, deals=deals, seed=1, progress=False).games
    return g.loc[~g["aborted"], "decisions"].mean()


def throughput(policies, deals, threads, repeats=5):
    best = None
    for _ in range(repeats):
        r = analyser.simulate("palace", players=4, policies=policies, deals=deals, seed=1, threads=threads,
                              keep_records=False)
        if best is None or r.seconds < best.seconds:
            best = r
    f = best.figures
    return f["games_per_second"], f["decisions_per_second"], 1e9 / f["decisions_per_second"], f["decisions_per_game"]


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
    print("| policies (4 players) | threads | games/s | decisions/s | ns/decision | decisions/game "
          "| decisions/completed game | ns/decision, completed games |")
    print("|---|---|---|---|---|---|---|---|")
    for name, pols in MIXES.items():
        played = completed_decisions(pols, min(args.deals, 100_000))
        for threads in (1, 2):
            g, d, ns, dpg = throughput(pols, args.deals, threads)
            print(f"| {name} | {threads} | {g:,.0f} | {d:,.0f} | {ns:.1f} | {dpg:.1f} "
                  f"| {played:.1f} | {1e9 / (g * played):.1f} |")
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
