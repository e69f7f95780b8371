"""What every analysis says about aborted units, written once: the line with the bounds of a difference
over all deals (stats.paired.abort_bounds: every aborted play lost by the first side, then won by it), the
seat values those bounds put aborted plays at, and the one error when too few deals completed.

The headline of a comparison is over completed deals only; when more than ABORT_LIMIT of the deals aborted,
that can flatter the side whose deals loop, so compare, tournament, sweep and vary print the bounds beside
it (their tables and JSON carry them as columns, stats.paired.BOUND_COLUMNS).
"""
from __future__ import annotations

import math

from analyser.errors import ABORT_LIMIT, TooFewCompleted
from analyser.io.numbers import percent, plural, points


def score_range(game, players: int, settings: dict) -> tuple[float, float] | None:
    """The game's declared (lowest, highest) seat score, which the bounds put an aborted play at; None when
    the game declares none (the bounds then use the scores seen)."""
    return tuple(float(x) for x in game.score_bounds(players, settings)) if game.score_bounds else None


def require_completed(completed: int, units: int, unit: str, task: str) -> None:
    """TooFewCompleted when fewer than two of the units (deals) completed: there is nothing to estimate."""
    if completed < 2:
        raise TooFewCompleted(int(completed), int(units), plural(unit), task)


def bounds_text(bounds: dict, unit: str, first: str = "A", difference: str = "A - B", where: str = "",
                fmt=points) -> str | None:
    """One line with the bounds of a win share difference, or None when they are not shown (ABORT_LIMIT):
    ``3 of 200 games (1.5%) aborted in some arrangement; over all games A - B is -2.1pp [-5.0pp, +0.8pp]
    with all aborts lost by A, +0.9pp [...] with all aborts won by A (the estimate is over completed games)``;
    ``fmt`` prints a value (points of a difference by default)."""
    if not bounds["shown"]:
        return None
    units = plural(unit)

    def one(b):
        return f"{fmt(b['mean'])} [{fmt(b['low'])}, {fmt(b['high'])}]"

    return (f"{bounds['aborted']:,} of {bounds['deals']:,} {units} ({percent(bounds['share'], 1)}) aborted"
            f"{where}; over all {units} {difference} is {one(bounds['lost'])} with all aborts lost by {first}, "
            f"{one(bounds['won'])} with all aborts won by {first} (the estimate is over completed {units} only)")


def bounds_of(row: dict, deals: int) -> dict:
    """abort_bounds back from a table row's BOUND_COLUMNS (stats.paired.bound_cells) over ``deals`` deals."""
    share = row["aborted_share"]
    known = share is not None and math.isfinite(share)
    return {"deals": int(deals), "aborted": int(row["aborted_deals"]), "share": share,
            "shown": bool(known and row["aborted_deals"] > ABORT_LIMIT * deals),
            **{side: {key: row[f"aborts_{side}{suffix}"] for key, suffix in
                      (("mean", ""), ("low", "_ci_low"), ("high", "_ci_high"))} for side in ("lost", "won")}}
