"""64-bit card sets: a hand as one uint64, bit c set when it holds card c.

Games whose cards fit in 64 ids keep hands and tricks as masks: the legal
cards are one AND, the lowest card one instruction. ``lowest_nb``,
``highest_nb`` and ``count_nb`` compile to single CPU instructions and fall
back to plain Python when numba's JIT is off (the kit compares the two).
Masks are always ``np.uint64``: numba and numpy turn uint64 mixed with int64
into float64, so shift and combine through ``BIT`` rather than ``1 << c``.
"""
import numpy as np
from numba import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import overload

from analyser.kernels.jit import inline_kernel
from analyser.kernels.records import view_nb

BIT = np.array([1 << c for c in range(64)], np.uint64)
NONE = np.uint64(0)


def lowest_nb(mask):
    """The lowest card of a non-empty mask."""
    mask = int(mask)
    return (mask & -mask).bit_length() - 1


def highest_nb(mask):
    """The highest card of a non-empty mask."""
    return int(mask).bit_length() - 1


def count_nb(mask):
    """How many cards the mask holds."""
    return bin(int(mask)).count("1")


@overload(lowest_nb)
def _lowest(mask):
    if isinstance(mask, types.Integer):
        return lambda mask: np.int64(trailing_zeros(np.uint64(mask)))


@overload(highest_nb)
def _highest(mask):
    if isinstance(mask, types.Integer):
        return lambda mask: np.int64(63 - leading_zeros(np.uint64(mask)))


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@overload(count_nb)
def _count(mask):
    if isinstance(mask, types.Integer):
        def impl(mask):
            x = np.uint64(mask)
            x = x - ((x >> np.uint64(1)) & _M1)
            x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
            x = (x + (x >> np.uint64(4))) & _M4
            return np.int64((x * _H01) >> np.uint64(56))
        return impl


# SPREAD[b]: the eight bits of b as eight bytes 0/1, for writing a mask into a bool array.
SPREAD = np.array([sum(1 << (8 * i) for i in range(8) if b >> i & 1) for b in range(256)], np.uint64)
_BYTE = np.uint64(255)


@inline_kernel
def mark_nb(legal, mask, words):
    """The first ``8 * words`` entries of the bool array ``legal`` from a mask, bit i
    to entry i, eight bytes at a store: a loop over the set bits mispredicts its exit.
    Pass ``words`` as a constant: the loop is then unrolled (8 branches fewer a call)."""
    view = view_nb(legal, np.uint64)
    for k in range(words):
        view[k] = SPREAD[(np.uint64(mask) >> np.uint64(8 * k)) & _BYTE]
