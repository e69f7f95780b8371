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
        help="Which unit of the run to play (its index: a game, a match, or with --unit a hand or round), "
             "counting from 0. Default: 0.")] = None,
    unit: common.UnitOpt = None,
    hand: Annotated[int | None, typer.Option(
        "--hand", "--round", metavar="K", show_default=False,
        help=f"Show only hand or round K of the match ({common.SUB_UNITS}), counting from 0 as the trace does; "
             "games played whole have none. Default: the whole game or match.")] = None,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    rule: Annotated[list[str] | None, typer.Option("--rule", metavar=common.RULE, help=RULE_HELP,
                                                      autocompletion=common.complete_rule, show_default=False)] = None,
    fmt: Annotated[TraceFormat, typer.Option("--format", "-f", show_default=False,
                                             help="How to print the moves: text or jsonl (one JSON object a "
                                                  "line). Default: text.")] = TraceFormat.text,
):
    """Play one game (Palace), match, or with --unit one hand or round, and print every move.

    It is exactly the unit that `simulate` played with that index, seed and --unit. The text ends with how to
    roll out a decision: `analyser rollout GAME --list` (with this trace's line-up) gives each decision's step K,
    the position after K of the numbered moves, whose decision makes move K + 1."""
    from analyser.analyses.trace import trace as run_trace
    from analyser.engine.config import MAX_INDEX, whole_number
    from analyser.games.registry import get_game, parse_rule_args

    deal = 0 if deal is None else deal
    spec = get_game(game).for_unit(unit)
    whole_number(deal, f"--deal (the index of the {spec.unit})", 0, MAX_INDEX)
    result = run_trace(game, seed=seed, deal=deal, players=players, policies=policy, rules=parse_rule_args(rule),
                       hand=hand, unit=unit)
    typer.echo(result.jsonl() if fmt == TraceFormat.jsonl else result.text())
    if fmt != TraceFormat.jsonl and unit in (None, get_game(game).unit):
        typer.echo(rollout_hint(game, seed, deal, players, policy, rule))


def rollout_hint(game: str, seed: int, deal: int, players, policy, rule) -> str:
    """How to roll out a decision of this trace: the `rollout --list` line with the whole line-up
    (players, policies, rules), so that copying it lists this unit and not another."""
    import shlex

    from analyser.games.registry import get_game

    spec = get_game(game)
    kit = spec.kit() if spec.kit is not None else None
    words = ["analyser", "rollout", game, "--seed", str(seed), "--deal", str(deal)]
    words += ["--players", str(players)] * (players is not None)
    words += [w for p in policy or [] for w in ("--policy", p)] + [w for r in rule or [] for w in ("--rule", r)]
    one, many = getattr(kit, "steps", ("action", "actions"))
    return (f"\nWhich action was best at a decision? `{shlex.join(words + ['--list'])}`\nlists each decision's "
            f"step K (the position after K {many}: its decision makes {one} K + 1 above); `--step K` rolls it out.")
