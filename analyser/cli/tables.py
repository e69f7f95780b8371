"""Terminal tables for a result (rich), made to fit 80 columns: an interval is written as its
value and half-width ("47.6 ±0.3", --format json has both ends), a table of many columns is
split into several, and no number, header word or policy spec is ever cut in two."""
from __future__ import annotations

import math
import textwrap

from rich.console import Console
from rich.table import Table

from analyser.errors import counted
from analyser.io.numbers import num, percent, plural, plus_minus
from analyser.stats.summary import pooling


def _small_pct(x) -> str:
    """A share that may be tiny: 38 of a million is 0.0038%, not 0.00%."""
    if x is None or (isinstance(x, float) and math.isnan(x)) or x == 0 or x >= 1e-4:
        return percent(x)
    return f"{100 * x:.2g}%"


PLUS_MINUS = "± is the 95% interval's half-width (its larger side; --format json gives both ends)"


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
    """Win share, draw rate, score and rank per row, then the game's rate columns; shares in % with ±.
    The completed units, the same in every row, are said once in the title rather than in a column."""
    counts = frame["games"].unique()
    one_count = len(counts) == 1
    if one_count:
        done = f"{int(counts[0]):,} completed {plural(game.unit)}"
        title = f"{title[:-1]}; {done})" if title.endswith(")") else f"{title} ({done})"
    table = _table(title, caption)
    for k in keys:
        _add(table, k, left=k in ("policy", "policies"))
    if not one_count:
        _add(table, plural(game.unit))
    _add(table, "win %")
    draws = frame["draw_rate"].fillna(0).max() > 0
    if draws:
        _add(table, "draws %")
    score = not frame["score_mean"].equals(frame["win_rate"])   # Palace's score is its win: not shown twice
    if score:
        _add(table, "mean score")
    _add(table, "mean rank")
    rates = [c for c in game.columns if c.per == "seat" and c.kind == "rate"]
    for col in rates:
        _add(table, f"{col.description} %")
    for row in frame.to_dict("records"):
        cells = [str(row[k]) for k in keys] + ([] if one_count else [f"{row['games']:,}"])
        cells.append(plus_minus(row["win_rate"], row["win_ci_low"], row["win_ci_high"]))
        if draws:
            cells.append(num(row["draw_rate"], 1, scale=100))
        if score:
            cells.append(plus_minus(row["score_mean"], row["score_ci_low"], row["score_ci_high"], scale=1))
        cells.append(_num(row["mean_rank"], 3))
        for col in rates:
            n = col.name
            cells.append(plus_minus(row[f"{n}_rate"], row[f"{n}_ci_low"], row[f"{n}_ci_high"]))
        table.add_row(*cells)
    return table


def mean_columns_tables(frame, keys: list[str], game, width: int) -> list[Table]:
    """The game's per-seat means, in as many tables as it takes for each to fit ``width`` columns
    (the key columns repeated in each), rather than one whose numbers and headers fold."""
    means = [c for c in game.columns if c.per == "seat" and c.kind == "mean"]
    rows = frame.to_dict("records")
    cells = {k: [str(r[k]) for r in rows] for k in keys}
    cells |= {c.description: [_num(r[f"{c.name}_per_{game.unit}"]) for r in rows] for c in means}
    groups: list[list[str]] = []
    used = width
    for col in means:
        need = _needed(col.description, cells[col.description])
        if not groups or used + need > width:
            groups.append([])
            used = 1 + sum(_needed(k, cells[k]) for k in keys)
        groups[-1].append(col.description)
        used += need
    tables = []
    for i, names in enumerate(groups):
        table = _table(f"Per {game.unit}, completed {plural(game.unit)}" + (f" ({i + 1} of {len(groups)})"
                                                                          if len(groups) > 1 else ""))
        for k in keys:
            _add(table, k, left=k == "policy")
        for name in names:
            _add(table, name)
        for r in range(len(rows)):
            table.add_row(*(cells[k][r] for k in keys), *(cells[n][r] for n in names))
        tables.append(table)
    return tables


def _needed(header: str, cells: list[str]) -> int:
    """The columns a table column takes when neither its cells nor its header's words are cut: the
    widest cell or header word, and the padding and rule beside it."""
    return max(len(w) for text in [header, *cells] for w in text.split()) + 3


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


def whole_numbers(table: Table, width: int | None = None) -> Table:
    """Make each column at least as wide as its widest word, header included, so that a narrow
    terminal wraps cells between words, never inside a number, a header word or a policy spec
    (``timing:min_points=5``; only a table too wide even so folds its labels). With ``width`` (the
    console's), also fix each column's width when the
    table does not fit as it is: every column its widest word, the room left going a column at a
    time to the one wrapped over the most lines (rich's own narrowing shares it out evenly and cuts
    words, or the table's edge, when that cannot fit)."""
    texts = [[str(c) for c in (col.header, *col._cells)] for col in table.columns]
    least = [max((len(w) for t in col for w in t.split()), default=0) for col in texts]
    whole = [max((len(line) for t in col for line in t.splitlines()), default=0) for col in texts]
    for col, m in zip(table.columns, least, strict=True):
        col.min_width = m or None
    room = (width or 0) - 3 * len(texts) - 1 - sum(least)       # a column's padding and rule: 3
    if width is not None and room < 0:          # too narrow even so: a label may fold, a number never
        for col in table.columns:
            if col.justify == "left":
                col.min_width = None
    if width is None or room < 0 or room >= sum(whole) - sum(least):
        return table
    widths = list(least)
    for _ in range(room):       # a column at a time to the one that takes the most lines
        i = max((i for i in range(len(texts)) if widths[i] < whole[i]),
                key=lambda i: (_lines(texts[i], widths[i]), -whole[i]))
        widths[i] += 1
    for col, w in zip(table.columns, widths, strict=True):
        col.width = w
    return table


def _lines(texts: list[str], width: int) -> int:
    """The lines the tallest of ``texts`` takes wrapped at ``width``."""
    return max((len(textwrap.wrap(t, width)) for t in texts), default=1)


def print_tables(result, console: Console | None = None):
    console = console or Console()
    meta, game = result.meta, result.game
    settings = ", ".join(f"{k}={v}" for k, v in meta["settings"].items())
    console.print(f"[bold]{game.title}[/bold]: {meta['players']} players, {counted(meta['deals'], game.unit)}, "
                  f"seed {meta['seed']} ({settings}). Win = {game.outcome}; rates over completed "
                  f"{plural(game.unit)}; {PLUS_MINUS}.")
    tables = [outcome_table("Per seat", result.summary, ["seat", "policy"] + (["team"] if result.teams else []),
                            game)]
    if len(set(result.labels)) < len(result.labels):
        tables.append(outcome_table(f"Per policy (seats pooled per {game.unit})", result.by_policy,
                                    ["policy", "seats"], game, caption=pooling(game.unit)["policy"]))
    if result.by_team is not None:
        tables.append(outcome_table("Per team", result.by_team, ["team", "policies"], game,
                                    caption=pooling(game.unit)["team"]))
    tables += mean_columns_tables(result.summary, ["seat", "policy"], game, console.width)
    tables.append(run_table(result))
    for table in tables:
        console.print(whole_numbers(table, console.width))


def _num(x, digits: int = 2) -> str:
    return num(x, digits, grouped=True)


def signed_percent(x) -> str:
    return percent(x, sign=True)
