"""``analyser skill``: how much skill matters against the deal (relative skill, luck share, skill ladder)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyser.cli import common, output
from analyser.errors import UserError

POLICY_HELP = ("The strong player, once: a search player (NAME or NAME:PARAM=VALUE,...), whose open-cards variant "
               "(open=1) is the player who knows the deal. Default: pimc at its defaults (pimc:worlds=4 is quick).")
PLAYERS_HELP = "Players at the table. Default: the game's usual count (" + common.DEFAULT_PLAYERS + ")."
DEALS_HELP = ("Deals of the relative-skill runs, each in every seat arrangement (--count, --games and --matches "
              "are other names for it); the luck share and the ladder play as many unless told. Default: 200.")
PARTS = ("relative", "luck", "ladder")


@common.plays_units(POLICY_HELP, PLAYERS_HELP, DEALS_HELP, first=False)
def skill(
    game: common.GameArg,
    field: Annotated[str | None, typer.Option(
        "--field", metavar=common.POLICY, show_default=False,
        help="The policy every player is measured against, and the luck share's first level. Default: the "
             "game's best heuristic (`analyser policies GAME`).")] = None,
    part: Annotated[list[str] | None, typer.Option(
        "--part", metavar="NAME", show_default=False,
        help="A part to run, repeatable: relative, luck, ladder. Default: all three.")] = None,
    luck_deals: Annotated[int | None, typer.Option(
        "--luck-deals", metavar=common.N, show_default=False,
        help="Deals of the luck share, each replayed --replays times at each level. Default: --deals.")] = None,
    replays: Annotated[int | None, typer.Option(
        "--replays", metavar=common.N, show_default=False,
        help="Plays of each deal for the luck share, each with policy streams of its own: 2 to 15 // players "
             "(the default, the most).")] = None,
    ladder: Annotated[str, typer.Option(
        "--ladder", metavar="B,B,...", show_default=False,
        help="The ladder's budgets B: each rung is the strong player at 2B against B, in order, until a rung "
             "is not significant. Default: 1,2,4,8,16.")] = "1,2,4,8,16",
    ladder_deals: Annotated[int | None, typer.Option(
        "--ladder-deals", metavar=common.N, show_default=False,
        help="Deals of each rung, each in every seat arrangement. Default: --deals.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar=common.FILE, show_default=False,
        help="Also write the result, with its configuration, seed and versions, to this .json FILE.")] = None,
    fmt: common.format_option("result") = common.Format.table,
    run: common.RunArgs = None,
):
    """How much skill matters against the deal.

    Relative skill RS = LE / (LE + RE) (Borm and van der Genugten): LE is the strong player's result minus a
    beginner's (uniform random legal play), RE the open-cards strong player's minus the strong player's, all
    against the same field on the same deals (every seat arrangement), with a bootstrap interval over deals.
    0: a game of chance; 1: a game without chance.

    The luck share: the part of a seat's win variance that is the deal's (an intra-class correlation), from
    replaying every deal with fresh policy streams, with the field's heuristic and with the strong player in
    every seat. The skill ladder: the strong player at budget 2B against B until a rung is not significant.

    Search players are slow: every part plays each decision's worlds; the output says what each part took.
    """
    from analyser.analyses.skill import skill as run_skill

    if out is not None and out.suffix != ".json":
        raise UserError(f"--out writes a .json file, not '{out.name}'")
    if run.policy is not None and len(run.policy) != 1:
        raise UserError(f"give the strong player once with --policy, not {len(run.policy)} times")
    try:
        budgets = [int(b) for b in ladder.split(",")]
    except ValueError:
        raise UserError(f"--ladder takes whole numbers separated by commas, such as 1,2,4, not '{ladder}'") from None
    announce = (lambda line: typer.echo(line, err=True)) if run.progress else None
    result = run_skill(game, players=run.players, strong=run.policy[0] if run.policy else "pimc", field=field,
                       deals=run.count, seed=run.seed, rules=run.rules, unit=run.unit, parts=part or None,
                       luck_deals=luck_deals, replays=replays, budgets=budgets, ladder_deals=ladder_deals,
                       threads=run.threads, progress=run.progress, announce=announce, backend=run.backend,
                       run_dir=run.run_dir)
    if out is not None:
        result.save(out)
    output.print_analysis(result, fmt, print_skill_tables, result.summary)
    if out is not None:
        typer.echo(f"wrote {out}", err=True)


def print_skill_tables(result, console=None):
    from rich.console import Console
    from rich.table import Table

    from analyser.io.numbers import hundred

    console = console or Console()
    m = result.meta
    p = m["policies"]
    settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
    console.print(f"[bold]{output.game_title(m['game'])}[/bold]: strong {p['strong']}, open {p['open']}, beginner "
                  f"{p['beginner']}, field {p['field']}; {m['players']} players, seed {m['seed']} ({settings}).")
    for name, text in result.verdicts().items():
        console.print(f"{name}: {text}")

    def table(title, caption, headers, rows):
        t = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
        for i, h in enumerate(headers):
            t.add_column(h, justify="left" if i == 0 else "right", overflow="fold")
        for r in rows:
            t.add_row(*r)
        console.print(t)

    def pts(x):
        return hundred(x, 1, sign=True)

    if result.players is not None:
        table(f"Against the field, {m['deals']:,} deals (95% intervals, paired by deal)", m["result"],
              ["player", "policy", "result (points)", "95% interval"],
              [[r.role, r.policy, pts(r.result), f"[{pts(r.ci_low)}, {pts(r.ci_high)}]"]
               for r in result.players.itertuples()])
    if result.luck is not None:
        table(f"Luck share: {m['luck_deals']:,} deals x {m['replays']} replays", m.get("luck_method"),
              ["level", "policy in every seat", "luck share", "95% interval", "replays alike", "dropped"],
              [[r.level, r.policy, f"{100 * r.luck_share:.1f}%", f"[{100 * r.ci_low:.1f}%, {100 * r.ci_high:.1f}%]",
                "yes" if r.identical else "no", f"{r.dropped:,}"] for r in result.luck.itertuples()])
    if result.ladder is not None:
        table("Skill ladder: 2B against B (paired 95% intervals)", m.get("ladder_method"),
              ["B", "A", "B's policy", "A - B (points)", "95% interval", "significant", "aborted"],
              [[str(r.budget), r.a, r.b, pts(r.estimate), f"[{pts(r.ci_low)}, {pts(r.ci_high)}]",
                "yes" if r.significant else "no", f"{r.aborted:,}"] for r in result.ladder.itertuples()])
    took = ", ".join(f"{k} {v:,.0f} s" for k, v in m["seconds"].items())
    console.print(f"took {took}")
