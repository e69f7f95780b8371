"""Toy games of known relative skill and luck share, as per-deal values for analyser.stats.skill.

They let the statistics be checked where the truth is known (tests/stats/test_skill.py and the
coverage over seeds of benchmarks/calibrate_skill.py), without a game to simulate.

``skill_toy(p)``: each deal is, with probability p, a game of skill, else a coin to call. In a game of
skill the strong player and the open-cards one always beat the field and the beginner does half the
time; at a coin, the strong player and the beginner call it right half the time and the open player,
who sees it, always. Results are wins (0 or 1) against the field, so LE = p / 2, RE = (1 - p) / 2 and
RS = p exactly: 0 is the coin-flip toy, 1 the toy without chance.

``luck_toy(icc)``: a two-seat game whose deal gives seat 0 a chance q ~ Beta(a, a) to win, with
a = (1 / icc - 1) / 2, every replay of the deal a fresh draw with that chance; seat 1 wins otherwise.
The share of a seat's win variance that is the deal's is var(q) / (1/4) = 1 / (2a + 1) = icc (1: a deal
decides the winner by a fair coin, 0: q = 1/2 always).
"""
from __future__ import annotations

import numpy as np


def skill_toy(p: float, deals: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(beginner, strong, open) wins per deal of the p-deterministic toy (module docstring); its RS is p."""
    skill = rng.random(deals) < p
    beginner = (rng.random(deals) < 0.5).astype(float)
    called = (rng.random(deals) < 0.5).astype(float)
    strong = np.where(skill, 1.0, called)
    return beginner, strong, np.ones(deals)


def luck_toy(icc: float, deals: int, replays: int, rng: np.random.Generator) -> np.ndarray:
    """Win shares (deals, replays, 2 seats) of the toy whose luck share is ``icc`` (module docstring)."""
    if icc >= 1:
        chance = (rng.random(deals) < 0.5).astype(float)
    elif icc <= 0:
        chance = np.full(deals, 0.5)
    else:
        a = (1 / icc - 1) / 2
        chance = rng.beta(a, a, deals)
    won = (rng.random((deals, replays)) < chance[:, None]).astype(float)
    return np.stack([won, 1 - won], axis=-1)
