"""The run pipeline: every command that plays units is a plan played through it.

- A **plan** (:class:`Plan`) is what to play: groups of configurations
  (RunConfig: line-up, seat arrangement, rule values, seed), every configuration
  of a group played on the same units (an analysis's seat arrangements, or the
  values of a rule), from a first unit, a first batch of units, in chunks.
- An **executor** plays chunks: units start .. start + count - 1 in every
  configuration of one group, giving their records. In this process, with
  numba's threads inside each chunk (analyser.engine.local), or as tasks on a
  Dask cluster (analyser.engine.dask_backend), either kept in a run directory
  to resume from (analyser.engine.run_dir); :class:`Executor` says what one
  provides, analyser.engine.backend makes the one a backend names. A
  chunk's records depend on its configuration, first unit and count alone
  (RunConfig.identity, chunk_key), so any chunking, thread count or executor
  gives the same numbers.
- A **sink** takes each finished chunk in plan order (tallies merged, records
  written); :class:`Sink` says what one provides.
- A **stop rule** (analyser.engine.stopping) says after each batch how many
  units to add: none for a fixed count; for a precision target, until the
  watched interval is narrow enough or the cap is reached.

:func:`execute` drives them: one progress bar a batch, one Ctrl-C message, one
way to count (units of whole chunks), the plan's first unit honoured.
"""
from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from analyser.engine.config import DEFAULT_CHUNK, RunConfig
from analyser.engine.progress import in_notebook, preparing, progress_bar
from analyser.engine.stopping import FIXED, StopRule, check_chunk_size
from analyser.errors import (
    ABORT_LIMIT,
    AbortedUnits,
    DiskFull,
    Interrupted,
    UserError,
    counted,
    stop_word,
    was_terminated,
)
from analyser.io.numbers import plural


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


def join_records(blocks: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    """Concatenate record blocks byte for byte: np.concatenate copies an aligned
    record dtype field by field and leaves its padding bytes undefined, so equal
    runs would not give equal bytes (np.save, hashes)."""
    out = np.zeros(sum(b.size for b in blocks), dtype)
    at = 0
    for b in blocks:
        put_records(out, at, b)
        at += b.size
    return out


def put_records(out: np.ndarray, at: int, block: np.ndarray) -> None:
    """Copy ``block`` into ``out[at:]`` byte for byte, padding included (see join_records)."""
    width = out.dtype.itemsize
    out[at: at + block.size].view(np.uint8).reshape(block.size, width)[:] = block.view(np.uint8).reshape(block.size,
                                                                                                         width)


@dataclass(frozen=True)
class Chunk:
    """Units start .. start + count - 1 of every configuration of ``plan.groups[group]``."""
    group: int
    start: int
    count: int


@dataclass(frozen=True)
class Plan:
    """What to play (see the module docstring). ``groups`` are played one after the other,
    chunk by chunk; ``first`` is the first unit and ``count`` the first batch (the stop
    rule may add batches). ``label`` heads the progress bar; ``group_name`` names a group
    in the Ctrl-C message of a plan with several ("settings"), ``per`` what one group's
    count is per ("pair"). ``unit`` names a unit when it is not the game's (a rollout's
    "world"); ``lost``: a play cut at the action cap counts as lost, not dropped (a rollout's
    play-outs), which the abort warning says."""
    groups: tuple[tuple[RunConfig, ...], ...]
    first: int
    count: int
    chunk_size: int = DEFAULT_CHUNK
    label: str = ""
    group_name: str = ""
    per: str = ""
    unit: str = ""
    lost: bool = False

    @classmethod
    def of(cls, configs, count: int | None = None, chunk_size: int = DEFAULT_CHUNK, label: str = "",
           per: str = "") -> Plan:
        """One group of configurations on the same units from the first configuration's first unit;
        ``count`` defaults to its count. ``per`` names what a count is per ("pair") in messages."""
        configs = tuple(configs)
        return cls((configs,), configs[0].first_deal, configs[0].deals if count is None else count,
                   check_chunk_size(chunk_size), label, per=per)

    @property
    def game(self):
        return self.groups[0][0].game

    @property
    def unit_name(self) -> str:
        return self.unit or self.game.unit

    @property
    def plays_per_unit(self) -> int:
        return sum(len(g) for g in self.groups)


class Executor(Protocol):
    """What plays a plan's chunks (analyser.engine.local.LocalExecutor, dask_backend.DaskExecutor,
    run_dir.StoredExecutor around either; analyser.engine.backend.EXECUTORS names the factories).
    ``prepare`` readies every configuration of the plan before any timing, with ``reuse_buffers``
    (the sink keeps no records) and ``held`` (Sink.holds); ``results`` yields each chunk of an
    iterator (maybe a very long one) with the records of every configuration of its group, in the
    order given, and cancels what is in flight when closed early; ``note`` is what the Ctrl-C
    message says of the chunks played; ``close`` once the executor's last plan is played."""

    def prepare(self, plan: Plan, reuse_buffers: bool = False, held: int = 0) -> None: ...

    def results(self, chunks: Iterator[Chunk]) -> Iterator[tuple[Chunk, list[np.ndarray]]]: ...

    def note(self) -> str: ...

    def close(self) -> None: ...


class Sink:
    """What takes a plan's finished chunks. ``add`` gets each chunk with the records of every
    configuration of its group; ``flush`` is called at the end of every batch (the stop rule
    reads the sink's tally next) and ``close`` once the plan is played, ``discard`` when it
    stops early (an error, Ctrl-C): a sink with a file open removes its partial file; ``note``
    is what the Ctrl-C message says of that file."""
    keeps_records = True       # False: the executor may hand the same buffer to every chunk
    holds = 0                  # chunks the sink may still read once add returned (Background: 1)

    def add(self, chunk: Chunk, records: list[np.ndarray]) -> None:
        raise NotImplementedError

    def flush(self) -> None:
        pass

    def close(self, run: RunStats) -> None:
        pass

    def discard(self) -> None:
        pass

    def note(self) -> str:
        return ""


def file_note(path, existed: bool) -> str:
    """The Ctrl-C message's word on an output file: an older one stays, a new one is not written."""
    return f"; {path} was left as it was" if existed else f"; no {path} was written"


class Gather(Sink):
    """A sink that hands each chunk to ``add(chunk, records)`` (an analysis's tally). ``out``, the
    file the analysis saves its result to once the plan is played, is checked now (before any
    compiling) and named by the Ctrl-C message."""

    def __init__(self, add, out=None):
        from analyser.io.results_file import check_results_path

        self.add, self.out = add, out
        if out is not None:
            check_results_path(out)
        self.existed = out is not None and Path(out).exists()

    def note(self) -> str:
        return file_note(self.out, self.existed) if self.out is not None else ""


@dataclass
class RunStats:
    """How a plan was played: units per configuration (whole batches), plays, time, threads, the stop."""
    units: int = 0
    plays: int = 0
    aborted: int = 0                # plays that hit the action cap
    seconds: float = 0.0
    simulation_seconds: float = 0.0
    threads: int = 1
    stop: dict = field(default_factory=dict)


def execute(plan: Plan, sink: Sink, stop: StopRule = FIXED, threads: int | None = None, progress: bool | None = None,
            executor: Executor | None = None, backend=None, run_dir=None) -> RunStats:
    """Play ``plan`` into ``sink`` until ``stop`` says stop (see the module docstring). The chunks
    are played by ``executor`` if given (it keeps its compiled engines for the next plan; the
    caller closes it), else by one made for ``backend`` and ``run_dir`` (analyser.engine.backend)
    and closed here. ``progress``: bars (default: in a notebook). Ctrl-C discards the sink's
    partial output and raises Interrupted with what was played; a full disk (DiskFull) says
    what a run directory kept."""
    from analyser.engine.backend import make_executor

    progress = in_notebook() if progress is None else progress
    stats = RunStats(threads=set_threads(threads))
    unit, groups = plan.unit_name, len(plan.groups)
    finished_groups = units_played = 0
    what = plural(unit) if plan.plays_per_unit == 1 else "plays"
    own = executor is None
    try:
        with preparing(progress):
            executor = executor or make_executor(backend, run_dir, progress)
            executor.prepare(plan, reuse_buffers=not sink.keeps_records, held=sink.holds)
        t_start = time.perf_counter()
        batch = plan.count
        while batch:
            with progress_bar(batch * plan.plays_per_unit, plan.label, progress) as bar:
                todo = (Chunk(g, start, n) for g in range(groups)     # lazily: a count may be 10**18
                        for start, n in chunks(plan.first + stats.units, batch, plan.chunk_size))
                with closing(executor.results(todo)) as played:   # closed early, a cluster cancels the rest
                    t0 = time.perf_counter()
                    for chunk, records in played:
                        stats.simulation_seconds += time.perf_counter() - t0
                        finished_groups = chunk.group
                        units_played += chunk.count if chunk.group == 0 else 0   # played, even if Ctrl-C stops the sink
                        sink.add(chunk, records)
                        stats.plays += chunk.count * len(records)
                        stats.aborted += sum(int(np.count_nonzero(r["aborted"])) for r in records)
                        if bar:
                            rate = stats.plays / max(time.perf_counter() - t_start, 1e-9)
                            bar.advance(chunk.count * len(records), f"{rate:,.0f} {what}/s")
                        t0 = time.perf_counter()
                finished_groups = groups
                sink.flush()
            stats.units += batch
            batch = stop.next(stats.units)
        stats.seconds = time.perf_counter() - t_start
        stats.stop = stop.result(stats.units)
        sink.close(stats)
        warn_aborted(stats, unit, plan.lost)
    except BaseException as err:
        sink.discard()
        if isinstance(err, KeyboardInterrupt):
            done = (f"{finished_groups} of {groups} {plan.group_name or 'groups'}" if groups > 1
                      else f"{counted(units_played, unit)}" + (f" per {plan.per}" if plan.per else ""))
            kept = executor.note() if executor is not None else ""
            raise Interrupted(f"{stop_word(err)} after {done}{sink.note()}{kept}",
                              terminated=was_terminated(err)) from None
        if isinstance(err, DiskFull) and executor is not None:    # what a run directory kept, as after Ctrl-C
            raise DiskFull(f"{err}{executor.note()}") from None
        raise
    finally:
        if own and executor is not None:
            executor.close()
    return stats


def warn_aborted(stats: RunStats, unit: str, lost: bool = False) -> None:
    """Warn (AbortedUnits) when more than ABORT_LIMIT of the plays hit the action cap: the summary's
    shares are then over the rest, which every command says only in its tables (``lost``: the
    plays are a rollout's play-outs, each aborted one counted as no win)."""
    if stats.plays and stats.aborted > ABORT_LIMIT * stats.plays:
        what = "play-outs" if lost else plural(unit) if stats.plays == stats.units else "plays"
        warnings.warn(AbortedUnits(stats.aborted, stats.plays, what, lost=lost), stacklevel=3)


def run_meta(run: RunStats, stop: StopRule) -> dict:
    """What a played plan adds to an analysis's metadata (the stop's sentence aside)."""
    return {"deals": run.units, "stop": run.stop, "batches": list(stop.batches), "threads": run.threads,
            "seconds": run.seconds, "simulation_seconds": run.simulation_seconds, "plays": run.plays,
            "plays_per_second": run.plays / run.seconds if run.seconds > 0 else None}
