"""Work done beside the simulation: a sink's tally and file, a run directory's parts."""
from __future__ import annotations


class Background:
    """One thread doing a sink's work on a chunk while the executor plays the next one: the
    games' engines release the GIL, so a tally and a results file are made beside the
    simulation instead of after it. At most one piece of work is in flight (so the executor's
    double buffer suffices, see LocalExecutor.prepare) and pieces run in the order given.
    An error in the thread is raised in the caller's thread by the next submit, wait or close:
    the same error the work would have raised there, one chunk later."""

    def __init__(self):
        self._pool = None
        self._pending = None

    def submit(self, work, *args) -> None:
        """Wait for the piece in flight (raising its error here), then start ``work(*args)``."""
        self.wait()
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(1, thread_name_prefix="analyser-sink")
        self._pending = self._pool.submit(work, *args)

    def wait(self) -> None:
        """Wait for the piece in flight; its error is raised here. Ctrl-C while waiting leaves
        it in flight (settle then waits for it)."""
        pending = self._pending
        if pending is not None:
            try:
                pending.result()
            finally:
                if pending.done():
                    self._pending = None

    def close(self) -> None:
        """Wait for the piece in flight (raising its error) and end the thread."""
        try:
            self.wait()
        finally:
            self.settle()

    def settle(self) -> None:
        """For a run that stops early: wait until the piece in flight is over whatever it raises
        (the run's own error or Ctrl-C is the one reported) and however often Ctrl-C comes
        meanwhile, so the caller may then drop what it was writing; end the thread."""
        pool, self._pool = self._pool, None
        while pool is not None:
            try:
                pool.shutdown(wait=True)     # waits for every piece handed over, whether or not recorded
                break
            except KeyboardInterrupt:
                continue
        self._pending = None
