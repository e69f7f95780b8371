"""A sweep's plays: the seat arrangements every setting is played in, the swept seat's per-deal
values averaged over them (Plays), and a setting's row of estimates against the baseline.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyser.analyses.seatings import is_team_game, neighbour_orders, rotations, seat_groups
from analyser.errors import UserError
from analyser.io.jsonable import jsonable
from analyser.stats.intervals import Z95, differences_ci, exact, mean_ci
from analyser.stats.paired import WIN_RANGE, abort_bounds, abort_values, aborted_plays, bound_cells


def sweep_arrangements(teams, lineup: list[str] | None = None) -> tuple[list[list[int]], str]:
    """The rotations of the line-up over the seats (the teams, in a team game): per arrangement, the
    line-up seat whose policy instance sits on each seat, which is also that seat's stream id. When the
    other seats (teams) hold two or more different policies (``lineup``: a label per seat, the swept
    seat's included), who sits after whom matters, so each neighbour-balanced cyclic order of the
    line-up (analyser.analyses.seatings.neighbour_orders) is played in each rotation."""
    groups = seat_groups(teams)
    mixed = lineup is not None and len({lineup[g[0]] for g in groups}) > 2
    orders = neighbour_orders(len(groups)) if mixed else [tuple(range(len(groups)))]
    homes = [ids for order in orders for _, ids in rotations(list(order), groups, homes=order)]
    name = f"rotations of {len(orders)} neighbour-balanced orders of the line-up" if mixed else \
        "rotations of the line-up"
    return homes, name + (" over the teams" if is_team_game(groups) else "")


@dataclass(frozen=True)
class Plays:
    """Per deal, the swept seat's win share, score, rank, the draw and the average seat's win share,
    each averaged over the arrangements (``exact``: no float residues), and whether any arrangement aborted."""
    win: np.ndarray
    score: np.ndarray
    rank: np.ndarray
    draw: np.ndarray
    seats: np.ndarray
    aborted: np.ndarray
    win_done: np.ndarray        # the win share averaged over the arrangements, the aborted ones as 0
    missing: np.ndarray         # the share of the arrangements that aborted

    @classmethod
    def of(cls, records: list[np.ndarray], positions: list[int], players: int) -> Plays:
        """``records[k]``: arrangement k's records of one block of deals; the swept seat sits at positions[k]."""
        def mean(values):
            return exact(np.mean([values(r, p) for r, p in zip(records, positions, strict=True)], axis=0))

        cut = aborted_plays(records)
        return cls(mean(lambda r, p: r["win"][:, p]), mean(lambda r, p: r["score"][:, p]),
                   mean(lambda r, p: r["rank"][:, p]), mean(lambda r, p: r["draw"]),
                   mean(lambda r, p: r["win"][:, :players].mean(axis=1)), cut.any(axis=0),
                   mean(lambda r, p: np.where(r["aborted"].astype(bool), 0.0, r["win"][:, p])), cut.mean(axis=0))

    @classmethod
    def concat(cls, blocks: list[Plays]) -> Plays:
        return cls(*(np.concatenate([getattr(b, f.name) for b in blocks]) for f in dataclasses.fields(cls)))


def _diff_se(diff: dict) -> float:
    """The difference's standard error as its interval shows it (the larger side over z; 0 for an exact tie)."""
    return diff["half_width"] / Z95 if diff["n"] >= 2 else float("nan")


def setting_row(plays: Plays, base: Plays, baseline: bool = False) -> dict:
    """A setting's share and score over its kept deals, its paired difference from the baseline
    (``baseline``: the setting is the baseline policy itself, so 0 on every deal is an exact tie), and that
    difference's bounds over all deals (stats.paired.BOUND_COLUMNS: the setting's aborted plays lost and the
    baseline's won, then the other way; none for the baseline itself, whose difference is 0 by construction)."""
    keep = ~plays.aborted
    n = int(keep.sum())
    out = {"games": n, "aborted": int(plays.aborted.sum())}
    for q, bounds in (("win", (0.0, 1.0)), ("score", None)):
        v = getattr(plays, q)[keep]
        mean = float(v.mean()) if n else float("nan")
        low, high = mean_ci(mean, v.var(ddof=1) if n > 1 else np.nan, n, bounds=bounds)
        out[f"{q}_rate" if q == "win" else "score_mean"] = mean
        out[f"{q}_ci_low"], out[f"{q}_ci_high"] = low, high
    both = ~(plays.aborted | base.aborted)
    for q in ("win", "score"):
        a, b = getattr(plays, q)[both], getattr(base, q)[both]
        span = 1.0 if q == "win" else float(max(a.max(), b.max()) - min(a.min(), b.min())) if a.size else None
        d = differences_ci(a - b, span, tie=baseline)
        out[f"{q}_diff"], out[f"{q}_diff_ci_low"], out[f"{q}_diff_ci_high"] = d["mean"], d["low"], d["high"]
        if q == "win":
            out["p_value"] = d["p"]
            out["win_diff_se"], out["identical"] = _diff_se(d), d["identical"] and not baseline
    lost, won = abort_values(exact(plays.win_done - base.win_done), plays.missing, base.missing, *WIN_RANGE)
    out.update(bound_cells(abort_bounds(lost, won, (plays.aborted | base.aborted) & (not baseline), 1.0)))
    out["mean_rank"] = float(plays.rank[keep].mean()) if n else float("nan")
    out["draw_rate"] = float(plays.draw[keep].mean()) if n else float("nan")
    out["seat_share"] = float(plays.seats[keep].mean()) if n else float("nan")
    return {k: jsonable(v) for k, v in out.items()}


def best_index(table: pd.DataFrame, value: str = "win_diff") -> int:
    """The row with the highest ``value`` (the first among equals; NaN never wins)."""
    v = table[value].to_numpy(float)
    if not np.isfinite(v).any():
        raise UserError("no setting completed a single game: no best value")
    return int(np.nanargmax(np.where(np.isfinite(v), v, -np.inf)))
