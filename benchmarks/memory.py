"""Peak memory against unit count, for the CLI and the API, and of a sweep of many settings.

    .venv/bin/python benchmarks/memory.py [--game palace] [--counts 100000 1000000 10000000]
    .venv/bin/python benchmarks/memory.py --sweep 1000 --deals 10000

Each measurement is a fresh process (compile cache warm): the CLI's ``analyser simulate GAME
-n N --no-progress`` and the API's ``analyser.simulate(GAME, n=N)`` with its default
``keep_records`` (records in memory up to simulate.KEEP_LIMIT, else none). It prints the
peak resident memory of each (the child's ru_maxrss) and the wall time. ``--sweep K`` instead
measures ``analyser.sweep`` of Palace 2p over K settings of pickup (max_pile x burn_at) at
``--deals`` deals each, against one setting at the same deals: a sweep holds one setting's
per-deal values at a time, so the two peaks should be close.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

API = "import analyser, sys; analyser.simulate(sys.argv[1], n=int(sys.argv[2]), progress=False)"
SWEEP = ("import analyser, sys; analyser.sweep('palace', ['pickup:' + sys.argv[1]], players=2, n=int(sys.argv[2]), "
         "progress=False)")


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
    ap.add_argument("--sweep", type=int, metavar="K", help="settings of a sweep to measure instead (at most 2,809)")
    ap.add_argument("--deals", type=int, default=10_000, help="deals per setting of --sweep")
    a = ap.parse_args()
    if a.sweep:
        piles = min(53, a.sweep)
        burns = -(-a.sweep // piles)
        values = f"max_pile=0..{piles - 1},burn_at=0..{burns - 1}"
        print("| settings | deals each | peak MB | s |\n|---:|---:|---:|---:|")
        for text, k in (("max_pile=0..1", 2), (values, piles * burns)):
            mb, s = peak([sys.executable, "-c", SWEEP, text, str(a.deals)])
            print(f"| {k:,} | {a.deals:,} | {mb:,.0f} | {s:.1f} |", flush=True)
        return
    subprocess.run([sys.executable, "-c", API, a.game, "10"], check=True)   # compile, once
    print("| units | CLI peak MB | CLI s | API peak MB | API s |\n|---:|---:|---:|---:|---:|")
    for n in a.counts:
        cli = peak([sys.executable, "-m", "analyser.cli.main", "simulate", a.game, "-n", str(n), "--no-progress"])
        api = peak([sys.executable, "-c", API, a.game, str(n)])
        print(f"| {n:,} | {cli[0]:,.0f} | {cli[1]:.1f} | {api[0]:,.0f} | {api[1]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
