"""Summary tables of a tally: per seat, per policy, per team, and the run's own figures.

Every table reads the outcome block: games (completed units), win share with a
95% interval, draw rate, mean score with a 95% interval, mean rank; then the
game's own columns (a rate with its interval, or a mean per unit). Rates and
means are over completed units; aborted units are counted and shown apart.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.stats.balance import balance_figures
from analyser.stats.intervals import mean_interval, wilson
from analyser.stats.tally import Tally


def pooling(unit: str = "game") -> dict[str, str]:
    """How each table pools seats, in words (for titles, captions and JSON)."""
    return {
        "seat": "each seat alone",
        "policy": f"a policy's value in a {unit} is the mean over its seats in that {unit}; "
                  f"one {unit}, one observation",
        "team": f"partners share one result; one {unit}, one observation",
    }


def _share(tally: Tally, part: str, q: str):
    """Mean of a [0, 1] quantity with its interval: Wilson's for a rate (every value
    0 or 1), else the normal interval clipped to [0, 1] (width 0 without spread)."""
    n = tally.completed
    mean, sd = tally.mean_and_sd(part, q)
    w_low, w_high = wilson(np.clip(tally.sums[part, q], 0, n), np.full(mean.shape, n))   # used where binary
    m_low, m_high = mean_interval(mean, sd, n)
    binary = tally.is_binary(part, q)
    low = np.where(binary, w_low, np.clip(m_low, 0.0, 1.0))
    high = np.where(binary, w_high, np.clip(m_high, 0.0, 1.0))
    return mean, low, high


def group_table(tally: Tally, part: str, unit: str = "game") -> pd.DataFrame:
    """One row per group of the partition ``part`` (seat, policy or team)."""
    n = tally.completed
    cols = {"games": np.full(len(tally.groups[part]), n)}
    cols["win_rate"], cols["win_ci_low"], cols["win_ci_high"] = _share(tally, part, "win")
    cols["draw_rate"] = np.full(len(tally.groups[part]), tally.draws / n if n else np.nan)
    score, score_sd = tally.mean_and_sd(part, "score")
    cols["score_mean"] = score
    low, high = mean_interval(score, score_sd, n)
    binary = tally.is_binary(part, "score")          # a 0/1 score (Palace's) is a rate: Wilson's interval
    w_low, w_high = wilson(np.clip(tally.sums[part, "score"], 0, n), np.full(score.shape, n))
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
