"""Counter-based random streams for numba code.

Every stream is a single uint64 word seeded from (run seed, unit index, stream
id) and advanced with SplitMix64. Nothing depends on thread, chunk or machine,
so a unit plays the same wherever it is computed.

The stream layout (``stream_seed_nb(seed, unit, stream)``):
  stream -1 (UNIT_STREAM)          the unit's own randomness outside its hands
                                   (a match's first dealer, say);
  hand_stream(h, DEAL_SLOT)        hand (or round, or game) h of the unit: its
                                   shuffle, its start player;
  hand_stream(h, POLICY_SLOT + k)  policy stream k in hand h, k = 0..14.
where ``hand_stream(h, slot) = h * STREAMS_PER_HAND + slot``. A Palace game is
a unit of one hand: stream 0 deals it, streams 1.. are its policies'.

Policy stream k belongs to the policy, not the seat: the runner hands each
seat a stream id (by default its seat number), and a rotation of seats (the
analysis layer's duplicate deals) moves the ids with the policies, so every
policy keeps its own draws. Hand h's streams depend on (seed, unit, h) alone,
so a match's third hand deals the same cards whatever was played before, and
the deals never depend on which policies sit at the table.
"""
import numpy as np

from analyser.kernels.jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_K_DEAL = np.uint64(0xD1B54A32D192ED03)
_K_STREAM = np.uint64(0x8CB92BA72F3D8DD7)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

UNIT_STREAM = -1
STREAMS_PER_HAND = 16
DEAL_SLOT = 0
POLICY_SLOT = 1
MAX_POLICY_STREAMS = STREAMS_PER_HAND - POLICY_SLOT


def hand_stream(hand: int, slot: int) -> int:
    """The stream id of ``slot`` in hand ``hand`` of a unit (see the layout above)."""
    return hand * STREAMS_PER_HAND + slot


@kernel
def mix64_nb(z):
    """SplitMix64 finaliser: a bijective scramble of one uint64."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel
def unit_key_nb(seed, unit):
    """What every stream seed of unit ``unit`` shares: a game that seeds many streams
    per unit computes it once and seeds each with keyed_seed_nb (one scramble, not three)."""
    z = mix64_nb(np.uint64(seed) + _GOLDEN)
    return mix64_nb(z ^ (np.uint64(unit) * _K_DEAL))


@kernel
def keyed_seed_nb(key, stream):
    """stream_seed_nb(seed, unit, stream), given key = unit_key_nb(seed, unit)."""
    return mix64_nb(key ^ (np.uint64(stream + 1) * _K_STREAM))


@kernel
def stream_seed_nb(seed, unit, stream):
    """Initial state of stream ``stream`` of unit ``unit`` in run ``seed``."""
    return keyed_seed_nb(unit_key_nb(seed, unit), stream)


@kernel
def hand_seed_nb(seed, unit, hand, slot):
    """Initial state of ``slot`` in hand ``hand`` of unit ``unit``: hand_stream in numba."""
    return stream_seed_nb(seed, unit, hand * STREAMS_PER_HAND + slot)


@kernel
def next_u64_nb(st):
    """Advance the stream held in ``st[0]`` and return the next 64 random bits."""
    s = st[0] + _GOLDEN
    st[0] = s
    return mix64_nb(s)


@kernel
def scale_nb(bits, n):
    """64 random bits to an integer in [0, n), 1 <= n < 2**32 (multiply-shift, bias < 2**-32 * n)."""
    return np.int64(((bits >> _S32) * np.uint64(n)) >> _S32)


@kernel
def below_nb(st, n):
    """A random integer in [0, n) for 1 <= n < 2**32, from the stream in ``st[0]``."""
    return scale_nb(next_u64_nb(st), n)


@kernel
def uniform_choice_nb(st, flags):
    """The index of a uniformly random True entry of the bool array ``flags`` (-1 if
    there is none), from the stream in ``st[0]``: every game's ``random`` policy."""
    n = 0
    for a in range(flags.size):
        n += flags[a]
    k = below_nb(st, n)
    for a in range(flags.size):
        if flags[a]:
            if k == 0:
                return a
            k -= 1
    return -1


_LOW32 = np.uint64(0xFFFFFFFF)


@kernel
def shuffle_from_nb(st, a, stop):
    """Fisher-Yates from the top down to index ``stop`` (>= 1): a[stop:] is then a uniform
    random arrangement of a's items, a[:stop] the rest in no order that matters (cards
    set aside unseen, say). Two draws from each 64 random bits, the high 32 bits and the
    low 32 bits each scaled as scale_nb does: half the scrambles of shuffle_nb."""
    s = st[0]
    i = a.size - 1
    while i >= stop:
        s += _GOLDEN
        bits = mix64_nb(s)
        j = scale_nb(bits, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1
        if i >= stop:
            j = np.int64(((bits & _LOW32) * np.uint64(i + 1)) >> _S32)
            t = a[i]
            a[i] = a[j]
            a[j] = t
            i -= 1
    st[0] = s


@kernel
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
