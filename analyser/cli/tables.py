"""Terminal tables for a result (rich)."""
from __future__ import annotations

import math

from rich.console import Console
from rich.table import Table


def _pct(x) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}%"


def _ci(row, name) -> str:
    return f"{_pct(row[name + '_rate'])} ({_pct(row[name + '_ci_low'])}-{_pct(row[name + '_ci_high'])})"


def _rate_table(title: str, frame, key: str) -> Table:
    table = Table(title=title, title_justify="left")
    for col in (key, "policy", "games", "win rate (95% CI)", "loser rate (95% CI)", "mean place"):
        table.add_column(col, justify="left" if col == "policy" else "right")
    for row in frame.to_dict("records"):
        table.add_row(str(row[key]), str(row["policy"]), f"{row['games']:,}", _ci(row, "win"), _ci(row, "loser"),
                      f"{row['mean_place']:.3f}")
    return table


def _event_table(frame, key: str, game) -> Table:
    table = Table(title="Events per game", title_justify="left")
    table.add_column(key, justify="right")
    table.add_column("policy")
    for name in game.seat_events:
        table.add_column(game.describe_events.get(name, name), justify="right")
    for row in frame.to_dict("records"):
        table.add_row(str(row[key]), str(row["policy"]), *(f"{row[f'{name}_per_game']:.2f}" for name in game.seat_events))
    return table


def print_tables(result):
    console = Console()
    meta = result.meta
    settings = ", ".join(f"{k}={v}" for k, v in meta["settings"].items())
    console.print(f"[bold]{result.game.title}[/bold]: {meta['players']} players, {meta['deals']:,} deals, "
                  f"seed {meta['seed']} ({settings})")
    console.print(_rate_table("Per seat", result.summary, "seat"))
    if len(set(result.labels)) < len(result.labels):
        console.print(_rate_table("Per policy (seats pooled)", result.by_policy, "seats"))
    console.print(_event_table(result.summary, "seat", result.game))
    f = result.figures
    run = Table(title="Per run", title_justify="left", show_header=False)
    run.add_column(justify="left")
    run.add_column(justify="right")
    run.add_row("games completed / aborted", f"{f['completed']:,} / {f['aborted']:,}")
    run.add_row("actions per game: mean / median / p95",
                f"{f['actions_mean']:.1f} / {f['actions_median']:.0f} / {f['actions_p95']:.0f}")
    for name in result.game.seat_events:
        run.add_row(f"{result.game.describe_events.get(name, name)} (total, per game)",
                    f"{f[f'{name}_total']:,} ({f[f'{name}_per_game']:.2f})")
    if "decisions_per_game" in f:
        run.add_row("decisions per game", f"{f['decisions_per_game']:.1f}")
    if f.get("games_per_second"):
        run.add_row("games/s (decisions/s)",
                    f"{f['games_per_second']:,.0f} ({f.get('decisions_per_second', 0):,.0f})")
    console.print(run)
