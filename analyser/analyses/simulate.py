"""The Python API: what the CLI does, for notebooks and scripts."""
from __future__ import annotations

import json
from dataclasses import dataclass

from analyser.analyses.records import SimulationResult
from analyser.engine.config import DEFAULT_CHUNK, RunConfig, whole_number
from analyser.engine.errors import UserError
from analyser.engine.pipeline import ChunkRunner, run
from analyser.engine.progress import in_notebook, preparing


def simulate(game: str = "palace", players: int | None = None, policies=None, deals: int | None = None,
             seed: int = 0, rules: dict | None = None, threads: int | None = None, out=None,
             keep_records: bool = True, progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK,
             first_deal: int = 0, n: int | None = None, streams=None, unit: str | None = None,
             precision: float | None = None, max_deals: int = 10_000_000, rerun: bool = False) -> SimulationResult:
    """Play ``n`` units (games of Palace, matches of the match games; ``deals``
    is the same number under Palace's name; default 10,000) and tally them.

    policies: one for every seat, one per team (a team game: team t's seats get
    the t-th) or one per seat; each a name (``"saver"``), a
    spec with parameters (``"pickup:max_pile=5"``), a PolicySpec or SeatPolicy,
    or an ``@numba.njit`` function of the game's policy signature.
    rules: setting name -> value (``{"ten_on_anything": True}``).
    keep_records: keep one record per unit in memory (``result.games``); turn
    it off for very large runs, which then need only the tallies' memory.
    progress: a progress bar (default: on in a notebook, off elsewhere).
    streams: the policy stream id of each seat (default: its seat number); a
    rotation of seats that moves the ids with the policies keeps every
    policy's random draws (see analyser.kernels.rng).
    unit: what one record is: the game's unit (default), or, for a game played
    in hands or rounds, its sub-unit (``"hand"``): single hands from fresh deals.
    precision: add units until every win share and rate interval has half-width
    at most this (0.005: +-0.5 points) or ``max_deals`` units were played; ``n``
    is then the first batch (default 1,000) and ``result.meta["stopped"]`` says
    which happened. rerun: then play the count reached again on fresh deals and return that
    fixed-count run (the stop slightly biases the share that drives it; see analyser.analyses.compare).
    Units ``first_deal .. first_deal + n - 1`` of ``seed`` are played, so two
    calls with the same seed and different policies play the same deals.
    """
    if n is not None and deals is not None and n != deals:
        raise UserError(f"give the number of units once (n={n!r}, deals={deals!r})")
    count = n if n is not None else deals if deals is not None else 10_000 if precision is None else 1_000
    if progress is None:
        progress = in_notebook()
    with preparing(progress):
        config = RunConfig.build(game, players, policies, count, seed, rules, first_deal, streams, unit)
    if rerun and precision is None:
        raise UserError("rerun repeats a precision run at the count it reached: give a precision too")
    if precision is not None:
        from analyser.analyses.compare import simulate_to_precision

        return simulate_to_precision(config, precision, max_deals, threads=threads, chunk_size=chunk_size,
                                     keep_records=keep_records, progress=progress, out=out, rerun=rerun)
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

    def __repr__(self) -> str:
        return f"<Trace: {len(self.events)} events; .text() for people, .jsonl() for programs>"


def trace(game: str = "palace", seed: int = 0, deal: int = 0, players: int | None = None,
          policies=None, rules: dict | None = None, hand: int | None = None, streams=None,
          unit: str | None = None) -> Trace:
    """Play unit ``deal`` of ``seed`` with logging on: exactly the unit simulate plays
    (with the same ``unit``). ``hand`` keeps the setup and the events of that hand
    (round) of a match only."""
    config = RunConfig.build(game, players, policies, 1, seed, rules, deal, streams, unit)
    if hand is not None and config.game.sub_unit is None:   # before compiling anything
        raise UserError(f"{config.game.name} has no hands or rounds: a {config.game.unit} is played whole")
    runner = ChunkRunner(config)
    events, _ = config.game.trace(config.seed, config.first_deal, config.players, runner.settings, runner.fns,
                                  runner.params, runner.streams)
    meta = config.metadata()
    head = {"type": "setup", "game": meta["game"], "players": config.players, "seed": config.seed,
            "unit": config.game.unit, "deal": config.first_deal, "settings": meta["settings"],
            "policies": meta["policies"]}
    events[0] = {**head, **{k: v for k, v in events[0].items() if k != "type"}}
    if hand is not None:
        events = _one_hand(events, hand, config.game)
    return Trace(events, config.game.trace_text)


def _one_hand(events: list[dict], hand, game) -> list[dict]:
    """The setup line (the run's configuration) and the events of one hand (round):
    the events inside a unit carry their sub-unit's index under its name."""
    key = game.sub_unit
    hand = whole_number(hand, f"the {key}")
    played = sorted({e[key] for e in events if key in e})
    if hand not in played:
        have = f"{key}s {played[0]}..{played[-1]}" if played else f"no {key}s"
        raise UserError(f"this {game.unit} has {have}, not {hand}")
    return [events[0]] + [e for e in events[1:] if e.get(key) == hand]
