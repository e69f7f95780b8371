"""``analyser replay``: one game or match as a web page to step through, from disk, offline."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyser.cli import common
from analyser.cli.simulate import RULE_HELP, GameOpt, PlayersOpt, PolicyOpt


@common.user_errors
def replay(
    game: GameOpt,
    out: Annotated[Path, typer.Option("--out", "-o", metavar="FILE.html", show_default=False,
                                      help="The page to write: one self-contained .html file.")],
    seed: Annotated[int, typer.Option("--seed", "-s", metavar=common.N, show_default=False,
                                      help="Run seed, as given to simulate. Default: 0.")] = 0,
    deal: Annotated[int, typer.Option(
        "--deal", "-d", metavar=common.N, show_default=False,
        help="Which game or match of the run to replay (its index), counting from 0. Default: 0.")] = 0,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    rule: Annotated[list[str] | None, typer.Option("--rule", metavar=common.RULE, help=RULE_HELP,
                                                      autocompletion=common.complete_rule, show_default=False)] = None,
    rollout: Annotated[list[Path] | None, typer.Option(
        "--rollout", metavar=common.FILE, show_default=False,
        help="A rollout of one of this unit's positions (`analyser rollout ... --out FILE`), shown at its step "
             "beside the legal actions; give one per step.")] = None,
):
    """Write one game (Palace) or match as a page with the table at every move, the event log,
    the legal actions at each decision and each seat's own view: open it in any browser.

    It is exactly the game or match that `simulate` and `trace` played with that index and seed."""
    from analyser.analyses.replay import replay as run_replay
    from analyser.engine.config import MAX_INDEX, whole_number
    from analyser.games.registry import get_game, parse_rule_args
    from analyser.io.replay_page import check_page_path

    out = check_page_path(out)
    spec = get_game(game)
    whole_number(deal, f"--deal (the index of the {spec.unit})", 0, MAX_INDEX)
    page = run_replay(game, seed=seed, deal=deal, players=players, policies=policy, rules=parse_rule_args(rule),
                      rollouts=rollout or ())
    path = page.save(out)
    typer.echo(f"wrote {path} ({path.stat().st_size / 1000:.0f} kB, steps 0 to {len(page.data['steps']) - 1}, "
               f"{page.data['length']}): "
               f"open it in a browser")
