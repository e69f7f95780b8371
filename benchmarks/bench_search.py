"""The compiled search players' speed; prints Markdown tables for RESULTS.md.

    .venv/bin/python benchmarks/bench_search.py GAME [--units 40] [--worlds 8,32,128] [--sampler 20000]

For GAME with one search seat (seat 0) among the game's default heuristic, at each budget:

- **units/s** on 1 and 2 threads (a run as the CLI plays it, ChunkRunner.run);
- **ns per searched decision** and **ns per rollout step** inside the search: a unit played
  with the kit's playout (one thread), the search's own counters (analyser.kernels.search_row:
  decisions searched, rollout steps) read from its memory at the end; the heuristic seats'
  share of the time is taken out by timing the same units with the search seat's rollout
  heuristic in its place;
- **a plain step**: ns per action of simulation with the heuristics alone (one thread), beside
  which the rollout step is the ratio the issue bounds (goal: at most 1.5x);
- **the sampler**: ns per world of the in-kernel sampler (the game's search.sample_worlds_nb)
  against the Python one (analyser.games.worlds.WorldSampler) at a mid-unit position.
"""
from __future__ import annotations

import argparse
import importlib
import time

import numba
import numpy as np
from machine import machine_line

from analyser.engine.config import RunConfig
from analyser.engine.local import ChunkRunner
from analyser.games.registry import get_game
from analyser.games.worlds import follow
from analyser.kernels.search_row import SEARCHED, STEPS


def lineup(game, search: str) -> list[str]:
    rest = [game.default_policy] * (game.default_players - 1)
    return [search, *rest]


def best(fn, repeats: int = 2) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def units_per_second(game, policies, units, seed=1):
    runner = ChunkRunner(RunConfig.build(game, players=game.default_players, policies=policies, deals=units, seed=seed))
    runner.run(0, 1)
    out = {}
    for threads in (1, 2):
        numba.set_num_threads(threads)
        out[threads] = units / best(lambda: runner.run(0, units))
    return out, runner


def kit_time(game, policies, units, seed=1):
    """Seconds to play ``units`` units with the kit's playout, and the search seat's counters."""
    kit = game.kit()
    runner = ChunkRunner(RunConfig.build(game, players=game.default_players, policies=policies, deals=units, seed=seed))
    searched = steps = 0.0
    t = time.perf_counter()
    for unit in range(units):
        *_, last = kit.play(seed, unit, game.default_players, runner.settings, runner.fns, runner.params,
                            runner.streams)
        memory = last.memory(0)
        searched += memory[SEARCHED]
        steps += memory[STEPS]
    return time.perf_counter() - t, searched, steps


def plain_step_ns(game, units, seed=1):
    numba.set_num_threads(1)
    runner = ChunkRunner(RunConfig.build(game, players=game.default_players, policies=[game.default_policy],
                                         deals=units, seed=seed))
    records = runner.run(0, units)
    elapsed = best(lambda: runner.run(0, units))
    return elapsed / records["length"].sum() * 1e9


def sampler_ns(game, count, seed=1):
    """In-kernel and Python ns per world at a decision in the middle of unit 0."""
    kit = game.kit()
    search = importlib.import_module(f"{game.package}.search")
    runner = ChunkRunner(RunConfig.build(game, players=game.default_players, policies=[game.default_policy],
                                         deals=1, seed=seed))
    history = list(kit.play(seed, 0, game.default_players, runner.settings, runner.fns, runner.params,
                            runner.streams))
    decisions = [i for i, p in enumerate(history) if p.decision() is not None]
    i = decisions[len(decisions) // 2]
    position = history[i]
    seat = int(position.decision()[0])
    dealt = kit.dealt(seed, 0, game.default_players, runner.settings, runner.streams)
    last, knowledge = follow(([dealt] if dealt is not None else []) + history[: i + 1], seat, kit)
    state = importlib.import_module(f"{game.package}.state")
    pubs = np.zeros(count, state.PUBLIC_DTYPE)
    privs = np.zeros((count, len(position.priv)), state.PRIVATE_DTYPE)
    hids = np.zeros(count, state.HIDDEN_DTYPE)
    pb, pv = position.pub[0], position.priv[seat]
    search.sample_worlds_nb(pb, pv, 1, 1, pubs, privs, hids)
    kernel = best(lambda: search.sample_worlds_nb(pb, pv, 1, count, pubs, privs, hids)) / count * 1e9
    sampler = kit.world_sampler(history[: i + 1], seat, knowledge, dealt)
    rng = np.random.default_rng(0)
    n = max(200, count // 50)
    t = time.perf_counter()
    for _ in range(n):
        sampler.draw(rng)
    python = (time.perf_counter() - t) / n * 1e9
    return kernel, python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--units", type=int, default=40, help="units the search's costs are read over")
    parser.add_argument("--rate-units", type=int, default=400, help="units a units/s run plays (many blocks, "
                        "so that both threads have work)")
    parser.add_argument("--worlds", default="8,32,128")
    parser.add_argument("--sampler", type=int, default=20000)
    args = parser.parse_args()
    game = get_game(args.game)
    print(machine_line())
    print(f"\n{game.title}, {game.default_players} players, seat 0 the search, the others {game.default_policy}\n")
    print("| policy | units/s 1 thread | units/s 2 threads | ns per searched decision | ns per rollout step |")
    print("|---|---:|---:|---:|---:|")
    rollout = game.policy_map["pimc"].bind().label()
    kit_time(game, lineup(game, game.default_policy), 1)              # compiled before it is timed
    base, _, _ = kit_time(game, lineup(game, game.default_policy), args.units)
    for worlds in (int(w) for w in args.worlds.split(",")):
        name = f"pimc:worlds={worlds}"
        rates, _ = units_per_second(game, lineup(game, name), args.rate_units)
        kit_time(game, lineup(game, name), 1)
        elapsed, searched, steps = kit_time(game, lineup(game, name), args.units)
        search_s = max(elapsed - base, 1e-9)
        print(f"| `{name}` | {rates[1]:,.1f} | {rates[2]:,.1f} | {search_s / searched * 1e9:,.0f} | "
              f"{search_s / steps * 1e9:,.1f} |")
    plain = plain_step_ns(game, max(2000, args.units * 50))
    print(f"\nA plain step (simulation, {game.default_policy} at every seat, one thread): {plain:,.1f} ns "
          f"({rollout} rolls out with {game.default_policy})")
    kernel, python = sampler_ns(game, args.sampler)
    print(f"\nSampler at a mid-unit decision: in-kernel {kernel:,.0f} ns a world, Python {python:,.0f} ns "
          f"({python / kernel:,.0f}x)")


if __name__ == "__main__":
    main()
