"""Where a plan's chunks are played: here (numba's threads) or on a Dask cluster, and whether
each finished chunk is kept in a run directory to resume from.

Every command that plays units takes the same two choices (``backend``, ``run_dir``) and
hands them to pipeline.execute, which asks :func:`make_executor` for the executor. The
backends are the names of :data:`EXECUTORS`, each with the factory of its executor
(pipeline.Executor); a scheduler address or a ``dask.distributed.Client`` is served by "dask".
"""
from __future__ import annotations

from collections.abc import Callable

from analyser.errors import UserError

SCHEMES = ("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")
INSTALL_DASK = "pip install 'analyser[distributed]'"


def local_executor(backend, progress: bool):
    """Chunks played in this process (analyser.engine.local)."""
    from analyser.engine.local import LocalExecutor

    return LocalExecutor()


def dask_executor(backend, progress: bool):
    """Chunks played as tasks on a Dask cluster: one started here ("dask"), at a scheduler address
    or behind a Client (analyser.engine.dask_backend)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UserError(f"the dask backend needs Dask distributed, which is not installed: "
                        f"{INSTALL_DASK}") from None
    from analyser.engine.dask_backend import DaskExecutor

    return DaskExecutor(backend, progress=progress)


# A backend's name -> the factory of its executor: factory(backend as given, progress) -> pipeline.Executor.
EXECUTORS: dict[str, Callable] = {"local": local_executor, "dask": dask_executor}


def executor_name(backend) -> str:
    """The name in EXECUTORS serving ``backend`` (see :func:`check_backend`)."""
    if backend is None:
        return "local"
    if is_client(backend) or isinstance(backend, str) and backend.startswith(SCHEMES):
        return "dask"
    if isinstance(backend, str) and backend in EXECUTORS:
        return backend
    raise UserError(f"unknown backend {backend!r}; choose from: {', '.join(EXECUTORS)}, a Dask scheduler address "
                    f"(tcp://HOST:PORT) or a dask.distributed.Client")


def check_backend(backend):
    """``backend`` as given if it is one: None or a name of EXECUTORS ("local", "dask": a cluster
    on this machine), a scheduler address ("tcp://host:8786"), or a ``dask.distributed.Client``."""
    executor_name(backend)
    return backend


def is_client(value) -> bool:
    return type(value).__name__ == "Client" and type(value).__module__.startswith("distributed")


def make_executor(backend=None, run_dir=None, progress: bool = False):
    """The executor for ``backend`` (see :func:`check_backend`), keeping its chunks in ``run_dir``
    when one is given (analyser.engine.run_dir)."""
    executor = EXECUTORS[executor_name(backend)](backend, progress)
    if run_dir is None:
        return executor
    from analyser.engine.run_dir import StoredExecutor, open_run_dir

    try:
        return StoredExecutor(executor, open_run_dir(run_dir))
    except BaseException:
        executor.close()
        raise
