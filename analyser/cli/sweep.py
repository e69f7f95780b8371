"""``analyser sweep``: one seat's policy parameters over a range of values, on common deals."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from analyser.cli.common import (
    DEFAULT_PLAYERS,
    FILE,
    CountAlias,
    Format,
    GameArg,
    GamesAlias,
    MatchesAlias,
    N,
    NoProgressOpt,
    RuleOpt,
    SeedOpt,
    ThreadsOpt,
    UnitOpt,
    deals_option,
    finish,
    one_of,
    players_option,
    policy_option,
    print_analysis,
    user_errors,
)
from analyser.cli.plot import PLOT_HELP, checked_plot_path

POLICY_HELP = ("The line-up. One policy carries the values to sweep: PARAM=lo..hi (step 1), lo..hi:step, or "
               "a|b|c (a list: commas separate parameters), for one or two parameters "
               "(e.g. 'pickup:max_pile=0..12'). Give one --policy per seat, or the swept one then one for all "
               "the other seats; alone, the other seats play it with the swept parameters at their defaults.")
PLAYERS_HELP = "Players at the table. Default: the game's usual count (" + DEFAULT_PLAYERS + ")."


PolicyOpt = policy_option(POLICY_HELP)
PlayersOpt = players_option(PLAYERS_HELP)
DealsOpt = deals_option(
    "Deals per setting, the same deals for every setting (--count, --games and --matches are other "
    "names for it). Default: 10,000.")


@user_errors
def sweep(
    game: GameArg,
    policy: PolicyOpt = None,
    players: PlayersOpt = None,
    count: DealsOpt = None,
    count2: CountAlias = None,
    games: GamesAlias = None,
    matches: MatchesAlias = None,
    unit: UnitOpt = None,
    seed: SeedOpt = 0,
    check_seed: Annotated[int | None, typer.Option(
        "--check-seed", metavar=N, show_default=False,
        help="Seed of the re-check of the best setting. Default: the run seed + 1,000,003.")] = None,
    rule: RuleOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", metavar=FILE, show_default=False,
                                                help="Also write the table and metadata to this Parquet "
                                                     "FILE.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", metavar=FILE, show_default=False, help=PLOT_HELP)] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", metavar="table|json|csv", show_default=False,
                                        help="Output: table (default), json or csv (the table's rows).")
                   ] = Format.table,
    no_progress: NoProgressOpt = False,
):
    """Sweep one seat's policy parameters over values against a fixed line-up, on common deals.

    Every setting plays the same deals; one compiled engine serves them all.

    Prints the swept seat's win share per setting with 95% intervals and the best setting.

    The best setting is played again on a fresh seed: the best of many noisy estimates overstates itself.
    """
    from analyser.core.registry import parse_rule_args
    from analyser.sweeps import sweep as run_sweep

    count = one_of({"--deals": count, "--count": count2, "--games": games, "--matches": matches}, None)
    plot = checked_plot_path(plot)
    result = run_sweep(game, policies=policy or None, players=players, deals=count, seed=seed,
                       rules=parse_rule_args(rule), threads=threads, check_seed=check_seed, unit=unit, out=out,
                       progress=not no_progress)
    finish(result, print_sweep, fmt, out, plot)


def print_sweep(result, fmt: Format | str = Format.table, console=None):
    """Print a SweepResult as a terminal table, one JSON object, or CSV of the table's rows
    (``analyser show`` calls it for a sweep file)."""
    print_analysis(result, fmt, print_sweep_table, result.table, console)


def _pc(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.2f}"


def _num(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x:,.3f}"


def print_sweep_table(result, console=None):
    from rich.console import Console
    from rich.table import Table

    from analyser.core.registry import get_game, plural
    from analyser.sweeps import recheck_text, setting_text

    console = console or Console()
    m, t = result.meta, result.table
    units = plural(m["unit"])
    try:
        title = get_game(m["game"]).title
    except Exception:  # a file of a game not registered here still prints
        title = m["game"]
    settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
    others = ", ".join(f"{i}: {p}" for i, p in enumerate(m["lineup"]) if i != m["seat"])
    console.print(f"[bold]{title}[/bold]: seat {m['seat']} plays {m['swept']} against {others or '-'}; "
                  f"{m['players']} players, {m['deals']:,} {units} per setting, the same deals for every "
                  f"setting (seed {m['seed']}; {settings}).")
    names = result.parameters
    show_score = not t["score_mean"].equals(t["win_rate"])     # Palace: the score is the win
    table = Table(title=f"Seat {m['seat']} win share per setting (%, 95% intervals)", title_justify="left",
                  caption="* best (highest win share)", caption_justify="left")
    for name in names:
        table.add_column(name, justify="right", overflow="fold")
    for name in ("win share", "95% interval", *(["mean score"] if show_score else []), units, "aborted", ""):
        table.add_column(name, justify="right", overflow="fold")
    for row in t.to_dict("records"):
        cells = [f"{row[n]:g}" if isinstance(row[n], float) else str(row[n]) for n in names]
        cells += [_pc(row["win_rate"]), f"{_pc(row['win_ci_low'])}-{_pc(row['win_ci_high'])}"]
        if show_score:
            cells.append(_num(row["score_mean"]))
        cells += [f"{int(row['games']):,}", f"{int(row['aborted']):,}", "*" if row.get("best") else ""]
        table.add_row(*cells, style="bold" if row.get("best") else None)
    console.print(table)
    b = result.best
    console.print(f"best: {setting_text(b['params'])}: win share {_pc(b['win_rate'])}% "
                  f"[{_pc(b['win_ci_low'])}%, {_pc(b['win_ci_high'])}%]")
    console.print(recheck_text(result.recheck, m["unit"]))
