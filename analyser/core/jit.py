"""The njit flavour for game kernels.

Kernels only read and write arrays they are handed (state records, masks, the
log) and never allocate, so they are compiled without numba's reference
counting (NRT): with it, every array passed between two kernels costs an
atomic incref/decref pair, which was most of a simulation's time. A kernel that
tries to allocate fails to compile, which is the intended guard. Allocate in the
caller (``engine._block_nb``) and hand the buffers down.
"""
from numba import njit

from analyser.core import cache

cache.install()  # before any kernel is decorated: numba picks a function's cache folder then

kernel = njit(cache=True, _nrt=False)

# For the small kernels on the per-action path (and those that take many
# arguments): numba passes an array as seven scalars, so a call can cost more
# than the callee's work. Inlining every kernel instead was slower and took six
# times as long to compile, so this is used only where a benchmark showed a gain.
inline_kernel = njit(cache=True, _nrt=False, inline="always")
