"""The numbers of a balance report, section by section, from the analyser's own runs and statistics.

Nothing here simulates: :mod:`analyser.reports.builder` runs ``simulate``,
``tournament`` and one run per rule value, and hands the results to these
functions, which read them with the existing statistics:

- seat shares and their intervals: the per-seat (per-team) tables of
  :mod:`analyser.stats.summary` (Wilson's interval for a 0/1 win share, the
  normal one otherwise); the fair share, first-mover advantage and Balance:
  :mod:`analyser.stats.balance`;
- the one figure added here, a test that every seat (team) has the same win
  share: a Wald chi-square test on the per-unit win shares (below);
- a rule setting's effect: the per-group table of ``vary``
  (:func:`analyser.rule_effects.effect_table`, from the same per-deal group values
  ``vary`` computes), and paired differences of the first mover's win share and
  of length with :func:`analyser.stats.paired.mean_half_width`;
- policies: the tournament's Bradley-Terry ratings and head-to-head pairs.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd

from analyser.rule_effects import QUANTITIES, effect_table, group_values, outcome_groups
from analyser.stats.balance import fair_share
from analyser.stats.intervals import Z95
from analyser.stats.paired import mean_half_width

NAN = float("nan")
ALPHA = 0.05
TEST_NAME = "Wald chi-square test of equal win shares (per-unit covariance)"
TEST_TEXT = ("H0: every {what} has the same mean win share. With x_u the vector of the {what}s' win shares in "
             "completed unit u, m its mean and S its sample covariance over the n units, the statistic is "
             "(C m)' (C S C' / n)^+ (C m) with C the differences from the first {what}; chi-square with "
             "rank(C S C') degrees of freedom (players - 1, or teams - 1). The covariance carries the "
             "dependence between seats of one unit (in Palace, for one, exactly one seat loses).")


def groups_of(result) -> list[tuple[str, tuple[int, ...]]]:
    """``[("seat 0", (0,)), ...]``, or the teams of a team game (as ``vary`` groups seats)."""
    return outcome_groups(SimpleNamespace(game=result.game, players=result.tally.players))


def completed(records: np.ndarray) -> np.ndarray:
    return records[~records["aborted"].astype(bool)]


def equal_shares_test(values: np.ndarray) -> dict:
    """Wald chi-square test that the columns of ``values`` (units x groups) have equal means (see TEST_TEXT)."""
    from scipy.stats import chi2

    values = np.asarray(values, float)
    n, g = values.shape
    if n < 2 or g < 2:
        return {"test": TEST_NAME, "statistic": NAN, "df": 0, "p_value": NAN, "units": n}
    contrast = np.hstack([-np.ones((g - 1, 1)), np.eye(g - 1)])
    diff = contrast @ values.mean(axis=0)
    cov = contrast @ np.atleast_2d(np.cov(values, rowvar=False)) @ contrast.T / n
    df = int(np.linalg.matrix_rank(cov)) if np.any(cov) else 0
    if df == 0:       # no spread at all: equal means are certain if the means are equal, else excluded
        same = bool(np.allclose(diff, 0))
        return {"test": TEST_NAME, "statistic": 0.0 if same else math.inf, "df": 0,
                "p_value": 1.0 if same else 0.0, "units": n}
    stat = float(diff @ np.linalg.pinv(cov) @ diff)
    return {"test": TEST_NAME, "statistic": stat, "df": df, "p_value": float(chi2.sf(stat, df)), "units": n}


def seat_frame(result) -> pd.DataFrame:
    """One row per seat (per team in a team game): win share with its 95% interval (the summary
    table's), the fair share, and the excess over it with the interval shifted by the fair share."""
    fair = fair_share(result.tally)
    table = result.by_team if result.game.teams else result.summary
    groups = groups_of(result)
    rows = []
    for (name, seats), row in zip(groups, table.to_dict("records"), strict=True):
        low, high = row["win_ci_low"], row["win_ci_high"]
        rows.append({"group": name, "seats": ",".join(map(str, seats)),
                     "policies": row.get("policies") or row.get("policy"), "units": int(row["games"]),
                     "win_share": row["win_rate"], "ci_low": low, "ci_high": high, "fair_share": fair,
                     "excess": row["win_rate"] - fair, "excess_ci_low": low - fair, "excess_ci_high": high - fair,
                     "finding": "below fair" if high < fair else "above fair" if low > fair else "fair within noise"})
    return pd.DataFrame(rows)


def seat_summary(result) -> dict:
    """The seats section of one run: the seat frame, the test across seats, the first mover's
    advantage and Balance (stats.balance, through the run's figures), mean length."""
    frame = seat_frame(result)
    groups = groups_of(result)
    done = completed(result.records)
    values = group_values(done, groups)[:, QUANTITIES.index("win"), :].T if done.size else np.zeros((0, 0))
    f = result.figures
    worst = frame.iloc[int(np.argmax(np.abs(frame["excess"].to_numpy(float))))] if len(frame) else None
    return {"frame": frame, "test": equal_shares_test(values), "fair_share": fair_share(result.tally),
            "first_mover": {k: f[k] for k in ("first_mover_units", "first_mover_win_rate", "first_mover_win_ci_low",
                                              "first_mover_win_ci_high", "advantage", "advantage_ci_low",
                                              "advantage_ci_high")},
            "balance": {k: f[k] for k in ("balance", "balance_ci_low", "balance_ci_high", "balance_gap")},
            "length_mean": f["length_mean"], "units": f["units"], "completed": f["completed"],
            "aborted": f["aborted"], "draw_rate": f["draw_rate"],
            "worst": None if worst is None else worst.to_dict(),
            "what": "team" if result.game.teams else "seat"}


def player_count_row(players: int, summary: dict) -> dict:
    """One row of the player counts table."""
    fm, test, worst = summary["first_mover"], summary["test"], summary["worst"] or {}
    return {"players": players, "units": summary["units"], "aborted": summary["aborted"],
            "fair_share": summary["fair_share"],
            "first_mover_win_share": fm["first_mover_win_rate"], "first_mover_ci_low": fm["first_mover_win_ci_low"],
            "first_mover_ci_high": fm["first_mover_win_ci_high"], "advantage": fm["advantage"],
            "advantage_ci_low": fm["advantage_ci_low"], "advantage_ci_high": fm["advantage_ci_high"],
            "balance": summary["balance"]["balance"], "balance_ci_low": summary["balance"]["balance_ci_low"],
            "balance_ci_high": summary["balance"]["balance_ci_high"],
            "chi2": test["statistic"], "df": test["df"], "p_value": test["p_value"],
            "largest_gap_group": worst.get("group"), "largest_gap": worst.get("excess", NAN),
            "largest_gap_ci_low": worst.get("excess_ci_low", NAN),
            "largest_gap_ci_high": worst.get("excess_ci_high", NAN), "length_mean": summary["length_mean"]}


def first_mover_share(records: np.ndarray, players: int) -> np.ndarray:
    """Per record: the win share of the seat that moved first (NaN when the record names none)."""
    if "first" not in (records.dtype.names or ()):
        return np.full(records.size, NAN)
    first = records["first"].astype(np.intp)
    ok = (first >= 0) & (first < players)
    out = np.full(records.size, NAN)
    out[ok] = records["win"][np.flatnonzero(ok), first[ok]]
    return out


def paired(values: np.ndarray) -> dict:
    """Mean of per-deal differences with the paired normal 95% interval (stats.paired.mean_half_width)."""
    mean, _, half = mean_half_width(np.asarray(values, float), Z95)
    return {"change": mean, "ci_low": mean - half, "ci_high": mean + half}


def rule_effect(spec, values: list[int], results: list, base_config) -> dict:
    """One setting's effect, ``results[k]`` the run under ``values[k]`` (the first: the report's own
    setting) on the same deals. Per group: vary's table (win share and score under each value, the
    paired change from the first value). Per later value: the paired change in the first mover's win
    share and in length, and each value's Balance and first-mover advantage (stats.balance)."""
    players = base_config.players
    groups = groups_of(results[0])
    recs = [r.records for r in results]
    ok = ~np.any([r["aborted"].astype(bool) for r in recs], axis=0)
    kept = int(ok.sum())
    x = np.stack([group_values(r[ok], groups) for r in recs])          # value x group x quantity x deal
    sums = np.stack([x.sum(axis=-1), (x * x).sum(axis=-1)], axis=-1)
    d = x - x[:1]
    dsums = np.stack([d.sum(axis=-1), (d * d).sum(axis=-1)], axis=-1)
    table = effect_table(base_config, groups, values, spec, sums, dsums, kept) if kept else None
    base_first = first_mover_share(recs[0][ok], players)
    base_length = recs[0]["length"][ok].astype(float)
    rows = []
    for k, (value, result) in enumerate(zip(values, results, strict=True)):
        f = result.figures
        row = {"setting": spec.name, "value": str(spec.show(value)), "baseline": k == 0, "deals": len(ok),
               "kept": kept, "aborted": int(result.tally.aborted),
               "first_mover_win_share": f["first_mover_win_rate"], "advantage": f["advantage"],
               "advantage_ci_low": f["advantage_ci_low"], "advantage_ci_high": f["advantage_ci_high"],
               "balance": f["balance"], "balance_ci_low": f["balance_ci_low"], "balance_ci_high": f["balance_ci_high"],
               "length_mean": float(recs[k]["length"][ok].mean()) if kept else NAN,
               "identical": k > 0 and bool(np.array_equal(recs[k]["win"][ok], recs[0]["win"][ok])
                                           and np.array_equal(recs[k]["length"][ok], recs[0]["length"][ok]))}
        if k == 0:
            row.update(first_mover_change=NAN, first_mover_change_ci_low=NAN, first_mover_change_ci_high=NAN,
                       length_change=NAN, length_change_ci_low=NAN, length_change_ci_high=NAN,
                       largest_group_change_group=None, largest_group_change=NAN,
                       largest_group_change_ci_low=NAN, largest_group_change_ci_high=NAN)
        else:
            fm = paired(first_mover_share(recs[k][ok], players) - base_first)
            ln = paired(recs[k]["length"][ok].astype(float) - base_length)
            row.update(first_mover_change=fm["change"], first_mover_change_ci_low=fm["ci_low"],
                       first_mover_change_ci_high=fm["ci_high"], length_change=ln["change"],
                       length_change_ci_low=ln["ci_low"], length_change_ci_high=ln["ci_high"])
            row.update(_largest_change(table, str(spec.show(value))))
        rows.append(row)
    return {"setting": spec.name, "kind": spec.kind, "values": [str(spec.show(v)) for v in values],
            "frame": pd.DataFrame(rows), "groups": table}


def _largest_change(table: pd.DataFrame | None, value: str) -> dict:
    """The group whose win share the value moved most (vary's paired change and interval)."""
    empty = {"largest_group_change_group": None, "largest_group_change": NAN, "largest_group_change_ci_low": NAN,
             "largest_group_change_ci_high": NAN}
    if table is None:
        return empty
    rows = table[table["value"] == value]
    if rows.empty or rows["win_diff"].isna().all():
        return empty
    row = rows.loc[rows["win_diff"].abs().idxmax()]
    return {"largest_group_change_group": row["group"], "largest_group_change": row["win_diff"],
            "largest_group_change_ci_low": row["win_diff_ci_low"],
            "largest_group_change_ci_high": row["win_diff_ci_high"]}


def int_values(spec, current: int) -> list[int]:
    """The values tried for a whole-number setting: the current one, then one step either side (in range)."""
    return [current] + [v for v in (current - 1, current + 1) if spec.low <= v <= spec.high]


def skip_reason(spec, fixed: dict | None) -> str | None:
    """Why a setting is left out of the rules section (None: it is varied)."""
    if fixed and spec.name in fixed:
        return "fixed for this unit"
    if spec.name.startswith("max_"):
        return "a cap that stops a unit as aborted, not a rule of play"
    if spec.kind not in ("bool", "choice", "int"):
        return f"a {spec.kind} setting"
    return None


def policy_summary(league) -> dict:
    """The policies section: the tournament's ratings, its head-to-head matrix, and best against runner-up."""
    ratings = league.ratings
    best, second = ratings["policy"].iloc[0], ratings["policy"].iloc[1]
    pairs = league.pairs
    row = pairs[((pairs["a"] == best) & (pairs["b"] == second)) | ((pairs["a"] == second) & (pairs["b"] == best))]
    duel = {}
    if not row.empty:
        r = row.iloc[0]
        sign = 1 if r["a"] == best else -1
        lo, hi = sorted((sign * r["ci_low"], sign * r["ci_high"]))
        duel = {"best": best, "second": second, "win_diff": sign * r["win_diff"], "ci_low": lo, "ci_high": hi,
                "best_share": r["a_win_share"] if sign == 1 else r["b_win_share"],
                "second_share": r["b_win_share"] if sign == 1 else r["a_win_share"]}
    worst = ratings["policy"].iloc[-1]
    return {"ratings": ratings, "matrix": league.matrix, "ci_low": league.ci_low, "ci_high": league.ci_high,
            "pairs": pairs, "duel": duel, "best": best, "worst": worst, "model": league.meta["model"],
            "fair_share": league.meta.get("fair_share")}
