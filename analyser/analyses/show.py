"""``show``: a results file read back as the result of the command that wrote it.

A results file carries its ``kind`` in its metadata (none: ``simulate``), and
analyses.kinds names what reads each kind (``load_compare``, ``load_sweep``, ...);
a simulate file becomes a SimulationResult with its records and every table rebuilt.
"""
from __future__ import annotations

from pathlib import Path

from analyser.analyses.kinds import SIMULATE, kind_of
from analyser.analyses.records import SimulationResult
from analyser.errors import UserError
from analyser.games.registry import get_game, lazy
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
    tally = Tally.for_run(game, players, labels).add(records)
    return SimulationResult(meta, game, tally, meta.get("seconds"), records, meta.get("simulation_seconds"))
