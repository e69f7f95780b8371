"""The Python API: what the CLI does, for notebooks and scripts."""
from __future__ import annotations

import json
from dataclasses import dataclass

from analyser.core.config import DEFAULT_CHUNK, RunConfig
from analyser.core.runner import ChunkRunner, preparing, run
from analyser.results import SimulationResult


def simulate(game: str = "palace", players: int | None = None, policies=None, deals: int = 10_000,
             seed: int = 0, rules: dict | None = None, threads: int | None = None, out=None,
             keep_records: bool = True, progress: bool = False, chunk_size: int = DEFAULT_CHUNK,
             first_deal: int = 0) -> SimulationResult:
    """Play ``deals`` deals and tally them.

    policies: one for every seat or one per seat; each a name (``"saver"``), a
    spec with parameters (``"pickup:max_pile=5"``), a PolicySpec or SeatPolicy,
    or an ``@numba.njit`` function of the game's policy signature.
    rules: setting name -> value (``{"ten_on_anything": True}``).
    keep_records: keep one record per deal in memory (``result.games``); turn
    it off for very large runs, which then need only the tallies' memory.
    Deals ``first_deal .. first_deal + deals - 1`` of ``seed`` are played, so
    two calls with the same seed and different policies play the same deals.
    """
    with preparing(progress):
        config = RunConfig.build(game, players, policies, deals, seed, rules, first_deal)
    return run(config, threads=threads, chunk_size=chunk_size, progress=progress,
               keep_records=keep_records, out=out)


@dataclass
class Trace:
    events: list[dict]
    text_renderer: object

    def jsonl(self) -> str:
        return "\n".join(json.dumps(e) for e in self.events)

    def text(self) -> str:
        return self.text_renderer(self.events)

    def __str__(self) -> str:
        return self.text()


def trace(game: str = "palace", seed: int = 0, deal: int = 0, players: int | None = None,
          policies=None, rules: dict | None = None) -> Trace:
    """Play deal ``deal`` of ``seed`` with logging on: exactly the game simulate plays."""
    config = RunConfig.build(game, players, policies, 1, seed, rules, deal)
    runner = ChunkRunner(config)
    events, _ = config.game.trace(config.seed, deal, config.players, runner.settings, runner.fns, runner.params)
    meta = config.metadata()
    head = {"type": "setup", "game": meta["game"], "players": config.players, "seed": config.seed,
            "deal": deal, "settings": meta["settings"], "policies": meta["policies"]}
    events[0] = {**head, **{k: v for k, v in events[0].items() if k != "type"}}
    return Trace(events, config.game.trace_text)
