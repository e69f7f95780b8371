"""Terminal tables for a result (rich). Numbers are never cut: cells fold at
any width, and an interval sits under its value when a column is narrow."""
from __future__ import annotations

import math

from rich.console import Console
from rich.table import Table

from analyser.io.numbers import num, percent, plural
from analyser.stats.summary import pooling


def _small_pct(x) -> str:
    """A share that may be tiny: 38 of a million is 0.0038%, not 0.00%."""
    if x is None or (isinstance(x, float) and math.isnan(x)) or x == 0 or x >= 1e-4:
        return percent(x)
    return f"{100 * x:.2g}%"




def _with_ci(value: str, low: str, high: str) -> str:
    """``value [low, high]``, or the value alone for an interval of width 0; the
    interval drops its % signs and may wrap at its spaces in a narrow column."""
    if low == high == value:
        return value
    return f"{value} [{low.rstrip('%')}, {high.rstrip('%')}]"


def _table(title: str, caption: str | None = None) -> Table:
    return Table(title=title, title_justify="left", caption=caption, caption_justify="left")


def _add(table: Table, name: str, left: bool = False):
    table.add_column(name, justify="left" if left else "right", overflow="fold")


def outcome_table(title: str, frame, keys: list[str], game, caption: str | None = None) -> Table:
    """Win share, draw rate, score and rank per row, then the game's rate columns."""
    table = _table(title, caption)
    for k in keys:
        _add(table, k, left=k in ("policy", "policies"))
    _add(table, plural(game.unit))
    _add(table, "win share (95% CI)")
    draws = frame["draw_rate"].fillna(0).max() > 0
    if draws:
        _add(table, "draws")
    score = not frame["score_mean"].equals(frame["win_rate"])   # Palace's score is its win: not shown twice
    if score:
        _add(table, "mean score (95% CI)")
    _add(table, "mean rank")
    rates = [c for c in game.columns if c.per == "seat" and c.kind == "rate"]
    for col in rates:
        _add(table, f"{col.description} (95% CI)")
    for row in frame.to_dict("records"):
        cells = [str(row[k]) for k in keys]
        cells.append(f"{row['games']:,}")
        cells.append(_with_ci(percent(row["win_rate"]), percent(row["win_ci_low"]), percent(row["win_ci_high"])))
        if draws:
            cells.append(percent(row["draw_rate"]))
        if score:
            cells.append(_with_ci(_num(row["score_mean"], 3), _num(row["score_ci_low"], 3),
                                  _num(row["score_ci_high"], 3)))
        cells.append(_num(row["mean_rank"], 3))
        for col in rates:
            n = col.name
            cells.append(_with_ci(percent(row[f"{n}_rate"]), percent(row[f"{n}_ci_low"]), percent(row[f"{n}_ci_high"])))
        table.add_row(*cells)
    return table


def mean_columns_table(frame, keys: list[str], game) -> Table | None:
    means = [c for c in game.columns if c.per == "seat" and c.kind == "mean"]
    if not means:
        return None
    table = _table(f"Per {game.unit}, completed {plural(game.unit)}")
    for k in keys:
        _add(table, k, left=k == "policy")
    for col in means:
        _add(table, col.description)
    for row in frame.to_dict("records"):
        table.add_row(*(str(row[k]) for k in keys),
                      *(_num(row[f"{c.name}_per_{game.unit}"]) for c in means))
    return table




def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _balance_rows(run: Table, f: dict, game) -> None:
    """First-player advantage, Balance and decision moves (analyser.stats.balance)."""
    if not _missing(f.get("first_mover_win_rate")):
        run.add_row(f"first mover's win share (fair {percent(f['fair_share'])})",
                    _with_ci(percent(f["first_mover_win_rate"]), percent(f["first_mover_win_ci_low"]),
                             percent(f["first_mover_win_ci_high"])))
        run.add_row("first-player advantage (share - fair)",
                    _with_ci(signed_percent(f["advantage"]), percent(f["advantage_ci_low"]),
                             percent(f["advantage_ci_high"])))
    if not _missing(f.get("balance")):
        run.add_row("Balance: 1 - largest gap in seats' win shares",
                    _with_ci(_num(f["balance"], 3), _num(f["balance_ci_low"], 3), _num(f["balance_ci_high"], 3)))
    if not _missing(f.get("decision_moves")):
        run.add_row(f"decision moves: {game.length} with a real choice", percent(f["decision_moves"]))


def run_table(result) -> Table:
    f, game = result.figures, result.game
    caption = ("Balance and decision moves follow Ludii's metrics (analyser.stats.balance says where "
               "they differ); Balance's 95% interval is conservative: every seat's share at once."
               ) if not _missing(f.get("balance")) else None
    run = _table("Per run", caption)
    run.show_header = False
    run.add_column(justify="left", overflow="fold")
    run.add_column(justify="right", overflow="fold")
    run.add_row(f"{plural(game.unit)} completed / aborted",
                f"{f['completed']:,} / {f['aborted']:,} ({_small_pct(f['aborted_share'])} aborted)")
    if f["draws"]:
        run.add_row("drawn", f"{f['draws']:,} ({percent(f['draw_rate'])})")
    if f.get("shared_wins"):        # how units ended: 0 in Palace, where every seat but the loser wins
        run.add_row(f"{plural(game.unit)} won outright / shared / drawn",
                    f"{f['outright_wins']:,} / {f['shared_wins']:,} / {f['draws']:,}")
    for col in game.columns:
        if col.per == "unit" and col.kind == "rate":
            run.add_row(f"{col.description}, share of {plural(game.unit)}", _small_pct(f[f"{col.name}_mean"]))
    run.add_row(f"{game.length} per {game.unit}: mean / sd / median / p95",
                f"{_num(f['length_mean'], 1)} / {_num(f['length_sd'], 1)} / {_num(f['length_median'], 0)} / "
                f"{_num(f['length_p95'], 0)}")
    for col in game.columns:
        if col.per == "unit" and col.kind != "rate":
            run.add_row(f"{col.description} per {game.unit}", _num(f[f"{col.name}_mean"], 1))
    _balance_rows(run, f, game)
    if result.meta.get("stopped"):
        run.add_row("precision target", result.meta["stopped"])
    if f.get("units_per_second"):
        speed = f"{f['units_per_second']:,.0f}"
        if f.get("simulation_units_per_second"):
            speed += f" ({f['simulation_units_per_second']:,.0f} simulating)"
        run.add_row(f"{plural(game.unit)}/s end to end", speed)
    return run


def whole_numbers(table: Table) -> Table:
    """Make each number column at least as wide as its widest word, so that a
    narrow terminal wraps cells between numbers, never inside one."""
    for col in table.columns:
        if col.justify == "right":
            col.min_width = max((len(w) for c in col._cells for w in str(c).split()), default=0) or None
    return table


def print_tables(result, console: Console | None = None):
    console = console or Console()
    meta, game = result.meta, result.game
    settings = ", ".join(f"{k}={v}" for k, v in meta["settings"].items())
    console.print(f"[bold]{game.title}[/bold]: {meta['players']} players, {meta['deals']:,} {plural(game.unit)}, "
                  f"seed {meta['seed']} ({settings}). Win = {game.outcome}; rates over completed "
                  f"{plural(game.unit)}.")
    tables = [outcome_table("Per seat", result.summary, ["seat", "policy"] + (["team"] if result.teams else []),
                            game)]
    if len(set(result.labels)) < len(result.labels):
        tables.append(outcome_table(f"Per policy (seats pooled per {game.unit})", result.by_policy,
                                    ["policy", "seats"], game, caption=pooling(game.unit)["policy"]))
    if result.by_team is not None:
        tables.append(outcome_table("Per team", result.by_team, ["team", "policies"], game,
                                    caption=pooling(game.unit)["team"]))
    tables.append(mean_columns_table(result.summary, ["seat", "policy"], game))
    tables.append(run_table(result))
    for table in tables:
        if table is not None:
            console.print(whole_numbers(table))


def _num(x, digits: int = 2) -> str:
    return num(x, digits, grouped=True)


def signed_percent(x) -> str:
    return percent(x, sign=True)
