"""The sides of a unit and the one a shape follows: who is estimated, and what counts as their result.

A side is a seat, or a team in a team game (analyser.stats.effects.outcome_groups). The one is the
winner; in a game whose win is "not being the loser" at three or more sides (Palace), the loser, the
one side whose result stands out. Read from the outcome block and the GameSpec alone.
"""
from __future__ import annotations

import numpy as np

from analyser.stats.effects import group_values, outcome_groups


def orientation(spec, players: int) -> str:
    """"loser" when a decided unit has one loser and every other side wins (Palace at 3+), else "winner"."""
    groups = outcome_groups(spec, players)
    per_group = spec.win_total(players) / (players / len(groups))
    return "loser" if len(groups) > 2 and round(per_group) == len(groups) - 1 else "winner"


def targets(records: np.ndarray, spec, players: int) -> np.ndarray:
    """Per record and side, its share of being the one (rows sum to 1; all 0 for a drawn or aborted unit)."""
    groups = outcome_groups(spec, players)
    win = group_values(records, groups)[:, 0, :].T          # units x sides: each side's win share
    if orientation(spec, players) == "loser":
        y = np.where(records["aborted"][:, None], 0.0, 1.0 - win)
    else:
        y = win
    total = y.sum(axis=1, keepdims=True)
    return np.where(total > 0, y / np.where(total > 0, total, 1.0), 0.0)


def group_features(x: np.ndarray, spec, players: int) -> np.ndarray:
    """Features per seat (..., seats, k) as features per side: a team's the mean of its seats'."""
    return np.stack([x[..., list(seats), :].mean(axis=-2) for _, seats in outcome_groups(spec, players)], axis=-2)
