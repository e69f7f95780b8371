"""The runner: splits a run into chunks of deals, runs each, tallies, reports progress.

Every chunk is (first deal, number of deals) and its records depend on nothing
else, so any chunking, thread count or machine gives the same numbers; only
tallies (small) are kept unless records are asked for.
"""
from __future__ import annotations

import time
import warnings
from contextlib import nullcontext

import numpy as np

from analyser.core.config import DEFAULT_CHUNK, RunConfig
from analyser.core.errors import UserError
from analyser.results import RecordWriter, SimulationResult
from analyser.stats.tally import Tally


def chunks(first_deal: int, deals: int, size: int):
    """``(start, count)`` pieces covering deals first_deal .. first_deal + deals - 1."""
    for start in range(0, deals, size):
        yield first_deal + start, min(size, deals - start)


def set_threads(threads: int | None) -> int:
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = limit
    if not 1 <= threads <= limit:
        raise UserError(f"threads must be from 1 to {limit} on this machine, not {threads}")
    numba.set_num_threads(threads)
    return threads


class ChunkRunner:
    """Runs chunks of one configuration; compiled policies and parameters are prepared once."""

    def __init__(self, config: RunConfig):
        self.config = config
        game = config.game
        self.fns = tuple(seat.spec.fn for seat in config.seats)
        self.fns += (self.fns[0],) * (game.record_dtype["place"].shape[0] - len(self.fns))
        self.params = np.zeros((len(self.fns), config.seats[0].row().size))
        for s, seat in enumerate(config.seats):
            self.params[s] = seat.row()
        self.settings = game.settings_row(config.settings)
        self.run(config.first_deal, 0)   # compile or load from cache now, outside any timing

    def run(self, start: int, count: int) -> np.ndarray:
        cfg = self.config
        out = np.zeros(count, cfg.game.record_dtype)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
            try:
                cfg.game.simulate(cfg.seed, start, cfg.players, self.settings, self.fns, self.params, out)
            except Exception as err:
                if type(err).__module__.startswith("numba"):
                    raise UserError(f"a policy does not fit the {cfg.game.name} policy signature "
                                    f"({str(err).splitlines()[0]})") from None
                raise
        problem = cfg.game.policy_error(out)
        if problem is not None:
            seat = int(problem)
            raise UserError(f"policy '{cfg.seats[seat].label()}' at seat {seat} chose an illegal action")
        return out


def preparing(enabled: bool):
    """A spinner on stderr while compiled code is loaded: the first run after an
    install or an edit compiles it, which takes a while with nothing else to show."""
    if not enabled:
        return nullcontext(None)
    from rich.console import Console

    return Console(stderr=True).status("loading compiled code (after an install or an edit: compiling, ~20 s)")


def _progress(total: int, enabled: bool):
    if not enabled:
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=True)


def run(config: RunConfig, threads: int | None = None, chunk_size: int = DEFAULT_CHUNK,
        progress: bool = False, keep_records: bool = False, out=None) -> SimulationResult:
    """Run a whole configuration; see analyser.api.simulate for the user-facing form."""
    if chunk_size < 1:
        raise UserError(f"chunk size must be at least 1, not {chunk_size}")
    threads = set_threads(threads)
    game = config.game
    meta = config.metadata()
    writer = RecordWriter(out, meta) if out is not None else None
    with preparing(progress):
        runner = ChunkRunner(config)
    tally = Tally(config.players, game.seat_events, game.game_events)
    kept = []
    seconds = 0.0
    with _progress(config.deals, progress) as bar:
        task = bar.add_task(f"{game.name} x{config.players}", total=config.deals, rate="") if bar else None
        for start, count in chunks(config.first_deal, config.deals, chunk_size):
            t0 = time.perf_counter()
            rec = runner.run(start, count)
            seconds += time.perf_counter() - t0
            tally.add(rec)
            if writer:
                writer.write(rec, config.players)
            if keep_records:
                kept.append(rec)
            if bar:
                bar.update(task, advance=count, rate=f"{tally.deals / max(seconds, 1e-9):,.0f} games/s")
    meta.update(threads=threads, seconds=seconds)
    if writer:
        writer.close({"threads": threads, "seconds": seconds})
    records = np.concatenate(kept) if keep_records else None
    return SimulationResult(meta, game, tally, seconds, records)

