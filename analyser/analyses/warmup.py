"""Paying the compile time once, up front: ``analyser warmup`` (a user before a session, a cluster
image before its workers start).

Every game compiles on first use, and ``trace``, ``replay``, ``rollout`` and the search players
compile more (benchmarks/RESULTS.md has the figures). Warming a game plays what each of those runs
once, small: a unit simulated and traced (the engine, the trace), a unit kept position by position
(replay's and the test kit's playout), the rollouts' world kernel (compiled on its first call, so warmed by name), and,
unless ``search=False``, the game's search players (their module compiles them). Everything lands
in the compile cache (``analyser.CACHE_DIR``), so the next run of any of them loads instead.

numba compiles under one lock per process, so ``jobs`` above 1 warms the built-in games in that many
processes at once, the largest first (a game registered at run time, which a new process does not
know, is warmed here meanwhile). Two processes that compile the shared kernels at once each write
the cache by a rename, so neither reads the other's half-written file.
"""
from __future__ import annotations

import importlib.util
import multiprocessing
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from analyser.errors import UserError, choices
from analyser.games.common import quiet_first_class


@dataclass(frozen=True)
class Warmed:
    game: str
    seconds: float
    parts: tuple[str, ...]


def warmup(games=None, search: bool = True, progress=None, jobs: int | None = None) -> list[Warmed]:
    """Compile (or load) everything the commands run for each of ``games`` (default: every registered
    game), in up to ``jobs`` processes at once (default: one a core); ``progress(game)`` is called as
    each starts. Returns what was warmed, in the order asked, and how long each took."""
    from analyser.engine.dask_backend import cpu_count
    from analyser.games.registry import GAME_MODULES, game_names

    names = list(dict.fromkeys(games or game_names()))
    unknown = [g for g in names if g not in game_names()]
    if unknown:
        raise UserError(f"unknown game '{unknown[0]}'; valid: {choices(game_names())}")
    jobs = cpu_count() if jobs is None else jobs
    if jobs < 1:
        raise UserError(f"--jobs is a number of processes, 1 or more, not {jobs}")
    apart = sorted((g for g in names if g in GAME_MODULES), key=_source_bytes, reverse=True) if jobs > 1 else []
    if len(apart) < 2:
        apart = []
    done = {}
    with quiet_first_class():
        if apart:
            context = multiprocessing.get_context("spawn")     # a fresh interpreter: no fork of numba's state
            pool = context.Pool(min(jobs, len(apart)), initializer=_ignore_interrupts)
            try:
                pending = [pool.apply_async(_warm_apart, (name, search)) for name in apart]
                for name in names:
                    if name not in apart:
                        done[name] = _warm(name, search, progress)
                said = 0
                while said < len(apart) or not all(r.ready() for r in pending):
                    # the pool takes its tasks in order: a game starts as an earlier one finishes
                    while said < min(len(apart), jobs + sum(r.ready() for r in pending)):
                        if progress is not None:
                            progress(apart[said])
                        said += 1
                    time.sleep(0.1)
                for name, result in zip(apart, pending, strict=True):
                    done[name] = result.get()
                pool.close()
            finally:
                pool.terminate()        # Ctrl-C or an error here: no process left compiling
                pool.join()
        else:
            for name in names:
                done[name] = _warm(name, search, progress)
    return [done[name] for name in names]


def _source_bytes(name: str) -> int:
    """How much source a built-in game compiles, which its compile time follows."""
    from analyser.games.registry import GAME_MODULES

    spec = importlib.util.find_spec(GAME_MODULES[name])
    return sum(p.stat().st_size for p in Path(spec.origin).parent.glob("*.py"))


def _warm_apart(name: str, search: bool) -> Warmed:
    """One game warmed in a process of the pool."""
    with quiet_first_class():
        return _warm(name, search, None)


def _ignore_interrupts():
    """A warming process leaves Ctrl-C to the one that started it, which ends it (no traceback from each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _warm(name: str, search: bool, progress) -> Warmed:
    """One game warmed in this process."""
    from analyser.analyses.trace import trace
    from analyser.engine.config import RunConfig
    from analyser.engine.local import ChunkRunner
    from analyser.games.registry import get_game

    if progress is not None:
        progress(name)
    start = time.perf_counter()
    spec = get_game(name)
    parts = ["simulate", "trace"]
    trace(name, seed=0, deal=0)                     # the engine (ChunkRunner runs a unit) and the trace
    if spec.kit is not None and spec.package:
        kit = spec.kit()
        runner = ChunkRunner(RunConfig.build(name, players=spec.default_players, deals=1, seed=0))
        for _ in kit.play(0, 0, spec.default_players, runner.settings, runner.fns, runner.params,
                          runner.streams):
            pass
        importlib.import_module(f"{spec.package}.playouts").play_worlds_nb.compiled()
        parts += ["replay", "rollout"]
    if search and "pimc" in spec.policy_map:
        for player in ("pimc", "ismcts"):
            _ = spec.policy_map[player].function
        parts.append("search players")
    return Warmed(name, time.perf_counter() - start, tuple(parts))
