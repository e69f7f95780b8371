"""Summary tables of a tally: per seat, per policy, and the run's own figures.

Rates are over completed games (aborted games are counted and reported
separately, never folded into a rate); event means are per deal.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.stats.intervals import wilson
from analyser.stats.tally import Tally


def _rate_columns(wins, losers, games, place_sum) -> dict:
    safe = np.where(games > 0, games, 1)
    win_lo, win_hi = wilson(wins, games)
    lose_lo, lose_hi = wilson(losers, games)
    return {
        "games": games,
        "win_rate": np.where(games > 0, wins / safe, np.nan),
        "win_ci_low": win_lo,
        "win_ci_high": win_hi,
        "loser_rate": np.where(games > 0, losers / safe, np.nan),
        "loser_ci_low": lose_lo,
        "loser_ci_high": lose_hi,
        "mean_place": np.where(games > 0, place_sum / safe, np.nan),
    }


def seat_table(tally: Tally, labels: list[str]) -> pd.DataFrame:
    """One row per seat: policy, games, win and loser rates with 95% Wilson intervals, mean place."""
    p = tally.players
    games = tally.places[:, 1:].sum(axis=1)
    place_sum = (tally.places * np.arange(p + 1)).sum(axis=1)
    cols = {"seat": np.arange(p), "policy": labels}
    cols.update(_rate_columns(tally.wins, tally.places[:, p], games, place_sum))
    for name in tally.seat_events:
        cols[f"{name}_per_game"] = tally.seat_sums[name] / max(tally.deals, 1)
    return pd.DataFrame(cols)


def policy_table(tally: Tally, labels: list[str]) -> pd.DataFrame:
    """Seats grouped by policy (with its parameters): the same columns, pooled."""
    p = tally.players
    rows = []
    for label in dict.fromkeys(labels):
        seats = [s for s in range(p) if labels[s] == label]
        games = tally.places[seats, 1:].sum()
        place_sum = (tally.places[seats] * np.arange(p + 1)).sum()
        row = {"policy": label, "seats": ",".join(map(str, seats))}
        row.update({k: v.item() if isinstance(v, np.ndarray) else v for k, v in _rate_columns(
            np.array(tally.wins[seats].sum()), np.array(tally.places[seats, p].sum()),
            np.array(games), np.array(place_sum)).items()})
        for name in tally.seat_events:
            row[f"{name}_per_game"] = tally.seat_sums[name][seats].sum() / max(tally.deals * len(seats), 1)
        rows.append(row)
    return pd.DataFrame(rows)


def run_figures(tally: Tally, seconds: float | None) -> dict:
    """Per-run figures: actions per game (mean, median, 95th percentile), events, speed."""
    deals = max(tally.deals, 1)
    out = {
        "deals": tally.deals,
        "completed": tally.completed,
        "aborted": tally.aborted,
        "actions_mean": tally.mean_actions(),
        "actions_median": tally.actions_quantile(0.5),
        "actions_p95": tally.actions_quantile(0.95),
    }
    for name in tally.game_events:
        if name != "actions":
            out[f"{name}_per_game"] = tally.game_sums[name] / deals
    for name in tally.seat_events:
        total = int(tally.seat_sums[name].sum())
        out[f"{name}_total"] = total
        out[f"{name}_per_game"] = total / deals
    if seconds:
        out["seconds"] = seconds
        out["games_per_second"] = tally.deals / seconds
        if "decisions" in tally.game_sums:
            out["decisions_per_second"] = tally.game_sums["decisions"] / seconds
    return out
