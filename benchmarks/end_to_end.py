"""End to end against simulation alone: what do the tally and the results file cost `simulate`?

    .venv/bin/python benchmarks/end_to_end.py [--game GAME ...] [--threads 1 2] [--seconds 4] [--rounds 7]

For each game and thread count, every round times three runs back to back (this VM's speed
drifts by several percent within minutes, so figures taken apart cannot be compared):

- **simulation**: the game's default line-up played chunk by chunk through the pipeline into
  a sink that does nothing and keeps nothing (one reused record buffer): the plain simulation
  rate, nothing beside it;
- **end to end**: ``analyser.simulate(..., keep_records=False)``, its units per second (the
  pipeline's whole loop: simulation, tally, results file; not the loading of compiled code);
- **with --out**: the same with ``out=`` a Parquet file in a temporary folder.

The table gives medians over the rounds and each end-to-end median over the simulation's.
That is the honest ratio: the time measured inside the executor while a chunk is tallied and
written beside it (``simulation_units_per_second``) is inflated by what runs beside it, so the
figures a run reports of itself overstate it. The count is set so that a simulation run takes
about ``--seconds`` (a game whose units are slow, Spite & Malice's matches, then plays one
chunk, so nothing overlaps; its tally and file are a fraction of a percent of its time anyway).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numba

import analyser
from analyser.engine.config import DEFAULT_CHUNK, RunConfig
from analyser.engine.local import LocalExecutor
from analyser.engine.pipeline import Plan, Sink, execute
from analyser.games.registry import game_names

GAMES = tuple(game_names())     # every registered game


class Nothing(Sink):
    """Takes every chunk and does nothing with it."""
    keeps_records = False

    def add(self, chunk, records) -> None:
        pass


def simulation_rate(config: RunConfig, threads: int, executor: LocalExecutor) -> float:
    run = execute(Plan.of([config]), Nothing(), threads=threads, progress=False, executor=executor)
    return run.units / run.seconds


def end_to_end_rate(game: str, count: int, threads: int, out=None) -> float:
    result = analyser.simulate(game, n=count, seed=1, threads=threads, keep_records=False, progress=False, out=out)
    return result.tally.units / result.seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default every one)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seconds", type=float, default=4.0, help="about how long one simulation run takes")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    threads = [t for t in args.threads if 1 <= t <= numba.config.NUMBA_NUM_THREADS]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.parquet"
        for game in args.game or GAMES:
            executor = LocalExecutor()
            probe = RunConfig.build(game, deals=2 * DEFAULT_CHUNK // 8, seed=1)
            simulation_rate(probe, max(threads), executor)           # compiles or loads, warms up
            rate = simulation_rate(probe, max(threads), executor)
            count = max(1000, int(round(rate * args.seconds, -3)))
            config = RunConfig.build(game, deals=count, seed=1)
            end_to_end_rate(game, DEFAULT_CHUNK // 8, max(threads), out)       # the tally's and writer's code
            for t in threads:
                rates: dict[str, list[float]] = {"simulation": [], "end to end": [], "with --out": []}
                size = 0
                for _ in range(args.rounds):
                    rates["simulation"].append(simulation_rate(config, t, executor))
                    rates["end to end"].append(end_to_end_rate(game, count, t))
                    rates["with --out"].append(end_to_end_rate(game, count, t, out))
                    size = os.path.getsize(out)
                    out.unlink()
                medians = {k: statistics.median(v) for k, v in rates.items()}
                rows.append((game, count, t, medians, size / count))
                print(f"{game} {t} thread(s): " + ", ".join(f"{k} {v:,.0f}/s" for k, v in medians.items()),
                      flush=True)
    print()
    print("| game | units | threads | simulation /s | end to end /s | ratio | with --out /s | ratio "
          "| file bytes/unit |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game, count, t, m, per_unit in rows:
        sim = m["simulation"]
        print(f"| {game} | {count:,} | {t} | {sim:,.0f} | {m['end to end']:,.0f} | {m['end to end'] / sim:.3f} | "
              f"{m['with --out']:,.0f} | {m['with --out'] / sim:.3f} | {per_unit:.1f} |")
    print(f"\n{args.rounds} rounds; {time.strftime('%Y-%m-%d %H:%M')}; {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
