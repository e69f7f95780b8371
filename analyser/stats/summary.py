"""Summary tables of a tally: per seat, per policy, per team, and the run's own figures.

Every table reads the outcome block: games (completed units), win share with a
95% interval (Wilson's for 0/1 shares, else within [0, 1] with the variance
floor: tally.share_interval), draw rate, mean score with a 95% interval, mean rank; then the
game's own columns (a rate with its interval, or a mean per unit). Rates and
means are over completed units; aborted units are counted and shown apart.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.stats.balance import balance_figures
from analyser.stats.intervals import mean_interval
from analyser.stats.tally import Tally, share_interval


def pooling(unit: str = "game") -> dict[str, str]:
    """How each table pools seats, in words (for titles, captions and JSON)."""
    return {
        "seat": "each seat alone",
        "policy": f"a policy's value in a {unit} is the mean over its seats in that {unit}; "
                  f"one {unit}, one observation",
        "team": f"partners share one result; one {unit}, one observation",
    }


def _share(tally: Tally, part: str, q: str):
    """Mean of a [0, 1] quantity with its interval (tally.share_interval: Wilson's for a rate,
    else the effective-n Wilson interval with the variance floor, never of width 0)."""
    low, high = share_interval(tally.sums[part, q], tally.squares[part, q], tally.completed, whole=_whole(tally, part))
    return tally.mean_and_sd(part, q)[0], low, high


def _whole(tally: Tally, part: str) -> np.ndarray:
    """Per group: does it hold every seat (its pooled share is then the game's win total / players)?"""
    return np.array([len(g) == tally.players for g in tally.groups[part]])


def group_table(tally: Tally, part: str, unit: str = "game") -> pd.DataFrame:
    """One row per group of the partition ``part`` (seat, policy or team)."""
    n = tally.completed
    cols = {"games": np.full(len(tally.groups[part]), n)}
    cols["win_rate"], cols["win_ci_low"], cols["win_ci_high"] = _share(tally, part, "win")
    cols["draw_rate"] = np.full(len(tally.groups[part]), tally.draws / n if n else np.nan)
    score, score_sd = tally.mean_and_sd(part, "score")
    cols["score_mean"] = score
    low, high = mean_interval(score, score_sd, n)   # the variance floor: never of width 0
    fixed = _whole(tally, part) & (score_sd == 0)    # every seat's total: fixed by the game (see share_interval)
    low, high = np.where(fixed, score, low), np.where(fixed, score, high)
    binary = tally.is_binary(part, "score")          # a 0/1 score (Palace's) is a rate: Wilson's interval
    w_low, w_high = share_interval(tally.sums[part, "score"], tally.squares[part, "score"], n)
    cols["score_ci_low"], cols["score_ci_high"] = np.where(binary, w_low, low), np.where(binary, w_high, high)
    cols["mean_rank"] = tally.mean_and_sd(part, "rank")[0]
    for name in tally.seat_quantities:
        if name in ("win", "score", "rank"):
            continue
        col = tally.columns[name]
        if col.kind == "rate":
            cols[f"{name}_rate"], cols[f"{name}_ci_low"], cols[f"{name}_ci_high"] = _share(tally, part, name)
        else:
            cols[f"{name}_per_{unit}"] = tally.mean_and_sd(part, name)[0]
    return pd.DataFrame(cols)


def seat_table(tally: Tally, labels: list[str], teams: tuple[int, ...] | None = None,
               unit: str = "game") -> pd.DataFrame:
    """One row per seat: its policy (and team), then the group columns."""
    head = {"seat": np.arange(tally.players), "policy": labels}
    if teams is not None:
        head["team"] = list(teams)
    return pd.concat([pd.DataFrame(head), group_table(tally, "seat", unit)], axis=1)


def policy_table(tally: Tally, labels: list[str], unit: str = "game") -> pd.DataFrame:
    """One row per policy label: its seats pooled per record (see pooling())."""
    groups = tally.groups["policy"]
    head = {"policy": [labels[g[0]] for g in groups], "seats": [",".join(map(str, g)) for g in groups]}
    return pd.concat([pd.DataFrame(head), group_table(tally, "policy", unit)], axis=1)


def team_table(tally: Tally, labels: list[str], unit: str = "game") -> pd.DataFrame | None:
    """One row per team (None for a game without teams)."""
    if "team" not in tally.groups:
        return None
    groups = tally.groups["team"]
    head = {"team": list(range(len(groups))), "seats": [",".join(map(str, g)) for g in groups],
            "policies": [" + ".join(labels[s] for s in g) for g in groups]}
    return pd.concat([pd.DataFrame(head), group_table(tally, "team", unit)], axis=1)


def run_figures(tally: Tally, seconds: float | None = None, sim_seconds: float | None = None) -> dict:
    """Per-run figures: units completed and aborted, draws, length (mean, sd,
    median, 95th percentile; completed units), the game's per-unit columns, then
    seat and game balance under Ludii's names (completion, drawishness, duration,
    first-player advantage, Balance, decision moves, shared wins: see
    analyser.stats.balance), speed. ``seconds`` is end to end (simulation, tally,
    writing); ``sim_seconds`` the simulation alone."""
    done = tally.completed
    length_mean, length_sd = tally.length_mean_sd()
    out = {
        "units": tally.units,
        "completed": done,
        "aborted": tally.aborted,
        "aborted_share": tally.aborted / tally.units if tally.units else float("nan"),
        "aborted_length_mean": tally.aborted_length / tally.aborted if tally.aborted else float("nan"),
        "draws": tally.draws,
        "draw_rate": tally.draws / done if done else float("nan"),
        "length_mean": length_mean,
        "length_sd": length_sd,
        "length_median": tally.length_quantile(0.5),
        "length_p95": tally.length_quantile(0.95),
    }
    for name in tally.unit_quantities:
        out[f"{name}_mean"] = tally.unit_mean(name)
    out.update(balance_figures(tally))
    if seconds:
        out["seconds"] = seconds
        out["units_per_second"] = tally.units / seconds
    if sim_seconds:
        out["simulation_seconds"] = sim_seconds
        out["simulation_units_per_second"] = tally.units / sim_seconds
    return out
