"""The njit flavour for game kernels.

Kernels only read and write arrays they are handed (state records, masks, the
log) and never allocate, so they are compiled without numba's reference
counting (NRT): with it, every array passed between two kernels costs an
atomic incref/decref pair, which was most of a simulation's time. A kernel that
tries to allocate fails to compile, which is the intended guard. Allocate in the
caller (``engine._block_nb``) and hand the buffers down.
"""
from numba import njit

kernel = njit(cache=True, _nrt=False)

# For the few kernels on the per-action path that take many arguments: numba
# passes an array as seven scalars, so a call with a handful of arrays spends
# more time pushing arguments than the callee spends working.
inline_kernel = njit(cache=True, _nrt=False, inline="always")
