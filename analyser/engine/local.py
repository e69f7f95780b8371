"""Playing chunks in this process: the compiled engine of a configuration (ChunkRunner) and the
local executor (LocalExecutor), numba's threads inside each chunk. LocalExecutor is a
pipeline.Executor, as the Dask executor (analyser.engine.dask_backend) and the run directory's
(analyser.engine.run_dir) are."""
from __future__ import annotations

import copy

import numpy as np

from analyser.engine.config import RunConfig
from analyser.errors import UserError
from analyser.games.common import quiet_first_class
from analyser.kernels.search_row import ROW


class ChunkRunner:
    """Plays chunks of one configuration; its compiled policies and parameters are prepared once.
    :meth:`for_config` reuses the compiled engine for another configuration with the same
    policy functions (another seed, parameter row or stream ids)."""

    def __init__(self, config: RunConfig):
        self._load(config)
        self.run(config.first_deal, 0)   # compile or load from cache now, outside any timing

    def for_config(self, config: RunConfig) -> ChunkRunner:
        other = copy.copy(self)
        other._load(config)
        return other

    def _load(self, config: RunConfig) -> None:
        self.config = config
        seats = config.game.max_seats
        fns = tuple(seat.spec.function for seat in config.seats)
        self.fns = fns + (fns[0],) * (seats - len(fns))
        self.settings = config.game.settings_row(config.settings)
        rows = [seat.engine_row(config.game, self.settings, config.players) for seat in config.seats]
        self.params = np.zeros((seats, max(ROW, *(len(r) for r in rows))))
        for s, row in enumerate(rows):
            self.params[s, :len(row)] = row
        self.streams = np.zeros(seats, np.int64)
        self.streams[: config.players] = config.streams

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
        with quiet_first_class():
            try:
                with numba.parallel_chunksize(1):    # blocks handed out one at a time, not halves up front:
                    cfg.game.simulate(cfg.seed, start, cfg.players, self.settings, self.fns, self.params,
                                      self.streams, out)   # a thread the VM slows does not hold the other up
            except SystemError as err:
                if err.__cause__ is None:
                    raise
                raise UserError(policy_raised(cfg, err.__cause__)) from None
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


def policy_raised(config: RunConfig, err: BaseException) -> str:
    """The line for an exception raised inside a compiled policy (numba hands it on as a SystemError
    whose cause it is, not saying which function raised): the user's policies of the line-up are named,
    as the built-in ones do not raise."""
    own = list(dict.fromkeys(seat.label() for seat in config.seats if not isinstance(seat.spec.fn, str)))
    own = own or list(dict.fromkeys(seat.label() for seat in config.seats))
    who = f"policy '{own[0]}'" if len(own) == 1 else f"one of the policies {', '.join(map(repr, own))}"
    return f"{who} raised {type(err).__name__}: {' '.join(str(err).split()) or 'no message'}"


class LocalExecutor:
    """Plays chunks in this process, with numba's threads inside each chunk. One compiled
    engine (ChunkRunner) serves every configuration with the same game, players, rules and
    policy functions, in this plan and in later plans given the same executor; the others
    reuse it with their own seed, parameters and stream ids."""

    def __init__(self):
        self.engines: dict[tuple, ChunkRunner] = {}
        self.runners: list[list[ChunkRunner]] = []
        self.buffers: dict | None = None
        self.spare = 0
        self.turn = 0

    def runner(self, config: RunConfig) -> ChunkRunner:
        key = (config.game.name, config.game.unit, config.players, tuple(sorted(config.settings.items())),
               tuple(seat.spec.function for seat in config.seats))
        if key not in self.engines:
            self.engines[key] = ChunkRunner(config)     # compiles or loads from cache
            return self.engines[key]
        return self.engines[key].for_config(config)

    def prepare(self, plan, reuse_buffers: bool = False, held: int = 0) -> None:
        """Ready every configuration of ``plan`` (compiling what is not yet); with ``reuse_buffers``
        one record buffer per configuration serves every chunk (the sink keeps no records), or
        ``held + 1`` of them in turn for a sink that may still read ``held`` chunks while the
        next one plays (Sink.holds)."""
        self.runners = [[self.runner(config) for config in group] for group in plan.groups]
        self.buffers = {} if reuse_buffers else None
        self.spare, self.turn = held, 0

    def results(self, chunks):
        """Each chunk with its records, in the order given (pipeline.Executor: ``chunks`` is
        an iterator, maybe a very long one; a cluster's executor has several in flight and
        still yields them in order)."""
        for chunk in chunks:
            yield chunk, self.play(chunk)

    def close(self) -> None:
        pass

    def note(self) -> str:
        """What the Ctrl-C message says of the chunks played (a run directory keeps them)."""
        return ""

    def play(self, chunk) -> list[np.ndarray]:
        out = []
        turn, self.turn = self.turn % (self.spare + 1), self.turn + 1
        for i, runner in enumerate(self.runners[chunk.group]):
            buffer = None
            if self.buffers is not None:
                key = (chunk.group, i, turn)
                buffer = self.buffers.get(key)
                if buffer is None or buffer.size < chunk.count:
                    buffer = self.buffers[key] = np.zeros(chunk.count, runner.config.game.record_dtype)
            out.append(runner.run(chunk.start, chunk.count, buffer))
        return out
