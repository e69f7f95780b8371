"""Per-chunk aggregation of records, so memory stays bounded for any run size.

A Tally reads only the outcome block and the columns a GameSpec declares. It
keeps sums and sums of squares, so every mean has an interval, and it keeps
them per *group* of seats under three partitions: each seat alone, the seats of
one policy, the seats of one team. A group's value in a record is the mean over
its seats in that record, and one record is one observation: four seats of one
policy, or two partners, are never counted as independent.

Everything here only adds, so tallies of chunks computed anywhere (threads,
processes, a cluster) merge into exactly the tally of the whole run. Means are
over completed records; aborted records are counted apart.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyser.stats.intervals import Z95, mean_ci, wilson

OUTCOME_QUANTITIES = ("win", "score", "rank")


def partitions(players: int, labels: list[str], teams: tuple[int, ...] | None) -> dict:
    """The groups of seats the tables report: per seat, per policy label, per team."""
    out = {"seat": tuple((s,) for s in range(players)),
           "policy": tuple(tuple(s for s in range(players) if labels[s] == lab) for lab in dict.fromkeys(labels))}
    if teams is not None:
        out["team"] = tuple(tuple(s for s in range(players) if teams[s] == t) for t in sorted(set(teams)))
    return out


@dataclass
class Tally:
    players: int
    groups: dict                                   # partition -> tuple of seat tuples
    seat_quantities: tuple[str, ...]               # outcome quantities + the game's per-seat columns
    unit_quantities: tuple[str, ...]               # the game's per-unit columns
    units: int = 0
    completed: int = 0
    aborted: int = 0
    draws: int = 0
    sums: dict = field(default_factory=dict)       # (partition, quantity) -> (groups,) sums over completed records
    squares: dict = field(default_factory=dict)    # the same for squared values
    unit_sums: dict = field(default_factory=dict)
    unit_squares: dict = field(default_factory=dict)
    length_hist: np.ndarray = None                 # length -> completed records
    aborted_length: int = 0                        # summed length of the aborted records
    columns: dict = field(default_factory=dict, repr=False)   # name -> the game's Column, to read values
    first_mover: bool = False                      # the record has a field 'first': the seat that moved first
    first_units: int = 0                           # completed records whose 'first' names a seat in play
    first_win_sum: float = 0.0                     # the first mover's win share, summed over those records
    first_win_square: float = 0.0                  # the same for its square
    shared_wins: int = 0                           # completed records where 2+ seats have a win share in (0, 1)

    def __post_init__(self):
        for part, groups in self.groups.items():
            for q in self.seat_quantities:
                for store in (self.sums, self.squares):
                    store.setdefault((part, q), np.zeros(len(groups)))
        for q in self.unit_quantities:
            self.unit_sums.setdefault(q, 0.0)
            self.unit_squares.setdefault(q, 0.0)
        if self.length_hist is None:
            self.length_hist = np.zeros(1, np.int64)

    @classmethod
    def for_run(cls, game, players: int, labels: list[str]) -> Tally:
        teams = game.team_of(players) if game.teams else None
        seat_cols = tuple(c.name for c in game.columns if c.per == "seat")
        unit_cols = tuple(c.name for c in game.columns if c.per == "unit")
        return cls(players, partitions(players, labels, teams), OUTCOME_QUANTITIES + seat_cols, unit_cols,
                   columns={c.name: c for c in game.columns},
                   first_mover="first" in (game.record_dtype.names or ()))

    def seat_values(self, rec: np.ndarray, name: str) -> np.ndarray:
        """(players, records) values of a per-seat quantity, seat-major (the fast layout to sum):
        read record by record, one pass over the block a field, then transposed (reading
        seat by seat, a pass over the block a seat, takes longer)."""
        if name in OUTCOME_QUANTITIES:
            values = rec[name][:, : self.players]
        else:
            values = self.columns[name].values(rec, self.players)
        return np.array(values, np.float64).T.copy()

    def add(self, rec: np.ndarray) -> Tally:
        """Count a block of records (a structured array of the game's record dtype)."""
        done = ~rec["aborted"].astype(bool)
        n_done = int(done.sum())
        self.units += rec.size
        self.completed += n_done
        self.aborted += rec.size - n_done
        self.aborted_length += int(rec["length"][~done].sum(dtype=np.int64))
        self.draws += int(rec["draw"][done].sum())
        cut = np.flatnonzero(~done)     # few: summing all and taking them off beats masking every array
        win = None
        for q in self.seat_quantities:
            by_seat = self.seat_values(rec, q)
            if q == "win":
                win = by_seat
            seat_totals, seat_squares = _sums(by_seat, cut)
            pooled = {}        # a group of several seats -> (sum, sum of squares) of the seats' mean
            for part, groups in self.groups.items():
                for i, g in enumerate(groups):
                    if len(g) == 1:
                        total, square = seat_totals[g[0]], seat_squares[g[0]]
                    else:
                        if g not in pooled:
                            pooled[g] = _mean_sums(by_seat, g, cut)
                        total, square = pooled[g]
                    self.sums[part, q][i] += total
                    self.squares[part, q][i] += square
        for q in self.unit_quantities:
            v = self.columns[q].values(rec, self.players)[done]
            self.unit_sums[q] += float(v.sum())
            self.unit_squares[q] += float((v * v).sum())
        self.length_hist = _add_hist(self.length_hist, np.bincount(rec["length"][done]))
        self._add_balance(rec, done, win)
        return self

    def _add_balance(self, rec: np.ndarray, done: np.ndarray, win: np.ndarray) -> None:
        """Shared wins, and the first mover's win share (see analyser.stats.balance);
        ``win`` is seat_values(rec, "win")."""
        split = np.count_nonzero((win > 0) & (win < 1), axis=0) > 1
        self.shared_wins += int(np.count_nonzero(split & done))
        if self.first_mover:
            first = rec["first"].astype(np.intp)
            rows = np.flatnonzero(done & (first >= 0) & (first < self.players))
            w = win[first[rows], rows]
            self.first_units += rows.size
            self.first_win_sum += float(w.sum())
            self.first_win_square += float((w * w).sum())

    def merge(self, other: Tally) -> Tally:
        for name in ("units", "completed", "aborted", "draws", "aborted_length", "first_units", "first_win_sum",
                     "first_win_square", "shared_wins"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for store in ("sums", "squares", "unit_sums", "unit_squares"):
            mine, theirs = getattr(self, store), getattr(other, store)
            for key in mine:
                mine[key] = mine[key] + theirs[key]
        self.length_hist = _add_hist(self.length_hist, other.length_hist)
        self.first_mover = self.first_mover or other.first_mover
        return self

    def mean_and_sd(self, part: str, q: str) -> tuple[np.ndarray, np.ndarray]:
        """Per group: mean and sample standard deviation over completed records."""
        n = self.completed
        if n == 0:
            nan = np.full(len(self.groups[part]), np.nan)
            return nan, nan
        mean = self.sums[part, q] / n
        var = (self.squares[part, q] - n * mean * mean) / max(n - 1, 1)
        return mean, np.sqrt(np.maximum(var, 0.0))

    def is_binary(self, part: str, q: str) -> np.ndarray:
        """Per group: were all its values 0 or 1 (a rate, for which Wilson's interval fits)?
        v * v == v only at 0 and 1 (below v between them, above it past 1), so the
        sums agree exactly for 0/1 values (whole numbers in float64) and, for any
        values of [0, 1] or any whole numbers, only then."""
        return self.squares[part, q] == self.sums[part, q]

    def unit_mean(self, q: str) -> float:
        return self.unit_sums[q] / self.completed if self.completed else float("nan")

    def length_quantile(self, q: float) -> float:
        """The q-quantile of the completed records' length (the lower value at a tie, as numpy's 'lower')."""
        total = self.length_hist.sum()
        if total == 0:
            return float("nan")
        cum = np.cumsum(self.length_hist)
        return float(np.searchsorted(cum, q * (total - 1), side="right"))

    def length_mean_sd(self) -> tuple[float, float]:
        total = self.length_hist.sum()
        if total == 0:
            return float("nan"), float("nan")
        x = np.arange(self.length_hist.size)
        mean = float((self.length_hist * x).sum() / total)
        var = float((self.length_hist * (x - mean) ** 2).sum() / max(total - 1, 1))
        return mean, var ** 0.5


FIXED_TOLERANCE = 1e-10   # a variance below this share of the mean square is the sums' rounding


def share_interval(total, squares, n: int, z: float = Z95, whole=False):
    """``(low, high)`` of the mean of values in [0, 1] from their sum and sum of squares over n units
    (arrays allowed): Wilson's interval where every value was 0 or 1 (``squares == total``, see
    Tally.is_binary), else intervals.mean_ci within (0, 1) with the variance floor, so a share that is
    nearly constant (three random seats pooled beside one saver: 2/3 in nearly every game) still gets
    an honest width. whole: where true (a group holding every seat) and the values never varied, the
    mean is fixed by the game's win total, not estimated: [mean, mean]. "Never varied" allows for the
    rounding of the sums (FIXED_TOLERANCE): three seats of one policy share 1/3 of a loss in every
    Palace game, yet n * (1/3)**2 and the sum of n squares need not round alike. NaN without a unit
    (and, but for Wilson's, without two)."""
    total, squares = np.asarray(total, dtype=float), np.asarray(squares, dtype=float)
    if n < 1:
        nan = np.full(total.shape, np.nan)
        return (float("nan"),) * 2 if nan.ndim == 0 else (nan, nan.copy())
    mean = total / n
    var = np.maximum(squares - n * mean * mean, 0.0) / max(n - 1, 1)
    w_low, w_high = wilson(np.clip(total, 0, n), np.full(total.shape, n), z)
    fixed = np.asarray(whole, dtype=bool) & (var <= FIXED_TOLERANCE * squares / n)
    b_low, b_high = mean_ci(mean, var, np.full(total.shape, n), z, bounds=(0.0, 1.0), tie=fixed)
    binary = (squares == total) & ~fixed
    low, high = np.where(binary, w_low, b_low), np.where(binary, w_high, b_high)
    return (float(low), float(high)) if low.ndim == 0 else (low, high)


def _sums(values: np.ndarray, cut: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``values`` (rows, records): the sum and the sum of squares over the records but ``cut``
    (einsum, not BLAS: that was 100x slower here)."""
    dropped = values[:, cut]
    return (values.sum(axis=1) - dropped.sum(axis=1),
            np.einsum("ij,ij->i", values, values) - np.einsum("ij,ij->i", dropped, dropped))


def _mean_sums(by_seat: np.ndarray, group: tuple, cut: np.ndarray) -> tuple[float, float]:
    """The sum and the sum of squares, over the records but ``cut``, of the group's mean over its
    seats: from the seats' total, divided once (by the size, its square) instead of at every record."""
    total = by_seat[group[0]] + by_seat[group[1]]
    for s in group[2:]:
        total += by_seat[s]
    (t,), (t2,) = _sums(total[None], cut)
    return t / len(group), t2 / len(group) ** 2


def _add_hist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if b.size > a.size:
        a, b = b.astype(np.int64), a
    else:
        a = a.copy()
    a[: b.size] += b
    return a
