"""Finishing orders at mixed tables: what ``tournament(..., tables="mixed")`` keeps, and its head-to-head.

Every deal is played at every table of the design, in each of the table's
seatings (its neighbour-balanced orders, each in every rotation;
analyser.analyses.seatings; ``rotations`` below counts the seatings of a
table). Per play the tally keeps the rank of each of the table's policies
(the rank of its seats: partners share one) and whether the play hit the
action cap. A deal aborted in any rotation of a table is dropped from that
table (so its rotations stay balanced) and counted; the other tables keep it.
The bounds over all deals (stats.paired.abort_bounds) count every aborted play
at every table holding both X and Y as X below Y, then as X above Y.

Head-to-head: M[X][Y] is the share of plays in which X finished above Y, a tie
counting half, over the plays where both sat at one table: for deal d, x[d] is
the mean over the kept tables holding both, and their rotations, of 1 (X above
Y), 1/2 (tied) or 0 (through intervals.exact); M[X][Y] is the mean of x[d]
over the deals with such a table, with the 95% score interval of x[d] - 1/2
over those deals (intervals.differences_ci, Tango's on the deals where X and
Y did not tie).
M[X][Y] + M[Y][X] = 1 and the fair value is 1/2. It is the pairwise
probability Plackett-Luce fits, 1 / (1 + exp(-(beta_X - beta_Y))), so the
matrix checks the ratings; a win share would depend on who else sat there.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from analyser.stats.intervals import Z95, differences_ci, exact, widest_stop_half_width
from analyser.stats.paired import abort_bounds, abort_values, bound_cells
from analyser.stats.plackett_luce import top1_choices

CELL = "share of plays finishing above the column policy (ties half)"


@dataclass
class OrderTally:
    """Per table: the rank of each of its policies in every play, and the aborted plays, per deal."""
    tables: list[tuple[int, ...]]                 # the policy indices at each table, in slot order
    rotations: int
    deals: list = field(default_factory=list)     # blocks of deal indices (the same for every table)
    ranks: list = None                            # per table: blocks (deals, rotations, slots) int8
    aborted: list = None                          # per table: blocks (deals, rotations) bool

    def __post_init__(self):
        self.tables = [tuple(int(x) for x in t) for t in self.tables]
        self.ranks = self.ranks or [[] for _ in self.tables]
        self.aborted = self.aborted or [[] for _ in self.tables]

    def add(self, table: int, deal_index: np.ndarray, plays: list[np.ndarray], slot_seats: list[list[int]]) -> None:
        """``plays[r]``: the records of rotation r for these deals; ``slot_seats[r][i]``: a seat of slot i."""
        if table == 0:
            self.deals.append(np.asarray(deal_index, np.int64))
        self.ranks[table].append(np.stack([rec["rank"][:, seats] for rec, seats in
                                           zip(plays, slot_seats, strict=True)], axis=1).astype(np.int8))
        self.aborted[table].append(np.stack([rec["aborted"] for rec in plays], axis=1).astype(bool))

    @property
    def deal_index(self) -> np.ndarray:
        return np.concatenate(self.deals) if self.deals else np.zeros(0, np.int64)

    @property
    def units(self) -> int:
        return int(self.deal_index.size)

    def table(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """Table t's ranks (deals, rotations, slots) and which deals it keeps (none of its plays aborted)."""
        k = len(self.tables[t])
        ranks = np.concatenate(self.ranks[t]) if self.ranks[t] else np.zeros((0, self.rotations, k), np.int8)
        aborted = np.concatenate(self.aborted[t]) if self.aborted[t] else np.zeros((0, self.rotations), bool)
        return ranks, ~aborted.any(axis=1)

    @property
    def dropped(self) -> np.ndarray:
        """Deals dropped, per table."""
        return np.array([int((~self.table(t)[1]).sum()) for t in range(len(self.tables))], np.int64)

    def choices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every kept play's top-1 choices (analyser.stats.plackett_luce): winner, losers, deal."""
        deals = self.deal_index
        out = [], [], []
        for t, members in enumerate(self.tables):
            ranks, keep = self.table(t)
            flat = ranks[keep].reshape(-1, len(members))
            winners, losers, rows = top1_choices(flat, np.array(members))
            for part, value in zip(out, (winners, losers, np.repeat(deals[keep], self.rotations)[rows]), strict=True):
                part.append(value)
        return tuple(np.concatenate(p) for p in out)

    def deal_shares(self, pairs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per deal (rows) and pair (columns, in combinations order of ``pairs`` policies): x[d] (NaN where the
        pair did not meet), the tie share, and the number of kept tables where it met."""
        pair_list = list(combinations(range(pairs), 2))
        shape = (self.units, len(pair_list))
        total, ties, count = np.zeros(shape), np.zeros(shape), np.zeros(shape)
        for t, members in enumerate(self.tables):
            ranks, keep = self.table(t)
            for c, (x, y) in enumerate(pair_list):
                if x in members and y in members:
                    rx, ry = ranks[:, :, members.index(x)], ranks[:, :, members.index(y)]
                    total[:, c] += keep * ((rx < ry) + 0.5 * (rx == ry)).mean(axis=1)
                    ties[:, c] += keep * (rx == ry).mean(axis=1)
                    count[:, c] += keep
        with np.errstate(invalid="ignore", divide="ignore"):
            return exact(total / count), ties / count, count

    def bounds(self, pairs: int) -> list[dict]:
        """Per pair (combinations order): abort_bounds of x[d] over every deal and every table holding both,
        each aborted play counted as X below Y, then as X above Y (ties at 1/2 around which x is centred)."""
        out = []
        for x, y in combinations(range(pairs), 2):
            done, missing, count = np.zeros(self.units), np.zeros(self.units), 0
            for t, members in enumerate(self.tables):
                if x in members and y in members:
                    ranks = np.concatenate(self.ranks[t]) if self.ranks[t] else np.zeros((0, self.rotations, 1))
                    cut = np.concatenate(self.aborted[t]) if self.aborted[t] else np.zeros((0, self.rotations), bool)
                    rx, ry = ranks[:, :, members.index(x)], ranks[:, :, members.index(y)]
                    done += (~cut * ((rx < ry) + 0.5 * (rx == ry))).mean(axis=1)
                    missing += cut.mean(axis=1)
                    count += 1
            count = max(count, 1)
            lost, won = abort_values(done / count, missing / count, 0.0, 0.0, 1.0)
            out.append(abort_bounds(lost, won, missing > 0, 0.5, centre=0.5))
        return out

    def pair_frame(self, names: list[str], z: float = Z95, proven=()) -> pd.DataFrame:
        """One row per pair (a, b): deals and plays where both sat, a's and b's above shares with
        their 95% intervals (the score interval of x[d] - 1/2, intervals.differences_ci, so a pair that
        rarely finishes apart is honest), the tie share, the half-width (the larger side of a's interval),
        ``identical`` (x[d] = 1/2 on every deal) and ``tie`` (an exact tie [1/2, 1/2]: identical, and (a, b)
        is in ``proven``, the pairs that are one policy by construction), and a's above share's bounds over all
        deals (stats.paired.BOUND_COLUMNS)."""
        proven = {tuple(p) for p in proven}
        shares, ties, count = self.deal_shares(len(names))
        bounds = self.bounds(len(names))
        rows = []
        for c, (x, y) in enumerate(combinations(range(len(names)), 2)):
            share = shares[:, c][np.isfinite(shares[:, c])]
            n = share.size
            mean = float(share.mean()) if n else float("nan")
            ci = differences_ci(share - 0.5, 0.5, z, (names[x], names[y]) in proven)
            low, high = 0.5 + ci["low"], 0.5 + ci["high"]
            rows.append({"a": names[x], "b": names[y], "deals": n, "plays": int(count[:, c].sum()) * self.rotations,
                         "a_above_share": mean, "a_ci_low": low, "a_ci_high": high,
                         "b_above_share": 1 - mean, "b_ci_low": 1 - high, "b_ci_high": 1 - low,
                         "tie_share": float(np.nanmean(ties[:, c])) if n else float("nan"),
                         "half_width": max(mean - low, high - mean), "tie": ci["tie"],
                         "identical": ci["identical"], "p_value": ci["p"], **bound_cells(bounds[c])})
        return pd.DataFrame(rows)

    def widest_half_width(self, names: list[str]) -> float:
        """The Chow-Robbins half-width (intervals.stop_half_width) of the widest matrix cell."""
        return widest_stop_half_width(self.deal_shares(len(names))[0])

    def frame(self) -> pd.DataFrame:
        """One row per play: deal, table, rotation, aborted, rank_0 .. rank_{slots-1} (the table's policies)."""
        deals = self.deal_index
        parts = []
        for t in range(len(self.tables)):
            ranks = np.concatenate(self.ranks[t]) if self.ranks[t] else np.zeros((0, self.rotations, 0), np.int8)
            aborted = np.concatenate(self.aborted[t]) if self.aborted[t] else np.zeros((0, self.rotations), bool)
            part = pd.DataFrame({"deal": np.repeat(deals, self.rotations), "table": np.int16(t),
                                 "rotation": np.tile(np.arange(self.rotations, dtype=np.int8), deals.size),
                                 "aborted": aborted.reshape(-1)})
            for i in range(ranks.shape[2]):
                part[f"rank_{i}"] = ranks[:, :, i].reshape(-1)
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, tables: list, rotations: int) -> OrderTally:
        """Inverse of :meth:`frame` (a results file read back)."""
        tally = cls(tables, rotations)
        frame = frame.sort_values(["table", "deal", "rotation"], kind="stable")
        for t, members in enumerate(tally.tables):
            part = frame[frame["table"] == t]
            deals = part["deal"].to_numpy(np.int64)[::rotations]
            ranks = part[[f"rank_{i}" for i in range(len(members))]].to_numpy(np.int8)
            tally.ranks[t].append(ranks.reshape(deals.size, rotations, len(members)))
            tally.aborted[t].append(part["aborted"].to_numpy(bool).reshape(deals.size, rotations))
            if t == 0:
                tally.deals.append(deals)
        return tally
