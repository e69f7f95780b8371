"""``analyser simulate`` and ``analyser show``."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from analyser.cli.common import Format, print_result, user_errors


@user_errors
def simulate(
    game: Annotated[str, typer.Argument(help="Game to play; `analyser games` lists them.")],
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="Players at the table (default: the game's usual count).")] = None,
    policy: Annotated[Optional[list[str]], typer.Option("--policy", help="NAME or NAME:param=value,...; once for all seats or once per seat. `analyser policies GAME` lists them.")] = None,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Number of deals to play.")] = 10_000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Run seed: with the settings it fixes every deal.")] = 0,
    rule: Annotated[Optional[list[str]], typer.Option("--rule", help="Rule setting NAME=VALUE (repeatable); `analyser games` lists them.")] = None,
    threads: Annotated[Optional[int], typer.Option("--threads", "-t", help="Worker threads (default: all cores). Results do not depend on it.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write one row per game to this Parquet file.")] = None,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="How to print the summary.")] = Format.table,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
):
    """Simulate a batch of deals and print a summary: win and loser rates per seat and policy
    with 95% Wilson intervals, game length, events and speed."""
    from analyser.api import simulate as run_simulation
    from analyser.core.registry import parse_rule_args

    result = run_simulation(game, players=players, policies=policy, deals=deals, seed=seed,
                            rules=parse_rule_args(rule), threads=threads, out=out,
                            keep_records=False, progress=progress)
    print_result(result, fmt)
    if out is not None:
        typer.echo(f"wrote {out}", err=True)


@user_errors
def show(
    file: Annotated[Path, typer.Argument(help="A results file written by `simulate --out`.")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="How to print the summary.")] = Format.table,
):
    """Print the summary of a results file again."""
    from analyser.results import load

    print_result(load(file), fmt)
