"""Chunks played on a Dask cluster: the executor of ``backend="dask"``, a scheduler address or a Client.

:class:`DaskExecutor` plays a plan's chunks as Dask tasks, one a chunk, and yields them in the
order given, as LocalExecutor does (both are analyser.engine.pipeline.Executor). Its
records are the local run's byte for byte: a chunk's records depend on its configuration,
first unit and count alone, and they travel back as raw bytes viewed with the caller's dtype.

- **Where.** ``"dask"`` starts a ``distributed.LocalCluster`` on this machine, one worker
  process a core with one thread each, kept for the rest of the process (a report's many
  plans share it) and closed at exit; ``"tcp://host:port"`` connects to that scheduler (the
  client kept too); a ``Client`` given is used and never closed.
- **Threads.** One numba thread a worker process: the workers' parallelism is the processes.
  A cluster started here has ``NUMBA_NUM_THREADS=1`` in its workers' environment, set through
  the nanny's pre-spawn environment (``distributed.nanny.pre-spawn-environ``; Dask sets the
  BLAS thread counts there, not numba's); every task also calls ``numba.set_num_threads(1)``,
  which is all a remote cluster gets (it is per thread, so it is set in the task's thread).
- **What travels.** Each configuration as a small description (a built-in game by name, its
  unit, the seats' policies, seed, rules, streams), rebuilt into a RunConfig on the worker;
  a game not in the registry travels whole. The descriptions of a group are pickled once
  (cloudpickle: a policy written in a notebook, an ``@numba.njit`` function of ``__main__``,
  travels by value) and each task carries those bytes; a worker unpickles them once and keeps
  the ChunkRunners in a module-level dict keyed by the configuration's identity, so it
  compiles once per process.
- **Compiling.** numba's cache is not safe to fill from many processes at once, so
  :meth:`DaskExecutor.prepare` readies every configuration of the plan on one worker first
  (it compiles, or loads from the cache), then on all the others (they load what it wrote:
  the workers of one machine share analyser's cache folder, ``ANALYSER_CACHE_DIR``); on a
  cluster of several machines, on one worker of each machine first.
- **Tasks.** Keyed ``analyser-chunk-<chunk_key>`` (engine.config.chunk_key): a task retried or
  run twice gives the same records. A window of tasks is kept in flight (two a worker thread,
  and two more) so no worker waits; closing ``results`` early (an error, Ctrl-C) cancels the
  tasks still outstanding. An error in a task (a policy's illegal action) is raised here as the
  same error.
"""
from __future__ import annotations

import atexit
import os
import threading
import uuid
from collections import deque
from concurrent.futures import CancelledError

import numpy as np

from analyser.engine.config import RunConfig, chunk_key
from analyser.errors import UserError

WORKER_ENV = {"NUMBA_NUM_THREADS": "1"}
PRE_SPAWN = "distributed.nanny.pre-spawn-environ"
CONNECT_TIMEOUT = "30s"
MOVE_POLICY = ("put the policy in a module on the workers' path (or installed there) and import it from that "
               "module")

_shared: dict = {}          # "dask" -> the LocalCluster's Client; an address -> its Client (closed at exit)
_shared_lock = threading.Lock()


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:       # not Linux
        return os.cpu_count() or 1


def local_client():
    """The Client of this process's LocalCluster, started on first use: a worker process a core,
    one thread each, with WORKER_ENV (and analyser's cache folder) in the workers' environment."""
    import dask
    from distributed import Client, LocalCluster

    from analyser.kernels.paths import CACHE_DIR

    env = {**WORKER_ENV, "ANALYSER_CACHE_DIR": CACHE_DIR}
    before = {name: os.environ.get(name) for name in env}
    try:
        with dask.config.set({f"{PRE_SPAWN}.{name}": value for name, value in env.items()}):
            cluster = LocalCluster(n_workers=cpu_count(), threads_per_worker=1, processes=True)
    finally:
        restore_environ(before)
    client = Client(cluster)
    client.analyser_cluster = cluster
    client.analyser_environ = before
    return client


def restore_environ(before: dict) -> None:
    """Undo what a nanny's pre-spawn environment set in this process (it sets it here to spawn the
    worker): numba re-reads NUMBA_NUM_THREADS when it compiles, and would refuse or follow it."""
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def shared_client(backend: str):
    """The Client kept for ``backend`` ("dask" or a scheduler address) for the rest of the process."""
    with _shared_lock:
        client = _shared.get(backend)
        if client is not None and client.status not in ("running", "connecting"):
            client = None
        if client is None:
            if not _shared:
                atexit.register(close_shared)
            if backend == "dask":
                client = local_client()
            else:
                from distributed import Client

                try:
                    client = Client(backend, timeout=CONNECT_TIMEOUT)
                except (OSError, TimeoutError) as err:
                    raise UserError(f"cannot reach the Dask scheduler at {backend}: {err}") from None
            _shared[backend] = client
        return client


def close_shared() -> None:
    """Close the clients kept (and the LocalCluster started): at exit."""
    while _shared:
        _, client = _shared.popitem()
        cluster = getattr(client, "analyser_cluster", None)
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        except Exception:       # closing at exit: nothing left to tell
            pass


# -- what travels: configurations as descriptions -------------------------------------------------

def describe(config: RunConfig) -> dict:
    """What rebuilds ``config`` on a worker (:func:`rebuild`): a built-in game by its name and unit
    (a game registered in this process only travels whole)."""
    from analyser.games.registry import GAME_MODULES, get_game

    game = config.game
    by_name = game.name in GAME_MODULES and get_game(game.name).for_unit(game.unit) == game
    return {"game": game.name if by_name else game, "unit": game.unit, "players": config.players,
            "seats": config.seats, "deals": config.deals, "seed": config.seed, "settings": dict(config.settings),
            "first_deal": config.first_deal, "streams": tuple(config.streams)}


def rebuild(desc: dict) -> RunConfig:
    from analyser.games.registry import get_game

    game = desc["game"]
    spec = get_game(game).for_unit(desc["unit"]) if isinstance(game, str) else game
    return RunConfig(spec, desc["players"], tuple(desc["seats"]), desc["deals"], desc["seed"], desc["settings"],
                     desc["first_deal"], desc["streams"])


def config_digest(configs) -> str:
    """The digest part of chunk_key: the same for every chunk of these configurations."""
    return chunk_key(configs, 0, 0).removesuffix("-0-0")


def pack(group) -> tuple[tuple[str, ...], bytes]:
    """A group's payload: the digest of each configuration and their descriptions, pickled once."""
    import cloudpickle

    descriptions = [describe(c) for c in group]
    try:
        blob = cloudpickle.dumps(descriptions)
    except Exception as err:
        raise UserError(f"{unsendable(group, err)}: {MOVE_POLICY}") from None
    return tuple(config_digest([c]) for c in group), blob


def unsendable(group, err) -> str:
    """Which policy could not be pickled, in words."""
    import cloudpickle

    for config in group:
        for seat in config.seats:
            try:
                cloudpickle.dumps(seat)
            except Exception:
                return f"policy '{seat.label()}' cannot be sent to the Dask workers ({type(err).__name__}: {err})"
    return f"the run cannot be sent to the Dask workers ({type(err).__name__}: {err})"


# -- on the workers ---------------------------------------------------------------------------------

_runners: dict = {}        # configuration digest -> its ChunkRunner, in this worker process
_engines = None            # a LocalExecutor: its compiled engines, shared by configurations alike


def worker_runners(payload) -> list:
    """The ChunkRunner of every configuration of a payload, built (compiled) on first use."""
    global _engines
    import numba

    numba.set_num_threads(1)          # per thread: the task's thread
    digests, blob = payload
    missing = [d for d in digests if d not in _runners]
    if missing:
        import cloudpickle

        from analyser.engine.local import LocalExecutor

        try:
            descriptions = cloudpickle.loads(blob)
        except (ImportError, AttributeError) as err:
            raise UserError(f"a policy cannot be loaded on Dask worker {worker_name()} "
                            f"({type(err).__name__}: {err}): {MOVE_POLICY}") from None
        if _engines is None:
            _engines = LocalExecutor()
        for digest, desc in zip(digests, descriptions, strict=True):
            if digest not in _runners:
                _runners[digest] = _engines.runner(rebuild(desc))
    return [_runners[d] for d in digests]


def worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except ValueError:
        return "?"


def warm(payloads) -> int:
    """A task readying every configuration of a plan (compiled, or loaded from the cache)."""
    for payload in payloads:
        worker_runners(payload)
    return len(_runners)


def play_chunk(payload, start: int, count: int) -> list[np.ndarray]:
    """A chunk's task: the records of every configuration of the payload, as raw bytes."""
    return [np.ascontiguousarray(runner.run(start, count)).view(np.uint8) for runner in worker_runners(payload)]


# -- in the caller ----------------------------------------------------------------------------------

class DaskExecutor:
    """Plays chunks as Dask tasks (see the module docstring); a pipeline.Executor."""

    def __init__(self, backend="dask", progress: bool = False):
        self.progress = progress
        from distributed import Client

        self.client = backend if isinstance(backend, Client) else shared_client(backend)
        self.groups: tuple = ()
        self.payloads: list = []
        self.digests: list[str] = []

    def prepare(self, plan, reuse_buffers: bool = False, held: int = 0) -> None:
        """Ready every configuration of ``plan`` on every worker: on one a machine first (it fills
        that machine's compile cache), then on the others (they load from it). Buffers are not reused: every
        chunk's records arrive in arrays of their own."""
        from distributed.comm import get_address_host

        self.groups = plan.groups
        self.payloads = [pack(group) for group in plan.groups]
        self.digests = [config_digest(group) for group in plan.groups]
        try:
            self.client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except (TimeoutError, OSError):
            raise UserError(f"the Dask cluster has no workers (waited {CONNECT_TIMEOUT})") from None
        first: dict = {}          # a worker of each machine: each machine has a compile cache of its own
        for worker in self.client.nthreads():
            first.setdefault(get_address_host(worker), worker)
        others = [w for w in self.client.nthreads() if w not in first.values()]
        tag = uuid.uuid4().hex[:12]
        try:
            for workers in (list(first.values()), others):
                # a worker that leaves meanwhile: its warm-up runs elsewhere (from the filled cache)
                futures = [self.client.submit(warm, self.payloads, key=f"analyser-warm-{tag}-{w}", workers=[w],
                                              allow_other_workers=True) for w in workers]
                self.client.gather(futures)
        finally:
            before = getattr(self.client, "analyser_environ", None)
            if before is not None:
                restore_environ(before)   # a nanny that restarted its worker set it here again

    def results(self, chunks):
        """Each chunk with its records, in the order given (``chunks`` is an iterator, read only as
        far as the window of tasks in flight); closed early, the tasks still outstanding are cancelled."""
        window = 2 * max(sum(self.client.nthreads().values()), 1) + 2
        pending: deque = deque()
        upcoming = iter(chunks)
        try:
            for chunk in upcoming:
                pending.append((chunk, self.submit(chunk)))
                if len(pending) >= window:
                    break
            while pending:
                chunk, future = pending.popleft()
                raw = self.result(chunk, future)
                del future
                nxt = next(upcoming, None)
                if nxt is not None:
                    pending.append((nxt, self.submit(nxt)))
                yield chunk, self.records(chunk, raw)
        finally:
            if pending:
                self.client.cancel([future for _, future in pending])

    def submit(self, chunk):
        key = f"analyser-chunk-{self.digests[chunk.group]}-{chunk.start}-{chunk.count}"
        return self.client.submit(play_chunk, self.payloads[chunk.group], chunk.start, chunk.count, key=key,
                                  pure=True)

    def result(self, chunk, future):
        """A task's raw records; a task cancelled by someone else (a key released and submitted
        again at once) is submitted once more."""
        try:
            return future.result()
        except CancelledError:
            return self.submit(chunk).result()

    def records(self, chunk, raw) -> list[np.ndarray]:
        """Raw bytes as records of each configuration's dtype, in arrays of their own (aligned, writable)."""
        out = []
        for config, data in zip(self.groups[chunk.group], raw, strict=True):
            rec = np.zeros(chunk.count, config.game.record_dtype)
            rec.view(np.uint8)[:] = data
            out.append(rec)
        return out

    def close(self) -> None:
        """Nothing to close: the cluster and its client are kept for the process (or are the caller's)."""

    def note(self) -> str:
        return ""
