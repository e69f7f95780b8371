"""Paying the compile time once, up front: ``analyser warmup`` (a user before a session, a cluster
image before its workers start).

Every game compiles on first use, and ``trace``, ``replay``, ``rollout`` and the search players
compile more (benchmarks/RESULTS.md has the figures). Warming a game plays what each of those runs
once, small: a unit simulated and traced (the engine, the trace), a unit kept position by position
(replay's and the test kit's playout), the rollouts' world kernel (compiled on its first call, so warmed by name), and,
unless ``search=False``, the game's search players (their module compiles them). Everything lands
in the compile cache (``analyser.CACHE_DIR``), so the next run of any of them loads instead.
"""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass

from analyser.errors import UserError, choices
from analyser.games.common import quiet_first_class


@dataclass(frozen=True)
class Warmed:
    game: str
    seconds: float
    parts: tuple[str, ...]


def warmup(games=None, search: bool = True, progress=None) -> list[Warmed]:
    """Compile (or load) everything the commands run for each of ``games`` (default: every registered
    game); ``progress(game)`` is called before each. Returns what was warmed and how long it took."""
    from analyser.games.registry import game_names

    names = list(games or game_names())
    unknown = [g for g in names if g not in game_names()]
    if unknown:
        raise UserError(f"unknown game '{unknown[0]}'; valid: {choices(game_names())}")
    out = []
    with quiet_first_class():
        for name in names:
            out.append(_warm(name, search, progress))
    return out


def _warm(name: str, search: bool, progress) -> Warmed:
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
