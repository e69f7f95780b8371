"""Dask against local on this machine: the same work on N single-thread workers and on N threads.

    .venv/bin/python benchmarks/dask_vs_local.py [--game palace] [-n 2000000] [--rounds 3] [--workers 2]

Each round plays ``analyser.simulate(GAME, n=N, keep_records=False)`` with ``threads=W`` here
and with ``backend=client`` on a LocalCluster of W worker processes with one thread each
(warm: both compiled before timing), alternating, and prints the medians and their ratio. Then
the per-task overhead: the same small run in chunks of 100 units on the cluster and locally,
(cluster time - local time) / chunks.
"""
from __future__ import annotations

import argparse
import statistics
import time

import analyser


def timed(**kwargs) -> float:
    t0 = time.perf_counter()
    analyser.simulate(keep_records=False, progress=False, **kwargs)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="palace")
    ap.add_argument("-n", type=int, default=2_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    import os

    from distributed import Client, LocalCluster
    os.environ.setdefault("NUMBA_NUM_THREADS", str(a.workers))
    with LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                      env={"NUMBA_NUM_THREADS": "1"}) as cluster, Client(cluster) as client:
        game = {"game": a.game}
        timed(**game, n=1000, threads=a.workers)
        timed(**game, n=1000, backend=client)
        local, dask = [], []
        for r in range(a.rounds):
            local.append(timed(**game, n=a.n, threads=a.workers))
            dask.append(timed(**game, n=a.n, backend=client))
            print(f"round {r}: local {local[-1]:.2f} s, dask {dask[-1]:.2f} s", flush=True)
        lm, dm = statistics.median(local), statistics.median(dask)
        print(f"{a.game}, {a.n:,} units: {a.workers} threads {lm:.2f} s ({a.n / lm:,.0f}/s), {a.workers} "
              f"single-thread Dask workers {dm:.2f} s ({a.n / dm:,.0f}/s): dask/local = {dm / lm:.3f}")
        small, size = 20_000, 100
        tl = statistics.median(timed(**game, n=small, chunk_size=size, threads=a.workers) for _ in range(3))
        td = statistics.median(timed(**game, n=small, chunk_size=size, backend=client) for _ in range(3))
        tasks = small // size
        print(f"per task: {small:,} units in {tasks} chunks of {size}: local {tl:.2f} s, dask {td:.2f} s: "
              f"{1000 * (td - tl) / tasks:.2f} ms a task more ({1000 * td / tasks:.2f} ms a task in all)")


if __name__ == "__main__":
    main()
