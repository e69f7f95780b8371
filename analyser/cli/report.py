"""``analyser report``: a balance report of one game as Markdown, JSON and figures, or as one HTML page."""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from analyser.cli import common
from analyser.cli.simulate import PLAYERS_HELP, POLICY_HELP

SECTION_HELP = ("A section to build, repeatable: seats, players, rules, policies, skill, shape. Default: all six.")


DEALS_HELP = (
    "Games (Palace) or matches per run: the seats run, each player count and each rule value "
    "(--count, --games and --matches are other names for it). Default: 50,000.")


@common.plays_units(POLICY_HELP, PLAYERS_HELP, DEALS_HELP, unit=False, first=False)
def report(
    game: common.GameArg,
    tournament_deals: Annotated[int | None, typer.Option(
        "--tournament-deals", metavar=common.N, show_default=False,
        help="Deals per pair of policies in the policies section, each played in every seat arrangement. "
             "Default: a fifth of --deals.")] = None,
    skill_deals: Annotated[int | None, typer.Option(
        "--skill-deals", metavar=common.N, show_default=False,
        help="Deals of the skill and luck section (a search player at 4 worlds plays them). Default: 100.")] = None,
    section: Annotated[list[str] | None, typer.Option("--section", metavar="NAME", show_default=False,
                                                         help=SECTION_HELP)] = None,
    out: Annotated[list[Path] | None, typer.Option(
        "--out", "-o", metavar=common.FILE, show_default=False,
        help="The report to write, by its suffix: NAME.md writes Markdown, with NAME.json (every table, with the "
             "metadata) and the figures in NAME/*.png beside it; NAME.html writes one self-contained page to send "
             "(figures embedded, no network needed), with NAME.json beside it. Any other suffix is refused. Give "
             "it twice (NAME.md and NAME.html) to write both from one run. An older report is replaced only when "
             "the new one is complete. Default: GAME-report.md here.")] = None,
    run: common.RunArgs = None,
):
    """Balance report: is a seat, a player count, a rule setting or a policy
    unfair, and by how much?

    For one line-up (default: the game's default policy in every seat), six
    sections after an "at a glance" block, each with a verdict in words, the size of the effect and a 95%
    interval. Seats: each seat's win share against the fair share, a test
    across seats, the first mover's advantage (a line-up of different
    policies is rotated over the seats, so the verdict is about seats).
    Player counts: the same at every count the game allows. Rule settings:
    what each on/off or choice setting, and the values a number setting
    declares, does to the first mover, the seats and the length, paired on
    the same deals. Policies: a tournament of the built-in policies, head to
    head first, with ratings and the meta-game's equilibrium (its support and
    entropy, and a dominant policy if one beats every other). Skill and
    luck: relative skill, the deal's share of the win variance and the skill
    ladder of the game's search player (`analyser skill`, at 4 worlds on
    --skill-deals deals: the dearest section per deal). Shape of a game:
    the distribution of length, how units end, and from a per-step estimate
    of each side's chance (its Brier score shown) lead changes, comebacks,
    the decisive point and drama. Every test
    joins one family: findings are significant at a false discovery rate of
    5% (Benjamini-Hochberg), and the report says how many tests it made.

    Every run uses --seed, so every run plays the same deals. Writes
    GAME-report.md, GAME-report.json and GAME-report/*.png here (--out
    NAME.html: NAME.html, one page with the figures inside, and NAME.json),
    then prints the verdicts. `analyser report palace` takes about 12 seconds on two cores (warm).
    """
    from analyser.analyses.report.builder import report as build
    from analyser.analyses.report.writer import check_out, default_path, is_html
    from analyser.games.registry import get_game

    get_game(game)                                  # an unknown game first, before the file is named after it
    targets = [check_out(o) for o in out or [default_path(game)]]
    progress = run.progress

    def announce(line: str) -> None:
        if progress:
            typer.echo(f"report {game}: {line}", err=True)

    result = build(game, policies=run.policy, players=run.players, deals=run.count, seed=run.seed, rules=run.rules,
                   threads=run.threads, progress=progress, tournament_deals=tournament_deals, sections=section,
                   announce=announce, out=targets[0], backend=run.backend, run_dir=run.run_dir,
                   skill_deals=skill_deals,
                   command=_command(game, run.policy, run.players, run.count, tournament_deals, run.seed,
                                    list(run.rule), section, out, skill_deals))
    for target in targets[1:]:
        result.save(target)
    _print(result)
    for target in targets:
        beside = "" if is_html(target) else f" and the figures in {target.with_suffix('')}/"
        typer.echo(f"wrote {target}, {target.with_suffix('.json')}{beside}", err=True)


def _command(game, policy, players, count, tournament_deals, seed, rule, section, out, skill_deals=None) -> str:
    """The command line that makes this report again (options as given)."""
    parts = ["analyser", "report", game]
    for p in policy or []:
        parts += ["--policy", p]
    if players is not None:
        parts += ["--players", str(players)]
    if count is not None:
        parts += ["--deals", str(count)]
    if tournament_deals is not None:
        parts += ["--tournament-deals", str(tournament_deals)]
    if skill_deals is not None:
        parts += ["--skill-deals", str(skill_deals)]
    parts += ["--seed", str(seed)]
    for r in rule or []:
        parts += ["--rule", r]
    for s in section or []:
        parts += ["--section", s]
    for o in out or []:
        parts += ["--out", str(o)]
    return " ".join(shlex.quote(p) for p in parts)


def _print(result) -> None:
    from rich.console import Console

    from analyser.analyses.report.template import tests_line
    from analyser.analyses.report.titles import TITLES

    console = Console()
    m = result.meta
    console.print(f"[bold]{m['title']}[/bold]: {m['lineup_text']}, {m['players']} players, {m['deals']:,} per run, "
                  f"seed {m['seed']} ({m['seconds']:,.0f} s)", highlight=False)
    for key, text in result.verdicts.items():
        console.print(f"[bold]{TITLES[key]}:[/bold] {text}", highlight=False)
    console.print(f"[bold]Tests:[/bold] {tests_line(m)}", highlight=False)
