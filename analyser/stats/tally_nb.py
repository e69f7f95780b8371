"""The compiled half of :meth:`analyser.stats.tally.Tally.add`: one pass over a chunk's records.

``tally_chunk_nb`` reads the record bytes (through typed views of one buffer, so one
compiled function serves every game's record dtype: a quantity is a value code, a
byte offset and a byte stride between seats) and returns what ``Tally.add`` adds,
which applies it. It adds nothing itself, so a record it cannot read (a dtype it does
not know, a misaligned field) leaves the tally to numpy's path, and the two agree bit
for bit: every float sum is taken in numpy's own order.

- ``values.sum(axis=1)`` (and ``v.sum()``) over a contiguous row is numpy's pairwise
  sum: ``0.0 +`` a tree whose leaves are runs of at most 128 values (summed with 8
  accumulators, a run under 8 one by one), a run over 128 split at half rounded down
  to a multiple of 8. The leaves are filled here record by record, so the rows the
  sums run over never exist whole (``_leaf_sizes``, ``_leaf_sum``, ``_combine``).
- ``np.einsum("ij,ij->i", v, v)`` is numpy's x86-64 baseline kernel
  (``sum_of_products_contig_contig_outstride0_two``, two SSE lanes, multiply then add):
  lane l takes elements l, l + 2, ...; per block of eight, the four products of a lane
  are added last first; the tail pair by pair; then ``0.0 + (lane0 + lane1)``.
- The aborted records' values, ``values[:, cut]``, are Fortran-ordered (fancy indexing),
  so numpy sums them one record after the other, but for a partition of one group (a
  single row, both orders at once), where it is pairwise again.
- A group's value in a record (the mean of its seats) is numpy's
  ``by_seat[list(g)].mean(axis=0)``: the seats summed in order, divided by their count.

So the tally is numpy's to the last bit, as ``simulate --format json`` shows. That rests
on numpy's implementation (checked for numpy 2.4 on x86-64): tests/stats/test_tally_nb.py
checks the sums against numpy's own (a numpy built for another baseline, with fused
multiply-adds in einsum say, fails it there first) and the whole tally against numpy's
path on every game's records.

The cache: this file's functions are cached under ``numba/<kernels>/stats``
(analyser.kernels.cache), whose key covers analyser/kernels/; numba's own stamp covers
this file. So they may call only functions of this file and of analyser/kernels/.
"""
from __future__ import annotations

import numpy as np

from analyser.kernels.jit import jit

# How a quantity is read: a row of a float64 matrix computed beforehand (a Column with a
# value function), or a record field of one of these types (VIEWS: the buffer's views).
PRE, F8, F4, I8, I4, I2, I1, U4, U2, U1 = range(10)
SKIP = -1           # a unit quantity left to numpy
VIEWS = (np.float64, np.float32, np.int64, np.int32, np.int16, np.int8, np.uint32, np.uint16, np.uint8)
CODES = {np.dtype(t): code for code, t in enumerate(VIEWS, start=1)}
CODES[np.dtype(np.bool_)] = U1
LEAF = 128          # numpy's PW_BLOCKSIZE

# meta: what tally_chunk_nb is told of the records
N, ITEMSIZE, PLAYERS, ABORTED, DRAW, LENGTH, FIRST, WIN = range(8)      # FIRST: -1 without a 'first' field
# the integer results
UNITS, COMPLETED, ABORTED_N, ABORTED_LENGTH, DRAWS, SHARED_WINS, FIRST_UNITS, FALLBACK = range(8)


@jit(nogil=True, inline="always")
def _whole(views, code, pos):
    """The value at byte ``pos`` of the buffer as int64 (an integer or bool field)."""
    if code == I8:
        return views[2][pos >> 3]
    if code == I4:
        return np.int64(views[3][pos >> 2])
    if code == I2:
        return np.int64(views[4][pos >> 1])
    if code == I1:
        return np.int64(views[5][pos])
    if code == U4:
        return np.int64(views[6][pos >> 2])
    if code == U2:
        return np.int64(views[7][pos >> 1])
    return np.int64(views[8][pos])


@jit(nogil=True, inline="always")
def _wrapped(v, bits, signed):
    """``v`` in a ``bits``-bit integer (signed or not), as numpy's ``v * v`` keeps it in the field's dtype."""
    if bits >= 64:
        return v
    v &= (np.int64(1) << bits) - 1
    if signed and v >= (np.int64(1) << (bits - 1)):
        v -= np.int64(1) << bits
    return v


@jit(nogil=True)
def _leaf_sizes(n):
    """The lengths of the leaves of numpy's pairwise sum over n values, in order."""
    out = np.empty(n // 64 + 2, np.int64)
    stack = np.empty(130, np.int64)
    stack[0] = n
    top, k = 1, 0
    while top:
        top -= 1
        m = stack[top]
        if m <= LEAF:
            out[k] = m
            k += 1
        else:
            half = m // 2
            half -= half % 8
            stack[top] = m - half        # the right part waits below the left one
            stack[top + 1] = half
            top += 2
    return out[:k]


@jit(nogil=True, inline="always")
def _leaf_sum(a, row, m):
    """numpy's pairwise sum of a[row, :m] (m <= 128)."""
    if m < 8:
        res = -0.0
        for i in range(m):
            res += a[row, i]
        return res
    r0, r1, r2, r3 = a[row, 0], a[row, 1], a[row, 2], a[row, 3]
    r4, r5, r6, r7 = a[row, 4], a[row, 5], a[row, 6], a[row, 7]
    i = 8
    end = m - m % 8
    while i < end:
        r0 += a[row, i]
        r1 += a[row, i + 1]
        r2 += a[row, i + 2]
        r3 += a[row, i + 3]
        r4 += a[row, i + 4]
        r5 += a[row, i + 5]
        r6 += a[row, i + 6]
        r7 += a[row, i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < m:
        res += a[row, i]
        i += 1
    return res


@jit(nogil=True)
def _combine(sums, row, n):
    """numpy's pairwise sum over n values from its leaves' sums, sums[row, :]: the tree walked
    depth first without recursion (a cached recursive function does not load back)."""
    size = np.empty(130, np.int64)
    phase = np.empty(130, np.int64)
    value = np.empty(130)
    size[0], phase[0] = n, 0
    top, held, k = 1, 0, 0
    while top:
        m = size[top - 1]
        if m <= LEAF:
            value[held] = sums[row, k]
            held += 1
            k += 1
            top -= 1
            continue
        half = m // 2
        half -= half % 8
        if phase[top - 1] < 2:
            size[top] = half if phase[top - 1] == 0 else m - half
            phase[top - 1] += 1
            phase[top] = 0
            top += 1
        else:
            held -= 1
            value[held - 1] = value[held - 1] + value[held]
            top -= 1
    return value[0]


@jit(nogil=True, inline="always")
def _lanes(a, row, m, last, lanes, at):
    """Carry numpy's einsum lanes (lanes[at]) of a row over a[row, :m]; the tail only in the ``last`` leaf."""
    i = 0
    l0, l1 = lanes[at, 0], lanes[at, 1]
    while m - i >= 8:
        l0 = a[row, i + 6] * a[row, i + 6] + l0
        l1 = a[row, i + 7] * a[row, i + 7] + l1
        l0 = a[row, i + 4] * a[row, i + 4] + l0
        l1 = a[row, i + 5] * a[row, i + 5] + l1
        l0 = a[row, i + 2] * a[row, i + 2] + l0
        l1 = a[row, i + 3] * a[row, i + 3] + l1
        l0 = a[row, i] * a[row, i] + l0
        l1 = a[row, i + 1] * a[row, i + 1] + l1
        i += 8
    if last:
        while i < m:
            l0 = a[row, i] * a[row, i] + l0
            x = a[row, i + 1] if i + 1 < m else 0.0
            l1 = x * x + l1
            i += 2
    lanes[at, 0], lanes[at, 1] = l0, l1


@jit(nogil=True)
def row_sums(values, count):
    """numpy's ``row.sum()`` and einsum sum of squares of each row of values[:, :count] (contiguous rows)."""
    rows = values.shape[0]
    sums, squares = np.zeros(rows), np.zeros(rows)
    if count == 0:
        return sums, squares
    sizes = _leaf_sizes(count)
    leaves = np.empty((rows, sizes.size))
    lanes = np.zeros((rows, 2))
    block = np.empty((rows, LEAF))
    lo = 0
    for leaf in range(sizes.size):
        m = sizes[leaf]
        block[:, :m] = values[:, lo: lo + m]
        for r in range(rows):
            leaves[r, leaf] = _leaf_sum(block, r, m)
            _lanes(block, r, m, leaf == sizes.size - 1, lanes, r)
        lo += m
    for r in range(rows):
        sums[r] = 0.0 + _combine(leaves, r, count)
        squares[r] = 0.0 + (lanes[r, 0] + lanes[r, 1])
    return sums, squares


@jit(nogil=True)
def _fill(view, shift, idx, lo, m, itemsize, offset, stride, players, out):
    """out[s, j] = seat s's value (a field read through ``view``, whose items are 2**shift
    bytes) in record idx[lo + j], for j < m."""
    step = stride >> shift
    for j in range(m):
        at = (idx[lo + j] * itemsize + offset) >> shift
        for s in range(players):
            out[s, j] = view[at + s * step]


@jit(nogil=True)
def _group_rows(views, meta, src, pre, gptr, gseats, idx, count, seq):
    """Sums and einsum sums of squares, over the records idx[:count], of every quantity's group
    values (row q * groups + g): numpy's ``values.sum(axis=1)`` and einsum of the (groups, count)
    rows, pairwise, or for a group with ``seq[g]`` one record after the other (numpy's order for
    ``values[:, cut]`` of two or more rows: fancy indexing makes it Fortran-ordered). A leaf's
    values are made one quantity at a time (its seats, then its groups of several seats), so
    they stay in the first-level cache beside the leaf's records."""
    itemsize, players = meta[ITEMSIZE], meta[PLAYERS]
    nq, ng = src.shape[0], gptr.size - 1
    rows = nq * ng
    sums, squares = np.zeros(rows), np.zeros(rows)
    if count == 0:
        return sums, squares
    value_row = np.empty(ng, np.int64)        # a group's row of ``values``: its seat's, or one of its own
    several = players
    for g in range(ng):
        if gptr[g + 1] - gptr[g] == 1:
            value_row[g] = gseats[gptr[g]]
        else:
            value_row[g] = several
            several += 1
    sizes = _leaf_sizes(count)
    leaves = np.empty((rows, sizes.size))
    lanes = np.zeros((rows, 2))
    values = np.empty((several, LEAF))
    lo = 0
    for leaf in range(sizes.size):
        m = sizes[leaf]
        last = leaf == sizes.size - 1
        for q in range(nq):
            code, offset, stride = src[q, 0], src[q, 1], src[q, 2]
            if code == PRE:
                for j in range(m):
                    i = idx[lo + j]
                    for s in range(players):
                        values[s, j] = pre[i, offset + s]
            elif code == F8:
                _fill(views[0], 3, idx, lo, m, itemsize, offset, stride, players, values)
            elif code == F4:
                _fill(views[1], 2, idx, lo, m, itemsize, offset, stride, players, values)
            elif code == I8:
                _fill(views[2], 3, idx, lo, m, itemsize, offset, stride, players, values)
            elif code == I4:
                _fill(views[3], 2, idx, lo, m, itemsize, offset, stride, players, values)
            elif code == I2:
                _fill(views[4], 1, idx, lo, m, itemsize, offset, stride, players, values)
            elif code == I1:
                _fill(views[5], 0, idx, lo, m, itemsize, offset, stride, players, values)
            elif code == U4:
                _fill(views[6], 2, idx, lo, m, itemsize, offset, stride, players, values)
            elif code == U2:
                _fill(views[7], 1, idx, lo, m, itemsize, offset, stride, players, values)
            else:
                _fill(views[8], 0, idx, lo, m, itemsize, offset, stride, players, values)
            for g in range(ng):
                a, b = gptr[g], gptr[g + 1]
                v = value_row[g]
                if b - a > 1:       # numpy's mean: the seats added in order, then divided
                    first = gseats[a]
                    for j in range(m):
                        values[v, j] = values[first, j]
                    for t in range(a + 1, b):
                        other = gseats[t]
                        for j in range(m):
                            values[v, j] += values[other, j]
                    k = np.float64(b - a)
                    for j in range(m):
                        values[v, j] /= k
                r = q * ng + g
                if seq[g]:
                    for j in range(m):
                        x = values[v, j]
                        sums[r] += x
                        squares[r] += x * x
                    continue
                leaves[r, leaf] = _leaf_sum(values, v, m)
                _lanes(values, v, m, last, lanes, r)
        lo += m
    for r in range(rows):
        if not seq[r % ng]:
            sums[r] = 0.0 + _combine(leaves, r, count)
            squares[r] = 0.0 + (lanes[r, 0] + lanes[r, 1])
    return sums, squares


@jit(nogil=True)
def tally_chunk_nb(views, meta, src, pre, gptr, gseats, seq, usrc, upre):
    """What Tally.add adds for one block of records (see the module docstring).

    views: the record buffer as each of VIEWS; meta: N, ITEMSIZE, PLAYERS, then the byte
    offsets and codes of 'aborted', 'draw' (bool), 'length' (int32) and 'first' (each ``code
    * 2**32 + offset``; the outcome block's types) and WIN, the index of 'win' (float64) among
    the seat quantities; src (quantities, 3): a seat quantity's code, offset (or first column
    of ``pre``, (records, seats) values computed beforehand) and seat stride; gptr/gseats:
    the distinct groups of seats; seq: those summed one aborted record after the other (see
    _group_rows); usrc (unit quantities, 4): code (SKIP: left to numpy), offset (or row of
    ``upre``, float64 values computed beforehand), bits and signedness of an integer field.

    Returns ints (UNITS ... FALLBACK: leave this chunk to numpy, for a negative length, which
    numpy's bincount refuses),
    the first mover's win sum and sum of squares, the group rows' sums and sums of
    squares (total minus aborted, as (quantities, groups)), the completed records'
    length counts, and per unit quantity the integer and float sums and sums of squares.
    """
    n, itemsize = meta[N], meta[ITEMSIZE]
    players = meta[PLAYERS]
    mask = (np.int64(1) << 32) - 1
    flags, f8, lengths = views[8], views[0], views[3]
    aborted, draw, length_at = meta[ABORTED] & mask, meta[DRAW] & mask, (meta[LENGTH] & mask) >> 2
    step = itemsize >> 2
    ints = np.zeros(8, np.int64)
    floats = np.zeros(2)
    done = np.empty(n, np.bool_)
    cut = np.empty(n, np.int64)
    k = 0
    longest, length_sum, draws = -1, 0, 0
    for i in range(n):
        at = i * itemsize
        ok = flags[at + aborted] == 0
        done[i] = ok
        length = np.int64(lengths[i * step + length_at])
        if ok:
            draws += flags[at + draw] != 0
            longest = max(longest, length)
            if length < 0:
                ints[FALLBACK] = 1
        else:
            cut[k] = i
            k += 1
            length_sum += length
    ints[UNITS], ints[COMPLETED], ints[ABORTED_N], ints[ABORTED_LENGTH] = n, n - k, k, length_sum
    ints[DRAWS] = draws
    hist = np.zeros(longest + 1 if ints[FALLBACK] == 0 else 0, np.int64)
    if ints[FALLBACK] == 0:
        for i in range(n):
            if done[i]:
                hist[lengths[i * step + length_at]] += 1

    every = np.arange(n)
    total, total_sq = _group_rows(views, meta, src, pre, gptr, gseats, every, n, np.zeros_like(seq))
    dropped, dropped_sq = _group_rows(views, meta, src, pre, gptr, gseats, cut, k, seq)
    ng = gptr.size - 1
    sums = (total - dropped).reshape((src.shape[0], ng))
    squares = (total_sq - dropped_sq).reshape((src.shape[0], ng))

    # shared wins and the first mover's win share ('win' is a float64 field: the outcome block's)
    wq = meta[WIN]
    w_at, w_step = src[wq, 1] >> 3, src[wq, 2] >> 3
    first = meta[FIRST]
    first_code, first_at = first >> 32, first & mask
    w = np.empty(n)
    nw = 0
    shared = 0
    for i in range(n):
        if not done[i]:
            continue
        at = (i * itemsize >> 3) + w_at
        split = 0
        for s in range(players):
            v = f8[at + s * w_step]
            split += v > 0 and v < 1
        shared += split > 1
        if first >= 0:
            f = _whole(views, first_code, i * itemsize + first_at)
            if 0 <= f < players:
                w[nw] = f8[at + f * w_step]
                nw += 1
    ints[SHARED_WINS], ints[FIRST_UNITS] = shared, nw
    both = np.empty((2, nw))
    both[0] = w[:nw]
    both[1] = w[:nw] * w[:nw]
    first_sums, _ = row_sums(both, nw)
    floats[0], floats[1] = first_sums[0], first_sums[1]

    # per-unit quantities over the completed records
    nu = usrc.shape[0]
    isum, isq = np.zeros(nu, np.int64), np.zeros(nu, np.int64)
    fsum, fsq = np.zeros(nu), np.zeros(nu)
    compact = np.empty((2, n - k))
    for u in range(nu):
        code, offset, bits, signed = usrc[u, 0], usrc[u, 1], usrc[u, 2], usrc[u, 3]
        if code == SKIP:
            continue
        if code == PRE:
            c = 0
            for i in range(n):
                if done[i]:
                    v = upre[offset, i]
                    compact[0, c] = v
                    compact[1, c] = v * v
                    c += 1
            s, _ = row_sums(compact, n - k)
            fsum[u], fsq[u] = s[0], s[1]
            continue
        total_u, square_u = 0, 0
        for i in range(n):
            if done[i]:
                x = _whole(views, code, i * itemsize + offset)
                total_u += x
                square_u += _wrapped(x * x, bits, signed)
        isum[u], isq[u] = total_u, square_u
    return ints, floats, sums, squares, hist, isum, isq, fsum, fsq
