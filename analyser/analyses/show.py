"""``show``: a results file read back as the result of the command that wrote it.

A results file carries its ``kind`` in its metadata (none: ``simulate``), and
analyses.kinds names what reads each kind (``load_compare``, ``load_sweep``, ...);
a simulate file becomes a SimulationResult with its records and every table rebuilt. A run
directory (``--run-dir``) shows how far its run got and, for a simulate run, the summary of
the chunks it holds.
"""
from __future__ import annotations

from pathlib import Path

from analyser.analyses.kinds import SIMULATE, kind_of
from analyser.analyses.records import SimulationResult
from analyser.engine.run_dir import held, read_part
from analyser.errors import UserError
from analyser.games.registry import get_game, lazy
from analyser.io.numbers import plural
from analyser.io.results_file import frame_records, read_results
from analyser.stats.tally import Tally


def load(path: str | Path):
    """Read a results file back: a SimulationResult (records included), or the result
    of the analysis command that wrote it (a comparison, tournament or sweep)."""
    meta, frame, path = read_results(path)
    kind = kind_of(meta)
    return simulation_result(meta, frame, path) if kind is SIMULATE else lazy(kind.loader)(path)


def load_simulation(path: str | Path) -> SimulationResult:
    """Read a file written by ``simulate(..., out=...)`` back, its tables rebuilt from its records."""
    return simulation_result(*read_results(path))


def simulation_result(meta: dict, frame, path: Path) -> SimulationResult:
    """A simulate file's result from its metadata and frame (read_results)."""
    try:
        game = get_game(meta["game"]).for_unit(meta.get("unit"))   # a run of single hands says "hands"
        players = int(meta["players"])
        labels = list(meta["policies"])
    except (ValueError, KeyError, TypeError) as err:
        raise UserError(f"{path} has damaged analyser metadata ({type(err).__name__}: {err})") from None
    try:
        records = frame_records(frame, game, players)
    except KeyError as err:
        raise UserError(f"{path} lacks the column {err} of a {game.name} results file") from None
    return records_result(meta, game, players, labels, records)


def records_result(meta: dict, game, players: int, labels: list[str], records) -> SimulationResult:
    tally = Tally.for_run(game, players, labels).add(records)
    return SimulationResult(meta, game, tally, meta.get("seconds"), records, meta.get("simulation_seconds"))


def load_run_dir(path) -> tuple[SimulationResult | None, list[str]] | None:
    """What a run directory holds (None: ``path`` is none): the result of the units it holds when
    its run is a simulation (one plan of one configuration) and one line a plan saying how far
    the run got."""
    plans = held(path)
    if plans is None:
        return None
    if not plans:
        return None, [f"run directory {path} holds no run yet"]
    if len(plans) > 1 or len(plans[0].parts) > 1 or len(plans[0].plan["groups"][0]) > 1:
        lines = [f"run directory {path}: {progress(h)}" + (f" (run {i + 1} of {len(plans)} of the command)"
                                                           if len(plans) > 1 else "") for i, h in enumerate(plans)]
        return None, [*lines, "the summary of a run of several configurations is its command's: run it again to "
                              "see it (only what is missing is played)"]
    result, chunks = held_result(plans[0], path)
    return result, [f"run directory {path}: {progress(plans[0], result.tally.units if result else 0, chunks)}"]


def progress(h, units: int | None = None, chunks: int | None = None) -> str:
    """``200 of 300 games in 2 of 3 chunks: the same command plays the rest`` (``units`` and
    ``chunks``: those read back, when not every part the manifest names could be)."""
    identity = h.plan["groups"][0][0]
    game = get_game(identity["game"]).for_unit(identity.get("unit"))
    units = min(h.units(g) for g in range(len(h.parts))) if units is None else units
    named, planned = h.chunks()
    chunks = named if chunks is None else chunks
    per = " each configuration" if len(h.parts) > 1 or len(h.plan["groups"][0]) > 1 else ""
    if h.count is None:
        return f"{units:,} {plural(game.unit)}{per} in {chunks:,} chunks"
    done = units >= h.count
    return (f"{units:,} of {h.count:,} {plural(game.unit)}{per} in {chunks:,} of {planned:,} chunks"
            + (": complete" if done else ": the same command plays the rest"))


def held_result(h, path) -> tuple[SimulationResult | None, int]:
    """The result of a simulation's units held without a gap from its first one (None: none held)
    and the chunks they came from."""
    import numpy as np

    from analyser.engine.pipeline import join_records

    identity = h.plan["groups"][0][0]
    game = get_game(identity["game"]).for_unit(identity.get("unit"))
    blocks, at = [], h.plan["first"]
    while at in h.parts[0]:
        block = read_part(Path(path), h.parts[0][at], [game.record_dtype])
        if block is None:
            break                                   # a damaged part: the run plays it again
        blocks += block
        at += h.parts[0][at]["count"]
    if not blocks:
        return None, 0
    records = join_records(blocks, game.record_dtype) if len(blocks) > 1 else blocks[0]
    meta = {**identity, "deals": int(records.size), "first_deal": h.plan["first"],
            "versions": {k: identity[k] for k in ("analyser", "game_code")}}
    return records_result(meta, game, int(identity["players"]), list(identity["policies"]), np.asarray(records)), \
        len(blocks)
