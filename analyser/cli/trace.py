"""``analyser trace``: one deal move by move."""
from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from analyser.cli.common import user_errors


class TraceFormat(str, Enum):
    text = "text"
    jsonl = "jsonl"


@user_errors
def trace(
    game: Annotated[str, typer.Argument(help="Game to play; `analyser games` lists them.")],
    seed: Annotated[int, typer.Option("--seed", "-s", help="Run seed, as given to simulate.")] = 0,
    deal: Annotated[int, typer.Option("--deal", "-d", help="Deal index within the run (0-based).")] = 0,
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="Players at the table.")] = None,
    policy: Annotated[Optional[list[str]], typer.Option("--policy", help="NAME or NAME:param=value,...; once for all seats or once per seat.")] = None,
    rule: Annotated[Optional[list[str]], typer.Option("--rule", help="Rule setting NAME=VALUE (repeatable).")] = None,
    fmt: Annotated[TraceFormat, typer.Option("--format", "-f", help="text for people, jsonl for programs.")] = TraceFormat.text,
):
    """Play one deal and print every move: exactly the game `simulate` played as that deal."""
    from analyser.api import trace as run_trace
    from analyser.core.errors import UserError
    from analyser.core.registry import parse_rule_args

    if deal < 0:
        raise UserError(f"deal must be 0 or more, not {deal}")
    result = run_trace(game, seed=seed, deal=deal, players=players, policies=policy, rules=parse_rule_args(rule))
    typer.echo(result.jsonl() if fmt == TraceFormat.jsonl else result.text())
