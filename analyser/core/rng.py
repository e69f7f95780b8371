"""Counter-based random streams for numba code.

Every stream is a single uint64 word seeded from (run seed, deal index, stream
id) and advanced with SplitMix64. Stream 0 of a deal shuffles and picks the
starting player; streams 1.. belong to the seats' policies. Because nothing
depends on thread or chunk, a deal plays the same wherever it is computed, and
the deal itself does not depend on which policies sit at the table.
"""
import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_K_DEAL = np.uint64(0xD1B54A32D192ED03)
_K_STREAM = np.uint64(0x8CB92BA72F3D8DD7)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

DEAL_STREAM = 0


@njit(cache=True)
def mix64_nb(z):
    """SplitMix64 finaliser: a bijective scramble of one uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_seed_nb(seed, deal, stream):
    """Initial state of stream ``stream`` of deal ``deal`` in run ``seed``."""
    z = mix64_nb(np.uint64(seed) + _GOLDEN)
    z = mix64_nb(z ^ (np.uint64(deal) * _K_DEAL))
    return mix64_nb(z ^ (np.uint64(stream + 1) * _K_STREAM))


@njit(cache=True)
def next_u64_nb(st):
    """Advance the stream held in ``st[0]`` and return the next 64 random bits."""
    s = st[0] + _GOLDEN
    st[0] = s
    return mix64_nb(s)


@njit(cache=True)
def scale_nb(bits, n):
    """64 random bits to an integer in [0, n), 1 <= n < 2**32 (multiply-shift, bias < 2**-32 * n)."""
    return np.int64(((bits >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True)
def below_nb(st, n):
    """A random integer in [0, n) for 1 <= n < 2**32, from the stream in ``st[0]``."""
    return scale_nb(next_u64_nb(st), n)


@njit(cache=True)
def shuffle_nb(st, a):
    """Fisher-Yates shuffle of ``a`` in place: the same draws as below_nb, with
    the stream kept in a register (through memory, each draw waited on the last)."""
    s = st[0]
    for i in range(a.size - 1, 0, -1):
        s += _GOLDEN                    # as next_u64_nb does
        j = scale_nb(mix64_nb(s), i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
    st[0] = s
