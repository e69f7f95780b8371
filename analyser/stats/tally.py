"""Per-chunk aggregation of game records, so memory stays bounded for any run size.

A Tally only adds counts, so tallies of chunks computed anywhere (threads,
processes, a cluster) merge into exactly the tally of the whole run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Tally:
    players: int
    seat_events: tuple[str, ...]
    game_events: tuple[str, ...]
    deals: int = 0
    completed: int = 0
    aborted: int = 0
    wins: np.ndarray = None            # (players,) wins over completed games
    places: np.ndarray = None          # (players, players + 1) place counts, completed games
    seat_sums: dict = field(default_factory=dict)   # event -> (players,) sums over all games
    game_sums: dict = field(default_factory=dict)   # event -> sum over all games
    actions_hist: np.ndarray = None    # actions per game -> number of games

    def __post_init__(self):
        p = self.players
        if self.wins is None:
            self.wins = np.zeros(p, np.int64)
        if self.places is None:
            self.places = np.zeros((p, p + 1), np.int64)
        for name in self.seat_events:
            self.seat_sums.setdefault(name, np.zeros(p, np.int64))
        for name in self.game_events:
            self.game_sums.setdefault(name, 0)
        if self.actions_hist is None:
            self.actions_hist = np.zeros(1, np.int64)

    def add(self, rec: np.ndarray) -> "Tally":
        """Count a block of records (a structured array of the game's record dtype)."""
        p = self.players
        done = ~rec["aborted"].astype(bool)
        self.deals += rec.size
        self.completed += int(done.sum())
        self.aborted += int((~done).sum())
        self.wins += rec["win"][done, :p].sum(axis=0, dtype=np.int64)
        for s in range(p):
            self.places[s] += np.bincount(rec["place"][done, s], minlength=p + 1)[: p + 1]
        for name in self.seat_events:
            self.seat_sums[name] += rec[name][:, :p].sum(axis=0, dtype=np.int64)
        for name in self.game_events:
            self.game_sums[name] += int(rec[name].sum(dtype=np.int64))
        self.actions_hist = _add_hist(self.actions_hist, np.bincount(rec["actions"]))
        return self

    def merge(self, other: "Tally") -> "Tally":
        self.deals += other.deals
        self.completed += other.completed
        self.aborted += other.aborted
        self.wins += other.wins
        self.places += other.places
        for name in self.seat_events:
            self.seat_sums[name] += other.seat_sums[name]
        for name in self.game_events:
            self.game_sums[name] += other.game_sums[name]
        self.actions_hist = _add_hist(self.actions_hist, other.actions_hist)
        return self

    def actions_quantile(self, q: float) -> float:
        """The q-quantile of actions per game (the lower value at a tie, as numpy's 'lower')."""
        total = self.actions_hist.sum()
        if total == 0:
            return float("nan")
        cum = np.cumsum(self.actions_hist)
        return float(np.searchsorted(cum, q * (total - 1), side="right"))

    def mean_actions(self) -> float:
        total = self.actions_hist.sum()
        return float((self.actions_hist * np.arange(self.actions_hist.size)).sum() / total) if total else float("nan")


def _add_hist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if b.size > a.size:
        a, b = b.astype(np.int64), a
    else:
        a = a.copy()
    a[: b.size] += b
    return a
