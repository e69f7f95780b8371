"""Throughput and start-up times of one game; prints Markdown tables for RESULTS.md.

    .venv/bin/python benchmarks/bench.py GAME [--count 400000]

GAME is any registered game (`make bench` runs each); Spite & Malice's long
matches take --count 20000.

Measures units/s (games or matches; the simulation alone, and end to end with
the tally), decisions/s and ns per decision on 1 and 2 threads with the
built-in policies at the game's default player count (4; Spite & Malice: 2)
(compiled code already loaded; 1 and 2 threads alternate run by run); decisions are
those of completed units (a Palace game's count includes the cycle periods the
engine skips, see analyser/games/palace/cycles.py); and the wall time of whole
CLI runs: cold (empty numba cache) and warm.
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
    "palace": {
        "saver,lowest,pickup,saver": ["saver", "lowest", "pickup", "saver"],
        "saver x4": ["saver"],
        "lowest x4": ["lowest"],
        "pickup x4": ["pickup"],
        "random x4": ["random"],
    },
    "enemy_anemone": {
        "timing,greedy,lowball,timing": ["timing", "greedy", "lowball", "timing"],
        "timing x4": ["timing"],
        "greedy x4": ["greedy"],
        "lowball x4": ["lowball"],
        "timing:only_to_win=0 x4": ["timing:only_to_win=0"],
        "random x4": ["random"],
    },
    "olenon": {
        "shed x4": ["shed"],
        "tempo x4": ["tempo"],
        "partner x4": ["partner"],
        "partner,shed,tempo,shed": ["partner", "shed", "tempo", "shed"],
        "random x4": ["random"],
    },
    "spite_and_malice": {
        "builder x2": ["builder"],
        "patient:block=1,builder": ["patient:block=1", "builder"],
        "builder,random": ["builder", "random"],
    },
}
CLI = str(Path(sys.executable).with_name("analyser"))


def throughput(game, policies, count, repeats=5):
    """Per thread count (1 and 2): best of ``repeats`` (units/s simulating, units/s end to
    end, decisions per completed unit). The thread counts alternate run by run, so that
    this VM's drift over minutes hits both alike and their ratio (the scaling) holds."""
    best = {}
    for _ in range(repeats):
        for threads in (1, 2):
            r = analyser.simulate(game, players=None, policies=policies, n=count, seed=1, threads=threads,
                                  keep_records=False, progress=False)
            if threads not in best or r.sim_seconds < best[threads].sim_seconds:
                best[threads] = r
    return {t: (r.figures["simulation_units_per_second"], r.figures["units_per_second"],
                r.figures["decisions_mean"]) for t, r in best.items()}


def wall(cmd, env=None, repeats=3):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    from analyser.games.registry import game_names, get_game
    from analyser.io.numbers import plural

    ap = argparse.ArgumentParser()
    ap.add_argument("game", choices=game_names())
    ap.add_argument("--count", "--deals", type=int, default=400_000)
    args = ap.parse_args()
    spec = get_game(args.game)
    unit_one = spec.unit
    unit = plural(unit_one)
    players = spec.default_players
    # a game without mixes of its own here: each of its policies in every seat
    mixes = MIXES.get(args.game) or {f"{p.name} x{players}": [p.name] for p in spec.policies}
    print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"analyser {analyser.__version__}\n")
    print(f"| policies ({players} players) | threads | {unit}/s simulating | {unit}/s end to end "
          f"| decisions/completed {unit_one} | decisions/s | ns/decision |")
    print("|---|---|---|---|---|---|---|")
    for name, pols in mixes.items():
        for threads, (g, end, dpg) in throughput(args.game, pols, args.count).items():
            print(f"| {name} | {threads} | {g:,.0f} | {end:,.0f} | {dpg:.1f} | {g * dpg:,.0f} "
                  f"| {1e9 / (g * dpg):.1f} |")
    sim = [CLI, "simulate", args.game, "-n", "10000", "--no-progress"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ANALYSER_CACHE_DIR": cache}
        cold = wall(sim, env, repeats=1)
        warm = wall(sim, env)
    print("\n| command | wall time (s) |\n|---|---|")
    print(f"| `analyser simulate {args.game} -n 10000` cold (empty numba cache) | {cold:.2f} |")
    print(f"| `analyser simulate {args.game} -n 10000` warm | {warm:.2f} |")
    print(f"| `analyser --help` | {wall([CLI, '--help']):.2f} |")


if __name__ == "__main__":
    main()
