"""``analyser games`` and ``analyser policies``: what there is to choose from."""
from __future__ import annotations

from typing import Annotated

import typer

from analyser.cli.common import user_errors


@user_errors
def games():
    """List the games with their player counts and rule settings."""
    from rich.console import Console
    from rich.table import Table

    from analyser.core.registry import GAME_MODULES, get_game

    table = Table(title="Games", title_justify="left")
    for col in ("game", "players", "setting", "default", "meaning"):
        table.add_column(col)
    for name in GAME_MODULES:
        spec = get_game(name)
        for i, s in enumerate(spec.settings):
            table.add_row(name if i == 0 else "", f"{spec.min_players}-{spec.max_players}" if i == 0 else "",
                          s.name, str(s.show(s.default)).lower(), s.description)
    Console().print(table)


@user_errors
def policies(game: Annotated[str, typer.Argument(help="Game whose policies to list.")]):
    """List a game's policies with their parameters, defaults and what they do."""
    from rich.console import Console
    from rich.table import Table

    from analyser.core.registry import get_game

    spec = get_game(game)
    table = Table(title=f"{spec.title}: policies (use NAME:param=value,...)", title_justify="left")
    for col in ("policy", "description", "parameter", "default", "meaning"):
        table.add_column(col)
    for p in spec.policies:
        rows = p.params or (None,)
        for i, param in enumerate(rows):
            table.add_row(p.name if i == 0 else "", p.description if i == 0 else "",
                          param.name if param else "-", f"{param.default:g}" if param else "",
                          param.description if param else "")
    Console().print(table)
