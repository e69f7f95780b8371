"""The compiled tally (analyser.stats.tally_nb) adds exactly what numpy's Tally.add_numpy adds:
every count, every histogram bin, every float sum to the last bit, on records of the four games
(and their sub-units), with aborted records, several policy groupings and any chunking."""
import numpy as np
import pytest

import analyser
from analyser.engine.pipeline import join_records
from analyser.games.registry import get_game
from analyser.stats import tally_nb as nb
from analyser.stats.tally import Tally

COUNTS = ("units", "completed", "aborted", "draws", "aborted_length", "first_units", "first_win_sum",
          "first_win_square", "shared_wins")


def same(a: Tally, b: Tally) -> None:
    for name in COUNTS:
        assert getattr(a, name) == getattr(b, name), name
    for store in ("sums", "squares"):
        for key, value in getattr(a, store).items():
            assert value.tobytes() == getattr(b, store)[key].tobytes(), (store, key, value - getattr(b, store)[key])
    for store in ("unit_sums", "unit_squares"):
        assert getattr(a, store) == getattr(b, store), store
    assert a.length_hist.dtype == b.length_hist.dtype and a.length_hist.tobytes() == b.length_hist.tobytes()


def both(game, players, labels, rec, chunks) -> tuple[Tally, Tally]:
    """(compiled, numpy) tallies of rec added in pieces of the given sizes; the compiled one must take every piece."""
    fast, slow = Tally.for_run(game, players, labels), Tally.for_run(game, players, labels)
    at = 0
    for size in chunks:
        assert fast._add_compiled(rec[at: at + size])       # not numpy's path in disguise
        slow.add_numpy(rec[at: at + size])
        at += size
    assert at == rec.size
    return fast, slow


def stirred(rec: np.ndarray, players: int, seed: int) -> np.ndarray:
    """rec made ten times longer, a tenth of it aborted, with win shares of thirds and sixths and
    non-dyadic scores: float sums whose last bits depend on the order they are added in."""
    rng = np.random.default_rng(seed)
    out = join_records([rec] * 10, rec.dtype)
    out["aborted"] |= rng.random(out.size) < 0.1
    shared = rng.random(out.size) < 0.3
    out["win"][shared, :players] = rng.integers(0, 7, (int(shared.sum()), players)) / 6
    out["score"][:, :players] += rng.integers(0, 3, (out.size, players)) / 3
    return out


CASES = [   # game, players, policies, unit
    ("palace", 4, ["saver", "saver", "pickup", "saver"], None),     # a policy on three seats
    ("palace", 3, None, None),                                       # one policy everywhere
    ("palace", 2, ["saver", "lowest"], None),
    ("enemy_anemone", 6, ["timing", "greedy", "timing", "greedy", "random", "timing"], None),
    ("enemy_anemone", 3, None, "hand"),
    ("olenon", 4, ["shed", "random"], None),                         # teams
    ("olenon", 4, None, "round"),
    ("spite_and_malice", 2, None, None),
    ("spite_and_malice", 2, ["builder", "patient"], "round"),
]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[3] or 'unit'}")
def run(request):
    game, players, policies, unit = request.param
    result = analyser.simulate(game, players=players, policies=policies, n=150, seed=2, unit=unit, progress=False)
    return result.game, players, result.labels, stirred(result.records, players, seed=players)


@pytest.mark.parametrize("chunks", [[1500], [700, 800], [1, 7, 8, 9, 127, 128, 129, 1091]])
def test_the_compiled_tally_equals_numpys(run, chunks):
    game, players, labels, rec = run
    fast, slow = both(game, players, labels, rec, chunks)
    same(fast, slow)
    assert fast.aborted > 0 and fast.completed > 0


def test_the_records_make_the_order_of_a_sum_matter(run):
    """The check above could not tell a sum taken in another order: here it could."""
    game, players, labels, rec = run
    scores = Tally.for_run(game, players, labels).seat_values(rec, "score")
    one_by_one = np.zeros(players)
    for column in scores.T:
        one_by_one += column
    assert (scores.sum(axis=1) != one_by_one).any()


def test_tallies_merge_and_show_reads_the_same(run):
    """A merged tally of two halves is the same tally, by either path."""
    game, players, labels, rec = run
    fast, slow = both(game, players, labels, rec, [600, 900])
    halves = [Tally.for_run(game, players, labels) for _ in range(2)]
    halves[0].add(rec[:600])
    halves[1].add(rec[600:])
    same(halves[0].merge(halves[1]), slow)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 8, 9, 15, 16, 17, 127, 128, 129, 130, 255, 256, 257, 1000, 4099, 65539])
def test_sums_are_taken_in_numpys_order(n):
    """nb's pairwise sum and einsum lanes against numpy's own on this machine (a numpy built with
    another SIMD baseline, fused multiply-adds in einsum say, would fail here first)."""
    rng = np.random.default_rng(n)
    rows = np.ascontiguousarray(rng.integers(0, 50, (3, n)) / 7.0)
    sums, squares = nb.row_sums(rows, n)
    assert sums.tobytes() == rows.sum(axis=1).tobytes()
    assert squares.tobytes() == np.einsum("ij,ij->i", rows, rows).tobytes()


def test_records_the_compiled_pass_cannot_read_go_to_numpy():
    """A record dtype with a field no view reads (float16 ranks) and a misaligned one (packed):
    numpy's path, and the same tally."""
    palace = get_game("palace")
    rec = analyser.simulate("palace", players=4, n=200, seed=1, progress=False).records
    for dtype in (np.dtype([(n, np.dtype((np.float16, (4,))) if n == "rank" else palace.record_dtype.fields[n][0])
                            for n in palace.record_dtype.names], align=True),
                  np.dtype([(n, palace.record_dtype.fields[n][0]) for n in palace.record_dtype.names])):
        other = np.zeros(rec.size, dtype)
        for name in dtype.names:
            other[name] = rec[name]
        tally = Tally.for_run(palace, 4, ["saver"] * 4)
        layout = tally._compiled_layout(dtype, nb)
        assert layout is None or layout["pre"]          # read by numpy, or its ranks computed beforehand
        reference = Tally.for_run(palace, 4, ["saver"] * 4).add_numpy(other)
        same(tally.add(other), reference)


def test_a_negative_length_is_refused_as_numpy_refuses_it():
    rec = analyser.simulate("palace", players=2, n=20, seed=1, progress=False).records.copy()
    rec["length"][3] = -1
    tally = Tally.for_run(get_game("palace"), 2, ["saver"] * 2)
    with pytest.raises(ValueError):
        tally.add(rec)
