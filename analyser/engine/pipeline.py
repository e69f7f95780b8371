"""The runner: splits a run into chunks of units, runs each, tallies, reports progress.

Every chunk is (first unit, number of units) and its records depend on nothing
else, so any chunking, thread count or machine gives the same numbers; only
tallies (small) are kept unless records are asked for.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from analyser.analyses.records import SimulationResult
from analyser.engine.config import DEFAULT_CHUNK, RunConfig
from analyser.engine.errors import Interrupted, UserError
from analyser.engine.progress import preparing, progress_bar
from analyser.engine.registry import plural
from analyser.stats.tally import Tally


def chunks(first: int, count: int, size: int):
    """``(start, n)`` pieces covering units first .. first + count - 1."""
    for start in range(0, count, size):
        yield first + start, min(size, count - start)


def set_threads(threads: int | None) -> int:
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = limit
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= limit:
        raise UserError(f"threads must be a whole number from 1 to {limit} on this machine, not {threads!r}")
    numba.set_num_threads(threads)
    return threads


class ChunkRunner:
    """Runs chunks of one configuration; compiled policies and parameters are prepared once."""

    def __init__(self, config: RunConfig):
        self.config = config
        seats = config.game.max_seats
        fns = tuple(seat.spec.function for seat in config.seats)
        self.fns = fns + (fns[0],) * (seats - len(fns))
        self.params = np.zeros((seats, config.seats[0].row().size))
        for s, seat in enumerate(config.seats):
            self.params[s] = seat.row()
        self.streams = np.zeros(seats, np.int64)
        self.streams[: config.players] = config.streams
        self.settings = config.game.settings_row(config.settings)
        self.run(config.first_deal, 0)   # compile or load from cache now, outside any timing

    def run(self, start: int, count: int, buffer: np.ndarray | None = None) -> np.ndarray:
        """Records of units start .. start + count - 1: a new array, or the first ``count``
        of ``buffer`` zeroed and filled (a run that keeps no records reuses one buffer:
        fresh pages for every chunk cost their page faults inside the parallel loop,
        about 5% of a two-thread run)."""
        import numba

        cfg = self.config
        if buffer is None:
            out = np.zeros(count, cfg.game.record_dtype)
        else:
            out = buffer[:count]
            out.view(np.uint8).fill(0)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
            try:
                with numba.parallel_chunksize(1):    # blocks handed out one at a time, not halves up front:
                    cfg.game.simulate(cfg.seed, start, cfg.players, self.settings, self.fns, self.params,
                                      self.streams, out)   # a thread the VM slows does not hold the other up
            except Exception as err:
                if type(err).__module__.startswith("numba"):
                    raise UserError(f"a policy does not fit the {cfg.game.name} policy signature "
                                    f"({', '.join(cfg.game.policy_signature)}): "
                                    f"{str(err).splitlines()[0]}") from None
                raise
        problem = cfg.game.policy_error(out)
        if problem is not None:
            seat = int(problem)
            raise UserError(f"policy '{cfg.seats[seat].label()}' at seat {seat} chose an illegal action")
        return out


def _join(blocks: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    """Concatenate record blocks byte for byte: np.concatenate copies an aligned
    record dtype field by field and leaves its padding bytes undefined, so equal
    runs would not give equal bytes (np.save, hashes)."""
    out = np.zeros(sum(b.size for b in blocks), dtype)
    raw = out.view(np.uint8).reshape(out.size, dtype.itemsize)
    at = 0
    for b in blocks:
        raw[at: at + b.size] = b.view(np.uint8).reshape(b.size, dtype.itemsize)
        at += b.size
    return out


def run(config: RunConfig, threads: int | None = None, chunk_size: int = DEFAULT_CHUNK,
        progress: bool = False, keep_records: bool = False, out=None, more=None) -> SimulationResult:
    """Run a whole configuration; see analyser.analyses.simulate.simulate for the user-facing form.

    With ``out`` the records stream into a temporary file that replaces ``out``
    only when the run completes; Ctrl-C removes it and raises Interrupted.
    ``more(tally, done)``, when given, is asked after the ``config.deals`` units and
    after every further batch how many units to add (0: stop), and its ``meta``
    dict then joins the run's metadata: a precision target is such a rule."""
    from analyser.io.results_file import RecordWriter

    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise UserError(f"chunk size must be a whole number of at least 1, not {chunk_size!r}")
    threads = set_threads(threads)
    game = config.game
    meta = config.metadata()
    writer = RecordWriter(out, meta, game) if out is not None else None   # refuses a bad target before compiling
    try:
        with preparing(progress):
            runner = ChunkRunner(config)
    except BaseException:
        if writer:
            writer.discard()
        raise
    tally = Tally.for_run(game, config.players, meta["policies"])
    kept = []
    buffer = None if keep_records else np.zeros(min(chunk_size, max(config.deals, 1)), game.record_dtype)
    sim_seconds = 0.0
    t_start = time.perf_counter()
    done, batch = 0, config.deals
    try:
        while batch:
            with progress_bar(batch, f"{game.name} x{config.players}", progress) as bar:
                for start, count in chunks(config.first_deal + done, batch, chunk_size):
                    t0 = time.perf_counter()
                    if buffer is not None and buffer.size < count:      # a later batch's larger chunk
                        buffer = np.zeros(count, game.record_dtype)
                    rec = runner.run(start, count, buffer)
                    sim_seconds += time.perf_counter() - t0
                    tally.add(rec)
                    if writer:
                        writer.write(rec, config.players)
                    if keep_records:
                        kept.append(rec)
                    if bar:
                        rate = tally.units / max(time.perf_counter() - t_start, 1e-9)
                        bar.advance(count, f"{rate:,.0f} {plural(game.unit)}/s")
            done += batch
            batch = more(tally, done) if more is not None else 0
        seconds = time.perf_counter() - t_start
        extra = {"deals": done, "threads": threads, "seconds": seconds, "simulation_seconds": sim_seconds,
                 **(more.meta if more is not None else {})}
        meta.update(extra)
        if writer:
            writer.close(extra)
    except BaseException as err:
        if writer:
            writer.discard()
        if isinstance(err, KeyboardInterrupt):
            kept_file = f"; {out} was left as it was" if writer and writer.existed else \
                f"; no {out} was written" if writer else ""
            raise Interrupted(f"interrupted after {tally.units:,} {plural(game.unit)}{kept_file}") from None
        raise
    records = _join(kept, game.record_dtype) if keep_records else None
    return SimulationResult(meta, game, tally, seconds, records, sim_seconds)
