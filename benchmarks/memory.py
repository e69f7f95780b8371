"""Peak memory against unit count, for the CLI and the API (issue 19: results at any size).

    .venv/bin/python benchmarks/memory.py [--game palace] [--counts 100000 1000000 10000000]

Each measurement is a fresh process (compile cache warm): the CLI's ``analyser simulate GAME
-n N --no-progress`` and the API's ``analyser.simulate(GAME, n=N)`` with its default
``keep_records`` (records in memory up to simulate.KEEP_LIMIT, then dropped). It prints the
peak resident memory of each (the child's ru_maxrss) and the wall time.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

API = "import analyser, sys; analyser.simulate(sys.argv[1], n=int(sys.argv[2]), progress=False)"


WRAP = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def peak(args: list[str]) -> tuple[float, float]:
    """(peak MB, seconds) of one process, measured by a wrapper of its own (a process's
    RUSAGE_CHILDREN is the largest child so far, not the last)."""
    t0 = time.perf_counter()
    kib = subprocess.run([sys.executable, "-c", WRAP, *args], check=True, capture_output=True, text=True).stdout
    return int(kib) / 1024, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="palace")
    ap.add_argument("--counts", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    a = ap.parse_args()
    subprocess.run([sys.executable, "-c", API, a.game, "10"], check=True)   # compile, once
    print("| units | CLI peak MB | CLI s | API peak MB | API s |\n|---:|---:|---:|---:|---:|")
    for n in a.counts:
        cli = peak([sys.executable, "-m", "analyser.cli.main", "simulate", a.game, "-n", str(n), "--no-progress"])
        api = peak([sys.executable, "-c", API, a.game, str(n)])
        print(f"| {n:,} | {cli[0]:,.0f} | {cli[1]:.1f} | {api[0]:,.0f} | {api[1]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
