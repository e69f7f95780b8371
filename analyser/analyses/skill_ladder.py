"""The skill ladder: a search player at budget 2B against itself at B, rung by rung, until a rung is not
significant (Ludii's SkillTrace, TAG's SkillLadder).

Each rung is ``compare`` (duplicate deals, every seat arrangement, paired 95% interval of the win share
difference); the ladder climbs while the doubled budget wins with its interval above 0 and stops at the
first rung whose interval reaches 0 (or below). How many rungs a game climbs says how deep its skill
goes: a game whose first doubling already gains nothing rewards thinking little. A rung's budget is the
search player's first parameter (PIMC's ``worlds``, ISMCTS's ``iterations``).
"""
from __future__ import annotations

import time
from dataclasses import replace

import pandas as pd

from analyser.errors import UserError

DEFAULT_BUDGETS = (1, 2, 4, 8, 16)


def search_seat(game: str, policy, unit: str | None = None):
    """The SeatPolicy of ``policy`` in ``game``; a UserError unless it is a search player (it has a
    budget to double and an open-cards variant)."""
    from analyser.games.policy_specs import as_seat_policy
    from analyser.games.registry import get_game

    spec = get_game(game).for_unit(unit)
    seat = as_seat_policy(policy, spec.policy_map, spec.policy_signature)
    if not seat.spec.search or seat.spec.cheats is None:
        searchers = [p.name for p in spec.policies if p.search]
        raise UserError(f"the strong player must be a search player, not '{seat.label()}'; valid: "
                        f"{', '.join(searchers) or '(none: ' + spec.name + ' has no search player)'}")
    if seat.cheating:
        raise UserError(f"give the strong player as it plays, not its open-cards variant '{seat.label()}'")
    return seat


def check_budgets(budgets) -> list[int]:
    """The ladder's budgets as whole numbers of at least 1, or a UserError (before anything is played)."""
    items = list(budgets or [])
    if not items or any(isinstance(b, bool) or int(b) != b or b < 1 for b in items):
        raise UserError(f"the ladder's budgets must be whole numbers of at least 1, not {items}")
    return [int(b) for b in items]


def at_budget(seat, budget: int):
    """``seat`` with its budget (its first parameter) set to ``budget``."""
    name = seat.spec.params[0].name
    return replace(seat, values={**seat.values, name: seat.spec.params[0].parse(budget, seat.name)})


def ladder(game: str, strong="pimc", budgets=DEFAULT_BUDGETS, players: int | None = None, deals: int = 200,
           seed: int = 0, rules: dict | None = None, unit: str | None = None, threads: int | None = None,
           progress: bool | None = None, on_rung=None, **where) -> pd.DataFrame:
    """One row per rung played: the strong player at 2B against B for each B of ``budgets`` in turn,
    stopping after the first rung that is not significant. Columns: budget (B), a, b (the two labels),
    deals (completed), aborted (deals dropped: aborted in some arrangement), estimate (A - B in win
    share), ci_low, ci_high, p_value, significant (the interval above 0), seconds. on_rung(row, result) is
    called after each rung (benchmarks/strength.py prints it)."""
    from analyser.analyses.compare import compare

    seat = search_seat(game, strong, unit)
    rows = []
    for b in check_budgets(budgets):
        low_seat, high_seat = at_budget(seat, b), at_budget(seat, 2 * b)
        start = time.perf_counter()
        result = compare(game, [high_seat, low_seat], players=players, deals=deals, seed=seed, rules=rules,
                         unit=unit, threads=threads, progress=progress, **where)
        win = result.summary.set_index("quantity").loc["win share difference"]
        row = {"budget": b, "a": high_seat.label(), "b": low_seat.label(), "deals": int(win["deals"]),
               "aborted": int(win["aborted_deals"]),
               "estimate": float(win["estimate"]), "ci_low": float(win["ci_low"]), "ci_high": float(win["ci_high"]),
               "p_value": float(win["p_value"]), "significant": bool(win["ci_low"] > 0),
               "seconds": time.perf_counter() - start}
        rows.append(row)
        if on_rung is not None:
            on_rung(row, result)
        if not row["significant"]:
            break
    return pd.DataFrame(rows)


def climbed(frame: pd.DataFrame) -> str:
    """The ladder in words: how many doublings paid and where it stopped."""
    if frame is None or frame.empty:
        return "no rung played"
    paid = frame[frame["significant"]]
    last = frame.iloc[-1]
    if last["significant"]:
        return (f"every rung played paid ({len(paid)} doubling{'s' if len(paid) > 1 else ''}, up to {last['a']}); "
                f"the ladder ended before a rung that does not")
    if paid.empty:
        return f"the first doubling ({last['a']} against {last['b']}) is not significant"
    return (f"{len(paid)} doubling{'s' if len(paid) > 1 else ''} paid (up to {paid.iloc[-1]['a']}); "
            f"{last['a']} against {last['b']} is not significant")
