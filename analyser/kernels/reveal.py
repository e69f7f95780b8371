"""What the engine shows an open (cheating) search seat: the whole table, written into its params row.

An honest policy is handed the public record and its own private record only. The open variant of a
search player (``open=1``, analyser.kernels.search_row) is meant to see every hidden card and the
stock's order, to measure what perfect information is worth; each game's rules call ``reveal_nb``
before asking a seat whose kind is REVEAL, and the search reads the table back (``revealed_nb``).
Python callers (the kit's checks) call reveal_nb as it is.
"""
import numpy as np

from analyser.kernels.jit import inline_kernel
from analyser.kernels.records import view_nb
from analyser.kernels.search_row import OPEN, REVEAL_AT, REVEALED


@inline_kernel
def reveal_nb(row, priv, hid):
    """Every seat's private record, then the hidden record, into row[REVEAL_AT:], stamped REVEALED."""
    out = view_nb(row[REVEAL_AT:], np.uint8)
    p = view_nb(priv, np.uint8)
    h = view_nb(hid, np.uint8)
    for i in range(p.size):        # loops, not slice copies: a kernel has no NRT (analyser.kernels.jit)
        out[i] = p[i]
    for i in range(h.size):
        out[p.size + i] = h[i]
    row[OPEN] = REVEALED


@inline_kernel
def revealed_nb(row, priv, hid):
    """The table reveal_nb wrote, into ``priv`` and ``hid``."""
    src = view_nb(row[REVEAL_AT:], np.uint8)
    p = view_nb(priv, np.uint8)
    h = view_nb(hid, np.uint8)
    for i in range(p.size):
        p[i] = src[i]
    for i in range(h.size):
        h[i] = src[p.size + i]

