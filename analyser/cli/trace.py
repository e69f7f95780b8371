"""``analyser trace``: one game (or match, or one hand of a match) move by move."""
from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from analyser.cli import common
from analyser.cli.simulate import RULE_HELP, GameOpt, PlayersOpt, PolicyOpt


class TraceFormat(str, Enum):
    text = "text"
    jsonl = "jsonl"


@common.user_errors
def trace(
    game: GameOpt,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar=common.N, show_default=False,
                                      help="Run seed, as given to simulate. Default: 0.")] = 0,
    deal: Annotated[int | None, typer.Option(
        "--deal", "-d", metavar=common.N, show_default=False,
        help="Which game or match of the run to play (its index), counting from 0. Default: 0.")] = None,
    unit: Annotated[int | None, typer.Option("--unit", "-u", metavar=common.N, hidden=True)] = None,   # its old name
    hand: Annotated[int | None, typer.Option(
        "--hand", "--round", metavar="K", show_default=False,
        help="Show only hand K (Enemy Anemone) or round K (Olenon) of the match; for games played whole, "
             "like Palace, there is none. Default: the whole game or match.")] = None,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    rule: Annotated[list[str] | None, typer.Option("--rule", metavar=common.RULE, help=RULE_HELP,
                                                      autocompletion=common.complete_rule, show_default=False)] = None,
    fmt: Annotated[TraceFormat, typer.Option("--format", "-f", show_default=False,
                                             help="text for people, jsonl for programs. Default: text.")]
        = TraceFormat.text,
):
    """Play one game (Palace) or match and print every move.

    It is exactly the game or match that `simulate` played with that index and seed."""
    from analyser.analyses.trace import trace as run_trace
    from analyser.engine.config import MAX_INDEX, whole_number
    from analyser.games.registry import get_game, parse_rule_args

    deal = common.one_of({"--deal": deal, "--unit": unit}, 0)
    spec = get_game(game)
    whole_number(deal, f"--deal (the index of the {spec.unit})", 0, MAX_INDEX)
    result = run_trace(game, seed=seed, deal=deal, players=players, policies=policy, rules=parse_rule_args(rule),
                       hand=hand)
    typer.echo(result.jsonl() if fmt == TraceFormat.jsonl else result.text())
    if fmt != TraceFormat.jsonl:
        typer.echo(f"\nWhich action was best at a decision? `analyser rollout {game} --seed {seed} --deal {deal} "
                   f"--list`\ngives each decision's K; `--step K` rolls it out.")

