"""Where a plan's chunks are played: here (numba's threads) or on a Dask cluster, and whether
each finished chunk is kept in a run directory to resume from.

Every command that plays units takes the same two choices (``backend``, ``run_dir``) and
hands them to pipeline.execute, which asks :func:`make_executor` for the executor.
"""
from __future__ import annotations

from analyser.errors import UserError

BACKENDS = ("local", "dask")
SCHEMES = ("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")
INSTALL_DASK = "pip install 'analyser[distributed]'"


def check_backend(backend):
    """``backend`` as given if it is one: None or "local", "dask" (a cluster on this machine), a
    scheduler address ("tcp://host:8786"), or a ``dask.distributed.Client``."""
    if backend is None or is_client(backend):
        return backend
    if isinstance(backend, str) and (backend in BACKENDS or backend.startswith(SCHEMES)):
        return backend
    raise UserError(f"unknown backend {backend!r}; choose from: local, dask, a Dask scheduler address "
                    f"(tcp://HOST:PORT) or a dask.distributed.Client")


def is_client(value) -> bool:
    return type(value).__name__ == "Client" and type(value).__module__.startswith("distributed")


def make_executor(backend=None, run_dir=None, progress: bool = False):
    """The executor for ``backend`` (see :func:`check_backend`), keeping its chunks in ``run_dir``
    when one is given (analyser.engine.run_dir)."""
    backend = check_backend(backend)
    if backend is None or backend == "local":
        from analyser.engine.local import LocalExecutor

        executor = LocalExecutor()
    else:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise UserError(f"the dask backend needs Dask distributed, which is not installed: "
                            f"{INSTALL_DASK}") from None
        from analyser.engine.dask_backend import DaskExecutor

        executor = DaskExecutor(backend, progress=progress)
    if run_dir is None:
        return executor
    from analyser.engine.run_dir import StoredExecutor, open_run_dir

    try:
        return StoredExecutor(executor, open_run_dir(run_dir))
    except BaseException:
        executor.close()
        raise
