"""The njit flavours for compiled game code, cached where analyser.kernels.cache says.

``kernel``: kernels only read and write arrays they are handed (state records,
masks, the log) and never allocate, so they are compiled without numba's
reference counting (NRT): with it, every array passed between two kernels costs
an atomic incref/decref pair, which was most of a simulation's time. A kernel
that tries to allocate fails to compile, which is the intended guard. Allocate
in the caller (a game's ``_block_nb``, analyser.kernels.loops) and hand the buffers down.

``inline_kernel``: for the small kernels on the per-action path (and those that
take many arguments): numba passes an array as seven scalars, so a call can cost
more than the callee's work. Inlining every kernel instead was slower and took
six times as long to compile, so this is used only where a benchmark showed a gain.

``FirstCall(make, like)``: an entry point compiled (or loaded from the cache) when first called
rather than when its module is imported, for a kernel only some commands run (replay imports a
game's playouts; only rollout plays worlds).

``jit(**options)``: ``njit(cache=True, **options)`` for a game outside the
package (a game checked with analyser.testing): its functions are cached under
the analyser's cache, keyed by these kernels, so an upgrade never runs stale code.
"""
import functools

from numba import njit

from analyser.kernels import cache

cache.install()  # before any kernel is decorated: numba picks a function's cache folder then


def jit(**options):
    """A decorator: ``njit(cache=True, **options)`` with the function's cache folder keyed by the kernels."""
    compile_ = njit(cache=True, **options)

    def decorate(fn):
        cache.claim(fn)
        return compile_(fn)

    return decorate


kernel = jit(_nrt=False)
inline_kernel = jit(_nrt=False, inline="always")


class FirstCall:
    """What ``make()`` returns (a compiled entry point), made on the first call or ``compiled()``."""

    def __init__(self, make, like):
        self._make, self._compiled = make, None
        functools.update_wrapper(self, like)

    def compiled(self):
        if self._compiled is None:
            self._compiled = self._make()
        return self._compiled

    def __call__(self, *args):
        return self.compiled()(*args)

