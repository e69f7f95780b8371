"""The numbers of a balance report, section by section, from the analyser's own runs and statistics.

Nothing here simulates: :mod:`analyser.analyses.report.builder` runs ``simulate``,
``tournament`` and one run per rule value, and hands the results to these
functions, which read them with the existing statistics:

- seat shares, per deal, averaged over the runs of the line-up (one run, or
  one per rotation of a mixed line-up over the seats, so that a seat's share
  is the seat's and not its policy's): intervals from analyser.stats.intervals
  (Wilson within [0, 1] with the variance floor), the fair share (the deal's
  win total over the seats), first-mover advantage and Ludii's Balance as
  analyser.stats.balance defines them;
- a test that every seat (team) has the same win share: a Wald chi-square
  test on the per-deal win shares (below);
- a rule setting's effect: the per-group table of ``vary``
  (:func:`analyser.stats.effects.effect_table`, from the same per-deal group values
  ``vary`` computes), and paired differences of the first mover's win share and
  of length (intervals.differences_ci), each with its p-value;
- policies: the tournament's head-to-head pairs (with p-values), ratings and,
  where the tournament gives them, its fit and the meta-game's equilibrium.

Every p-value here is one test of the report's family, which the builder
adjusts for the false discovery rate (analyser.stats.multiple).
"""
from __future__ import annotations

from collections import Counter
from statistics import NormalDist

import numpy as np
import pandas as pd

from analyser.analyses.seatings import rotations
from analyser.stats.effects import QUANTITIES, EffectTally, effect_table, group_values, outcome_groups
from analyser.stats.intervals import differences_ci, exact, mean_ci

NAN = float("nan")
ALPHA = 0.05
TEST_NAME = "Wald chi-square test of equal win shares (per-unit covariance)"
TEST_TEXT = ("H0: every {what} has the same mean win share. With x_u the vector of the {what}s' win shares in "
             "completed unit u, m its mean and S its sample covariance over the n units, the statistic is "
             "(C m)' (C (S + I/n) C' / n)^-1 (C m) with C the differences from the first {what} and I/n the "
             "variance floor of every interval here; chi-square with {what}s - 1 degrees of freedom. The "
             "covariance carries the dependence between the {what}s of one unit: their win shares add up to the "
             "unit's total, so they are not independent.")


def groups_of(result) -> list[tuple[str, tuple[int, ...]]]:
    """``[("seat 0", (0,)), ...]``, or the teams of a team game (as ``vary`` groups seats)."""
    return outcome_groups(result.game, result.tally.players)


def rotated_lineups(seats: list, groups: list[tuple[str, tuple[int, ...]]]) -> list[tuple[list, list[int]]]:
    """Every distinct rotation of a line-up over the groups (teams as teams: rotation r puts the policy of
    group g's k-th seat on group g + r's k-th seat), each seat's policy with the stream id of its home seat,
    so a policy keeps its own draws wherever it sits. Each seat then holds every policy of the line-up
    equally often; identical rotations are played once (the rest stay balanced)."""
    members = [list(g) for _, g in groups]
    out, seen = [], set()
    for _, home in rotations(list(range(len(members))), members):     # the stream ids are the home seats
        key = tuple(seats[h].label() for h in home)
        if key not in seen:
            seen.add(key)
            out.append(([seats[h] for h in home], home))
    return out


def equal_shares_test(values: np.ndarray) -> dict:
    """Wald chi-square test that the columns of ``values`` (units x groups) have equal means (see TEST_TEXT).

    The covariance is floored as every variance is (intervals.floored_var): S + I/n, so a share that is
    nearly constant (three savers beside one random, rotated: every seat wins 3/4 in almost every deal)
    cannot make a direction of the test nearly free of noise and its statistic huge; exactly equal means
    give 0."""
    from scipy.stats import chi2

    values = np.asarray(values, float)
    n, g = values.shape
    if n < 2 or g < 2:
        return {"test": TEST_NAME, "statistic": NAN, "df": 0, "p_value": NAN, "units": n}
    contrast = np.hstack([-np.ones((g - 1, 1)), np.eye(g - 1)])
    diff = exact(contrast @ values.mean(axis=0))
    cov = contrast @ (np.atleast_2d(np.cov(values, rowvar=False)) + np.eye(g) / n) @ contrast.T / n
    stat = float(diff @ np.linalg.solve(cov, diff))
    return {"test": TEST_NAME, "statistic": stat, "df": g - 1, "p_value": float(chi2.sf(stat, g - 1)), "units": n}


def seat_summary(results: list) -> dict:
    """The seats section of one line-up: ``results`` are its runs on the same deals (one, or one per
    rotation of a mixed line-up), and every figure is per deal, averaged over them: each seat's (team's)
    win share x_g, its interval and its excess over the fair share, the test that every seat has the same
    share, the first mover's advantage, Balance, mean length. A deal aborted in any run is dropped."""
    first = results[0]
    groups = groups_of(first)
    ok = ~np.any([r.records["aborted"].astype(bool) for r in results], axis=0)
    recs = [r.records[ok] for r in results]
    win = QUANTITIES.index("win")
    x = exact(np.mean([group_values(rec, groups)[:, win, :] for rec in recs], axis=0)) if ok.any() else \
        np.zeros((len(groups), 0))
    fair_d = x.sum(axis=0) / len(groups)                 # per deal: what each seat wins if none is favoured
    fair = float(fair_d.mean()) if fair_d.size else NAN
    labels = [list(r.meta["policies"]) for r in results]
    frame = seat_frame(x, groups, labels, fair)
    players = first.tally.players
    f = np.mean([first_mover_share(rec, players) for rec in recs], axis=0) if ok.any() else np.zeros(0)
    worst = frame.iloc[int(np.argmax(np.abs(frame["excess"].to_numpy(float))))] if len(frame) and \
        np.isfinite(fair) else None
    withheld = starter_depends_on_play(recs, labels, players)
    fm = first_mover(f if withheld is None else np.zeros(0), f - fair_d)
    if withheld is not None:
        fm["withheld"] = withheld
    return {"frame": frame, "test": equal_shares_test(x.T), "fair_share": fair,
            "first_mover": fm, "balance": balance_of(x),
            "length_mean": float(np.mean([rec["length"].mean() for rec in recs])) if ok.any() else NAN,
            "units": int(ok.size), "completed": int(ok.sum()), "aborted": int((~ok).sum()),
            "draw_rate": float(np.mean([rec["draw"].mean() for rec in recs])) if ok.any() else NAN,
            "worst": None if worst is None else worst.to_dict(), "rotations": len(results),
            "what": "team" if first.game.teams else "seat"}


def seat_frame(x: np.ndarray, groups, labels: list[list[str]], fair: float) -> pd.DataFrame:
    """One row per seat (team) from its per-deal shares x (groups x deals): the win share with its 95%
    interval (intervals.mean_ci within [0, 1]: Wilson's for 0/1 values, with the variance floor), the fair
    share, and the excess over it with the interval shifted by the fair share."""
    n = x.shape[1]
    rows = []
    for g, (name, seats) in enumerate(groups):
        share = float(x[g].mean()) if n else NAN
        low, high = mean_ci(share, float(x[g].var(ddof=1)) if n > 1 else NAN, n, bounds=(0.0, 1.0))
        who = sorted({" + ".join(lineup[s] for s in seats) for lineup in labels})
        rows.append({"group": name, "seats": ",".join(map(str, seats)),
                     "policies": who[0] if len(who) == 1 else "each in turn: " + ", ".join(who), "units": n,
                     "win_share": share, "ci_low": low, "ci_high": high, "fair_share": fair,
                     "excess": share - fair, "excess_ci_low": low - fair, "excess_ci_high": high - fair,
                     "finding": "below fair" if high < fair else "above fair" if low > fair else "fair within noise"})
    return pd.DataFrame(rows)


def starter_depends_on_play(recs: list[np.ndarray], labels: list[list[str]], players: int) -> str | None:
    """Why the first mover cannot be judged for a rotated mixed line-up, or None when it can.

    Rotating the line-up makes the first mover a seat's effect only if the same seat moves first in every
    rotation of a deal (a starter fixed by the seat or the cards). Where the policies' own play decides who
    starts (Palace: the lowest card in hand after the swaps), the first mover's share is a policy effect."""
    if len(recs) < 2 or not recs[0].size or "first" not in (recs[0].dtype.names or ()):
        return None
    firsts = np.array([rec["first"] for rec in recs], dtype=np.intp)          # rotations x deals
    moved = np.any(firsts != firsts[0], axis=0)
    if not moved.any():
        return None
    who = Counter(labels[r][seat] for r in range(len(recs)) for seat in firsts[r] if 0 <= seat < players)
    top, k = who.most_common(1)[0]
    return (f"The first mover is not judged: with different policies in the line-up, who moves first depends on "
            f"their play (the starting seat changed with the rotation on {100 * moved.mean():.0f}% of the deals, "
            f"and {top} moved first in {100 * k / sum(who.values()):.0f}% of the plays), so the first mover's "
            f"share would be the policies' difference, not the seat's; a report with one policy in every seat "
            f"measures it.")


def first_mover(share: np.ndarray, advantage: np.ndarray) -> dict:
    """The first mover's win share per deal and its advantage over the deal's fair share: means, 95%
    intervals (within [0, 1], intervals.mean_ci; the advantage's score interval within [-1, 1],
    intervals.differences_ci) and the advantage's p-value."""
    share = share[np.isfinite(share)]
    n = share.size
    if n < 2:
        return {"first_mover_units": n, "first_mover_win_rate": NAN, "first_mover_win_ci_low": NAN,
                "first_mover_win_ci_high": NAN, "advantage": NAN, "advantage_ci_low": NAN,
                "advantage_ci_high": NAN, "advantage_p": NAN}
    rate = float(share.mean())
    low, high = mean_ci(rate, float(share.var(ddof=1)), n, bounds=(0.0, 1.0))
    adv = differences_ci(advantage, 1.0)
    return {"first_mover_units": n, "first_mover_win_rate": rate, "first_mover_win_ci_low": low,
            "first_mover_win_ci_high": high, "advantage": adv["mean"], "advantage_ci_low": adv["low"],
            "advantage_ci_high": adv["high"], "advantage_p": adv["p"]}


def balance_of(x: np.ndarray) -> dict:
    """Ludii's Balance, 1 minus the largest gap between seats' win shares, with the conservative
    simultaneous interval of analyser.stats.balance (Bonferroni intervals of the shares, here the floored
    ones of mean_ci), from per-deal shares x (groups x deals)."""
    g, n = x.shape
    if n < 2 or g < 2:
        return {"balance": NAN, "balance_ci_low": NAN, "balance_ci_high": NAN, "balance_gap": NAN}
    z = NormalDist().inv_cdf(1 - 0.025 / g)
    share = x.mean(axis=1)
    low, high = mean_ci(share, x.var(axis=1, ddof=1), np.full(g, n), z=z, bounds=(0.0, 1.0))
    gap = float(share.max() - share.min())
    gap_low, gap_high = max(0.0, float(low.max() - high.min())), min(1.0, float(high.max() - low.min()))
    return {"balance": 1.0 - gap, "balance_ci_low": 1.0 - gap_high, "balance_ci_high": 1.0 - gap_low,
            "balance_gap": gap}


def player_count_row(players: int, summary: dict) -> dict:
    """One row of the player counts table."""
    fm, test, worst = summary["first_mover"], summary["test"], summary["worst"] or {}
    return {"players": players, "units": summary["units"], "aborted": summary["aborted"],
            "fair_share": summary["fair_share"],
            "first_mover_win_share": fm["first_mover_win_rate"], "first_mover_ci_low": fm["first_mover_win_ci_low"],
            "first_mover_ci_high": fm["first_mover_win_ci_high"], "advantage": fm["advantage"],
            "advantage_ci_low": fm["advantage_ci_low"], "advantage_ci_high": fm["advantage_ci_high"],
            "advantage_p": fm["advantage_p"], "rotations": summary["rotations"],
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


def paired(values: np.ndarray, span: float) -> dict:
    """Mean of per-deal differences with its paired 95% interval (intervals.differences_ci: exact values,
    Tango's score interval on the deals where they are not 0, within [-span, span]; 0 everywhere: the interval
    of the deals not seen, never [0, 0], for the values differ) and its two-sided p-value."""
    v = differences_ci(values, span)
    return {"change": v["mean"], "ci_low": v["low"], "ci_high": v["high"], "p": v["p"]}


def rule_effect(spec, values: list[int], results: list, base_config) -> dict:
    """One setting's effect, ``results[k]`` the run under ``values[k]`` (the first: the report's own
    setting) on the same deals. Per group: vary's table (win share and score under each value, the
    paired change from the first value). Per later value: the paired change in the first mover's win
    share and in length, and each value's Balance and first-mover advantage (stats.balance)."""
    players = base_config.players
    groups = groups_of(results[0])
    recs = [r.records for r in results]
    ok = ~np.any([r["aborted"].astype(bool) for r in recs], axis=0)
    tally = EffectTally(len(values), groups).add(recs)
    kept = tally.kept
    labels = [seat.label() for seat in base_config.seats]
    table = effect_table(tally, labels, [spec.show(v) for v in values]) if kept else None
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
                       first_mover_change_p=NAN, length_change=NAN, length_change_ci_low=NAN,
                       length_change_ci_high=NAN, length_change_p=NAN, largest_group_change_group=None,
                       largest_group_change=NAN, largest_group_change_ci_low=NAN, largest_group_change_ci_high=NAN)
        else:
            fm = paired(first_mover_share(recs[k][ok], players) - base_first, 1.0)
            length = recs[k]["length"][ok].astype(float)
            ln = paired(length - base_length, float(np.ptp(np.concatenate([length, base_length]))) if kept else NAN)
            row.update(first_mover_change=fm["change"], first_mover_change_ci_low=fm["ci_low"],
                       first_mover_change_ci_high=fm["ci_high"], first_mover_change_p=fm["p"],
                       length_change=ln["change"], length_change_ci_low=ln["ci_low"],
                       length_change_ci_high=ln["ci_high"], length_change_p=ln["p"])
            row.update(_largest_change(table, str(spec.show(value))))
        rows.append(row)
    return {"setting": spec.name, "kind": spec.kind, "values": [str(spec.show(v)) for v in values],
            "frame": pd.DataFrame(rows), "groups": table}


def _largest_change(table: pd.DataFrame | None, value: str) -> dict:
    """The group whose win share the value moved most (vary's paired change and interval)."""
    empty = {"largest_group_change_group": None, "largest_group_change": NAN, "largest_group_change_ci_low": NAN,
             "largest_group_change_ci_high": NAN, "largest_group_change_p": NAN}
    if table is None:
        return empty
    rows = table[table["value"] == value]
    if rows.empty or rows["win_diff"].isna().all():
        return empty
    row = rows.loc[rows["win_diff"].abs().idxmax()]
    return {"largest_group_change_group": row["group"], "largest_group_change": row["win_diff"],
            "largest_group_change_ci_low": row["win_diff_ci_low"],
            "largest_group_change_ci_high": row["win_diff_ci_high"], "largest_group_change_p": row["win_diff_p"]}


def setting_values(spec, current: int) -> list[int]:
    """The values a report tries: the current one first, then every other value of an on/off or choice
    setting, or of a whole-number one its declared ``report_values`` (else one step either side, in range)."""
    if spec.kind == "bool":
        others = range(2)
    elif spec.kind == "choice":
        others = range(len(spec.options))
    else:
        others = spec.report_values or [v for v in (current - 1, current + 1) if spec.low <= v <= spec.high]
    return [current] + [v for v in others if v != current]


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
    """The policies section: the tournament's head-to-head matrix and pairs (each pair's p-value from its
    paired interval), its ratings, best against runner-up, and, where the tournament gives them, the
    ratings' fit, the meta-game's equilibrium and the names that are one policy; ``answer``: which policy
    to play, in one line (analyses.tournament_answer)."""
    ratings = league.ratings
    best, second = ratings["policy"].iloc[0], ratings["policy"].iloc[1]
    pairs = league.pairs.copy()           # p_value: the score test of each pair's interval
    row = pairs[((pairs["a"] == best) & (pairs["b"] == second)) | ((pairs["a"] == second) & (pairs["b"] == best))]
    duel = {}
    if not row.empty:
        r = row.iloc[0]
        sign = 1 if r["a"] == best else -1
        lo, hi = sorted((sign * r["ci_low"], sign * r["ci_high"]))
        duel = {"best": best, "second": second, "win_diff": sign * r["win_diff"], "ci_low": lo, "ci_high": hi,
                "best_share": r["a_win_share"] if sign == 1 else r["b_win_share"],
                "second_share": r["b_win_share"] if sign == 1 else r["a_win_share"], "pair": int(row.index[0])}
    worst = ratings["policy"].iloc[-1]
    return {"ratings": ratings, "matrix": league.matrix, "ci_low": league.ci_low, "ci_high": league.ci_high,
            "pairs": pairs, "duel": duel, "best": best, "worst": worst, "model": league.meta["model"],
            "fair_share": league.meta.get("fair_share"), "fit": getattr(league, "fit", None),
            "equilibrium": getattr(league, "equilibrium", None), "same": list(getattr(league, "same", None) or []),
            "answer": league.answer()}
