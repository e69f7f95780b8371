"""``analyser games`` and ``analyser policies``: what there is to choose from.

Both read the games' specs only; no numba is loaded (tests/cli/test_help.py checks)."""
from __future__ import annotations

from typing import Annotated

import typer

from analyser.cli import common


@common.user_errors
def games():
    """List the games, their players, unit, win, default policy and rule settings.

    The unit is what one simulated record is (a game or a match; -n counts them; `simulate
    --unit hand` makes it a single hand where the game offers that)."""
    from rich.console import Console
    from rich.table import Table

    from analyser.games.registry import game_names, get_game
    from analyser.io.numbers import plural

    console = Console()
    for name in game_names():
        spec = get_game(name)
        unit = spec.unit + (f" of {spec.sub_unit}s" if spec.sub_unit else "")
        console.print(f"[bold]{name}[/bold]: {spec.title}")
        facts = Table.grid(padding=(0, 2))
        facts.add_column(style="dim")
        facts.add_column(overflow="fold")
        counts = (f"{spec.min_players}" if spec.min_players == spec.max_players
                  else f"{spec.min_players}-{spec.max_players} (default {spec.default_players})")
        facts.add_row("players", counts)
        single = f"; --unit {spec.sub_unit}: single {plural(spec.sub_unit)}" if spec.single else ""
        facts.add_row("unit", f"{unit} (-n counts {plural(spec.unit)}{single})")
        facts.add_row("win", spec.outcome)
        if spec.teams:
            facts.add_row("teams", "yes: partners share one result")
        facts.add_row("default policy", spec.default_policy)
        console.print(facts)
        table = Table(title=f"{name} rule settings (--rule NAME=VALUE)", title_justify="left")
        for col in ("setting", "default", "meaning"):
            table.add_column(col, overflow="fold")
        for s in spec.settings:
            values = ("on/off" if s.kind == "bool" else "/".join(s.options) if s.kind == "choice"
                      else f"{s.low:,}..{s.high:,}")
            if s.report_values:
                values += "; a report tries " + "/".join(map(str, s.report_values))
            table.add_row(s.name, f"{str(s.show(s.default)).lower()} ({values})", s.description)
        console.print(table)


@common.user_errors
def policies(game: Annotated[str, typer.Argument(metavar=common.GAME, help="Game whose policies to list.",
                                                 autocompletion=common.complete_game, show_default=False)]):
    """List a game's policies with their parameters, defaults, ranges and what they do."""
    from rich.console import Console
    from rich.table import Table

    from analyser.games.registry import get_game

    spec = get_game(game)
    table = Table(title=f"{spec.title}: policies (--policy NAME:PARAM=VALUE,...; "
                        f"default {spec.default_policy})", title_justify="left")
    for col in ("policy", "description", "parameter", "default", "range", "meaning"):
        table.add_column(col, overflow="fold")
    for p in spec.policies:
        rows = p.params or (None,)
        for i, param in enumerate(rows):
            table.add_row(p.name if i == 0 else "", p.description if i == 0 else "",
                          param.name if param else "-", param.show(param.default) if param else "",
                          param_range(param) if param else "", param.description if param else "")
    Console().print(table)


def param_range(param) -> str:
    """A parameter's values as ``--policy`` takes them: "0..12 whole", "0..1", "from 0", "any"."""
    if param.options:
        return "one of " + ", ".join(param.options)
    low, high = param.low, param.high
    span = (f"{low:g}..{high:g}" if low is not None and high is not None else f"from {low:g}" if low is not None
            else f"up to {high:g}" if high is not None else "any")
    return span + (" whole" if param.integer else "")
