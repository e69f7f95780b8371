"""What ``--run-dir`` costs: the same run with and without a run directory, alternating.

    .venv/bin/python benchmarks/run_dir_cost.py [--game palace] [-n 10000000] [--rounds 3] [--threads 2]

Each round plays ``analyser.simulate(GAME, n=N, keep_records=False)`` once without and once
with a fresh run directory (in a temporary folder on the same disk as /tmp), in one process
with the compiled code loaded; it prints the medians of the wall times, the cost in percent
and the directory's size per unit. A last run resumes from the full directory (every chunk
read back, none played) and is timed too.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import analyser


def timed(game: str, n: int, threads: int, run_dir=None) -> float:
    t0 = time.perf_counter()
    analyser.simulate(game, n=n, keep_records=False, threads=threads, progress=False, run_dir=run_dir)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="palace")
    ap.add_argument("-n", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    timed(a.game, 1000, a.threads)
    plain, kept, size = [], [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            folder = Path(tmp) / f"run{r}"
            plain.append(timed(a.game, a.n, a.threads))
            kept.append(timed(a.game, a.n, a.threads, folder))
            size = sum(p.stat().st_size for p in folder.iterdir())
            print(f"round {r}: {plain[-1]:.1f} s without, {kept[-1]:.1f} s with a run directory", flush=True)
            if r < a.rounds - 1:
                shutil.rmtree(folder)
        resumed = timed(a.game, a.n, a.threads, folder)
    p, k = statistics.median(plain), statistics.median(kept)
    print(f"{a.game}, {a.n:,} units, {a.threads} threads, medians of {a.rounds}: {p:.2f} s without, {k:.2f} s with "
          f"--run-dir: +{100 * (k / p - 1):.1f}%; {size / a.n:.1f} bytes a unit on disk; resumed from a full "
          f"directory in {resumed:.2f} s")


if __name__ == "__main__":
    main()
