"""The byte-level kernels of analyser.kernels.records mean, compiled, what their numpy meaning says:
``view_nb`` is ``array.view(dtype)`` (the same memory), ``copy_bytes_nb`` copies a record's bytes into a
uint8 row, ``zero_nb`` empties an array. Compiled here in kernels without NRT, as the games call them."""
import numpy as np
from numba import njit

from analyser.games.palace.state import PUBLIC_DTYPE
from analyser.kernels.records import copy_bytes_nb, view_nb, zero_nb


@njit(_nrt=False)
def _words_set(legal, k, value):
    view_nb(legal, np.uint64)[k] = value


@njit(_nrt=False)
def _sum_bytes(row, start):
    out = 0
    b = view_nb(row[start:], np.uint8)
    for i in range(b.size):
        out += b[i] * (i + 1)
    return out, b.size


@njit(_nrt=False)
def _copy(dst, src):
    copy_bytes_nb(dst, src)


@njit(_nrt=False)
def _words_of_record(pub, k):
    return view_nb(pub, np.uint32)[k], view_nb(pub, np.uint32).size


@njit(_nrt=False)
def _zero(array):
    zero_nb(array)


def test_a_view_writes_through_to_the_array_it_views():
    legal = np.zeros(24, np.bool_)
    _words_set(legal, 1, np.uint64(0x0100000000000001))
    expect = np.zeros(24, np.bool_)
    expect.view(np.uint64)[1] = 0x0100000000000001
    assert np.array_equal(legal, expect) and legal[8] and legal[15] and legal.sum() == 2


def test_a_view_of_a_slice_has_the_slice_s_bytes_in_numpy_s_order():
    row = np.arange(6, dtype=np.float64) * 1.5 - 2.0
    for start in (0, 2, 5):
        total, size = _sum_bytes(row, start)
        b = row[start:].view(np.uint8)
        assert size == b.size and total == int((b.astype(np.int64) * np.arange(1, b.size + 1)).sum())


def test_a_view_of_a_record_reads_its_words():
    pub = np.zeros(1, PUBLIC_DTYPE)
    raw = np.random.default_rng(1).integers(0, 256, PUBLIC_DTYPE.itemsize, dtype=np.uint8)
    pub.view(np.uint8)[:] = raw
    words = pub.view(np.uint32)
    for k in (0, 1, words.size - 1):
        assert _words_of_record(pub, k) == (words[k], words.size)


def test_copy_bytes_copies_a_record_as_numpy_would_and_nothing_past_it():
    pub = np.zeros(1, PUBLIC_DTYPE)
    pub.view(np.uint8)[:] = np.random.default_rng(2).integers(0, 256, PUBLIC_DTYPE.itemsize, dtype=np.uint8)
    rows = np.full((3, PUBLIC_DTYPE.itemsize), 7, np.uint8)
    _copy(rows[1], pub)
    assert np.array_equal(rows[1], pub.view(np.uint8))
    assert (rows[0] == 7).all() and (rows[2] == 7).all()


def test_zero_empties_every_byte():
    pub = np.ones(2, PUBLIC_DTYPE)
    pub.view(np.uint8)[:] = 255
    _zero(pub)
    assert not pub.view(np.uint8).any()
