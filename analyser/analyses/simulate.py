"""``simulate``: one line-up played over units and tallied, to a count or a precision target.

The plan is one configuration; the sink tallies every chunk (stats.tally),
streams it to ``out`` (io.results_file.RecordWriter) and keeps it when records
are asked for.

``simulate --precision`` (``precision=H``) adds batches until every share the
tables report (win share per seat, policy and team, the game's rate columns;
the score too where it is a 0/1 payoff, as in Palace) has a Chow-Robbins
half-width (share_half_width) at most H, after at least MIN_STOP_UNITS units,
or ``max_deals`` units were played (engine.stopping.Precision). Mean scores in
game units and per-unit means are not watched. Its estimates carry a small
bias: the share whose interval is the widest drives the stop, and a stop comes
sooner after a batch that moved that share towards 0 or 1 (where its variance
is smaller). ``rerun=True`` then plays the count reached again on fresh deals
(the next ones of the same seed, which the stop never saw) and reports that
fixed-count run instead.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from analyser.analyses.records import SimulationResult
from analyser.engine.background import Background
from analyser.engine.config import MAX_INDEX, RunConfig
from analyser.engine.pipeline import DEFAULT_CHUNK, Plan, Sink, execute, file_note, join_records, put_records
from analyser.engine.play_args import play_args
from analyser.engine.progress import in_notebook, preparing
from analyser.engine.stopping import (
    DEFAULT_MAX_COUNT,
    STOP_RULE,
    stop_rule,
    stop_text,
)
from analyser.errors import UserError, counted
from analyser.stats.intervals import stop_half_width
from analyser.stats.tally import Tally

SHARES = "every share interval (win share, the game's rates; a 0/1 score)"
PRECISION_BIAS = ("the share whose interval is the widest drives the stop, which can bias its estimate slightly "
                  "(-0.02 ± 0.06 points for random, Palace 4p saver/lowest/pickup/random at H = 0.01, 300 seeds); "
                  "rerun=True (--rerun) plays the same count again on fresh deals for unbiased estimates")


def simulate(game: str = "palace", players: int | None = None, policies=None, deals: int | None = None,
             seed: int = 0, rules: dict | None = None, threads: int | None = None, out=None,
             keep_records: bool | None = None, progress: bool | None = None, chunk_size: int = DEFAULT_CHUNK,
             first_deal: int = 0, n: int | None = None, streams=None, unit: str | None = None,
             precision: float | None = None, max_deals: int = DEFAULT_MAX_COUNT,
             rerun: bool = False, backend=None, run_dir=None) -> SimulationResult:
    """Play ``n`` units (games of Palace, matches of the match games; ``deals``
    is the same number under Palace's name; default 10,000) and tally them.

    policies: one for every seat, one per team (a team game: team t's seats get
    the t-th) or one per seat; each a name (``"saver"``), a
    spec with parameters (``"pickup:max_pile=5"``), a PolicySpec or SeatPolicy,
    or an ``@numba.njit`` function of the game's policy signature.
    rules: setting name -> value (``{"ten_on_anything": True}``).
    keep_records: keep one record per unit in memory (``result.games``). The default
    (None) keeps them while they take at most KEEP_LIMIT (1 GiB: about 7.9 million
    Palace games, 3.5 million Enemy Anemone matches), then drops them with a warning,
    so a run of any size needs only the tallies' memory; True keeps every one, False none.
    out=FILE writes them to disk at any size.
    progress: a progress bar (default: on in a notebook, off elsewhere).
    streams: the policy stream id of each seat (default: its seat number); a
    rotation of seats that moves the ids with the policies keeps every
    policy's random draws (see analyser.kernels.rng).
    unit: what one record is: the game's unit (default), or, for a game played
    in hands or rounds, its sub-unit (``"hand"``): single hands from fresh deals.
    precision: add units until every win share and rate interval has half-width
    at most this (0.005: ±0.5 points) or ``max_deals`` units were played; ``n``
    is then the first batch (default 1,000) and ``result.meta["stopped"]`` says
    which happened. rerun: then play the count reached again on fresh deals and return that
    fixed-count run (the stop slightly biases the share that drives it; see the module).
    Units ``first_deal .. first_deal + n - 1`` of ``seed`` are played, so two
    calls with the same seed and different policies play the same deals.
    backend, run_dir: where the units are played, and a directory keeping every finished
    chunk to resume from (analyser.engine.backend: "local", "dask", a scheduler address or
    a dask.distributed.Client; the numbers are the same everywhere).
    """
    if keep_records not in (None, True, False):
        raise UserError(f"keep_records is True, False or None (kept up to {KEEP_LIMIT / (1 << 30):g} GiB), "
                        f"not {keep_records!r}")
    if progress is None:
        progress = in_notebook()
    with preparing(progress):
        args = play_args(game, players, policies, seed, rules, unit, n=n, deals=deals, precision=precision,
                         max_deals=max_deals, first_deal=first_deal, chunk_size=chunk_size, backend=backend,
                         run_dir=run_dir, streams=streams)
    config = replace(args.base, deals=args.count, first_deal=args.first_deal)
    where, chunk_size, precision, cap = args.where, args.chunk_size, args.precision, args.cap
    if rerun and precision is None:
        raise UserError("rerun repeats a precision run at the count it reached: give a precision too")
    if precision is None:
        return run(config, threads=threads, chunk_size=chunk_size, progress=progress, keep_records=keep_records,
                   out=out, **where)
    if not isinstance(rerun, bool):
        raise UserError(f"rerun must be True or False, not {rerun!r}")
    if rerun and config.first_deal + 2 * cap > MAX_INDEX + 1:
        raise UserError(f"--rerun needs room for twice --max-deals ({2 * cap:,}) after the first "
                        f"{config.game.unit} {config.first_deal:,}; lower --max-deals")
    if not rerun:
        return run(config, threads=threads, chunk_size=chunk_size, progress=progress, keep_records=keep_records,
                   out=out, precision=(precision, cap), **where)
    first = run(config, threads=threads, chunk_size=chunk_size, progress=progress, keep_records=False,
                precision=(precision, cap), **where)
    n_reached = first.meta["stop"]["deals"]
    again = replace(config, deals=n_reached, first_deal=config.first_deal + n_reached)
    stop = {"rule": "rerun", "deals": n_reached, "first_deal": again.first_deal, "precision_stop": first.meta["stop"]}
    rerun_meta = {"stop": stop, "stopped": stop_text(stop, config.game.unit), "batches": first.meta["batches"],
                  "precision": first.meta["precision"]}
    return run(again, threads=threads, chunk_size=chunk_size, progress=progress, keep_records=keep_records,
               out=out, extra=rerun_meta, **where)


# simulate tallies and writes a chunk in a thread of its own while the next one plays (TallySink)
OVERLAP = True
KEEP_LIMIT = 1 << 30    # bytes of records keep_records=None keeps in memory


class TallySink(Sink):
    """simulate's sink: the tally, the results file (written as chunks finish) and the kept records.
    ``finish(run)`` gives what joins the metadata once the plan is played (the file's too).
    With OVERLAP a chunk is tallied and written in a Background thread while the next one
    plays; the file and the tally are the same, chunk after chunk in order.

    Kept records of a run of known size (``size``: no precision target) go straight into one
    array of that size, so the peak is the records once, not blocks and their join; a run whose
    records could not stay within KEEP_LIMIT keeps none from the start. A precision run, whose
    size is not known, keeps blocks and joins them at the end."""

    def __init__(self, config: RunConfig, meta: dict, keep_records: bool, out, finish, size: int | None = None):
        from analyser.io.results_file import RecordWriter

        self.game, self.players, self.out, self.finish = config.game, config.players, out, finish
        self.writer = RecordWriter(out, meta, config.game) if out is not None else None  # refuses a bad target
        self.tally = Tally.for_run(config.game, config.players, meta["policies"])
        self.keeps_records = keep_records is not False
        self.limit = KEEP_LIMIT if keep_records is None else None
        self.kept_bytes = 0
        self.background = Background() if OVERLAP else None
        self.holds = 1 if OVERLAP else 0
        self.kept = []
        self.extra: dict = {}
        self.first, self.array = config.first_deal, None
        if self.keeps_records and size is not None:
            if self.limit is not None and size * config.game.record_dtype.itemsize > self.limit:
                self.drop_records(f"{counted(size, self.game.unit)} would take")
            else:
                self.array = np.zeros(size, config.game.record_dtype)

    def add(self, chunk, records) -> None:
        rec, = records
        if self.array is not None:
            put_records(self.array, chunk.start - self.first, rec)
        elif self.keeps_records:
            self.kept.append(rec)
            self.kept_bytes += rec.nbytes
            if self.limit is not None and self.kept_bytes > self.limit:
                self.drop_records(f"past {counted(chunk.start + chunk.count, self.game.unit)} they took")
        if self.background:
            self.background.submit(self.take, rec)
        else:
            self.take(rec)

    def drop_records(self, why: str) -> None:
        """Past KEEP_LIMIT (or, the run's size known, before its first unit: its records would pass
        it): keep no more records (the tally goes on), and say ``why`` ("past N games they took")."""
        import warnings

        self.kept, self.keeps_records = [], False
        gib = self.limit / (1 << 30)
        self.extra["records"] = (f"not kept: {why} more than {gib:g} GiB "
                                 f"of memory; keep_records=True keeps them all, out=FILE writes them to disk")
        warnings.warn(f"the records are {self.extra['records']}", stacklevel=2)

    def take(self, rec) -> None:
        """A chunk's work: tallied, then written."""
        self.tally.add(rec)
        if self.writer:
            self.writer.write(rec, self.players)

    def flush(self) -> None:
        if self.background:
            self.background.wait()

    def close(self, run) -> None:
        if self.background:
            self.background.close()
        self.extra = {**self.extra, **self.finish(run)}
        if self.writer:
            self.writer.close(self.extra)

    def discard(self) -> None:
        if self.background:
            self.background.settle()     # the writer is not touched while the thread writes
        if self.writer:
            self.writer.discard()

    def note(self) -> str:
        return file_note(self.out, self.writer.existed) if self.writer else ""

    def records(self):
        if self.array is not None:
            return self.array
        return join_records(self.kept, self.game.record_dtype) if self.keeps_records else None


def run(config: RunConfig, threads: int | None = None, chunk_size: int = DEFAULT_CHUNK, progress: bool = False,
        keep_records: bool = False, out=None, precision: tuple[float, int] | None = None,
        extra: dict | None = None, backend=None, run_dir=None) -> SimulationResult:
    """Play one configuration through the pipeline: ``config.deals`` units (with ``precision``,
    ``(target, cap)``, the first batch of a precision run); ``extra`` joins the metadata."""
    meta = config.metadata()
    target, cap = precision if precision is not None else (None, config.deals)
    stop = stop_rule(target, cap, lambda: share_half_width(sink.tally, config.game))

    def finish(run) -> dict:
        done = {"deals": run.units, "threads": run.threads, "seconds": run.seconds,
                "simulation_seconds": run.simulation_seconds}
        if precision is not None:
            done.update(stop=run.stop, stopped=stop_text(run.stop, config.game.unit), batches=stop.batches,
                        precision={"target": precision[0], "applies_to": SHARES, "stopping": STOP_RULE,
                                   "max_deals": precision[1], "bias": PRECISION_BIAS})
        return {**done, **(extra or {})}

    sink = TallySink(config, meta, keep_records, out, finish, size=None if precision is not None else config.deals)
    plan = Plan.of([config], chunk_size=chunk_size, label=f"{config.game.name} x{config.players}")
    run_ = execute(plan, sink, stop, threads=threads, progress=progress, backend=backend, run_dir=run_dir)
    meta.update(sink.extra)
    return SimulationResult(meta, config.game, sink.tally, run_.seconds, sink.records(), run_.simulation_seconds)


def share_half_width(tally, game) -> float:
    """The widest Chow-Robbins half-width (intervals.stop_half_width) among the shares simulate's tables
    report, per seat, policy and team; NaN before two completed units."""
    names = ["win"] + [c.name for c in game.columns if c.per == "seat" and c.kind == "rate"]
    if bool(tally.is_binary("seat", "score").all()):
        names.append("score")
    widest = 0.0
    for part in tally.groups:
        for q in names:
            _, sd = tally.mean_and_sd(part, q)
            for v in sd:
                half = stop_half_width(float(v) ** 2, tally.completed)
                if not math.isfinite(half):
                    return float("nan")
                widest = max(widest, half)
    return widest
