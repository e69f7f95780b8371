"""``analyser tune``: a policy's best parameters against opponents, searched, raced and confirmed on fresh deals."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from analyser.cli import common, output
from analyser.io.numbers import hundred

Optimizer = Enum("Optimizer", {name: name for name in ("tpe", "ntbea", "random")}, type=str)

POLICY_HELP = ("The policy to tune, with the values of each tuned parameter: PARAM=lo..hi (step 1), lo..hi:step, "
               "or a|b|c (commas separate parameters), e.g. 'timing:min_points=0..10'. A "
               "parameter given one value is fixed; the others keep their defaults.")
PLAYERS_HELP = "Players at the table. Default: the game's usual count (" + common.DEFAULT_PLAYERS + ")."
DEALS_HELP = "Deals per block: one block is one instance of the search's pruner and of the race. Default: 100."


@common.plays_units(POLICY_HELP, PLAYERS_HELP, DEALS_HELP, first=False)
def tune(
    game: common.GameArg,
    against: Annotated[list[str] | None, typer.Option(
        "--against", metavar=common.POLICY, show_default=False, autocompletion=common.complete_policy,
        help="An opponent: one policy in every other seat, or the other seats' policies joined by + "
             "(greedy+lowball+greedy); repeat for a pool, each opponent weighted alike. Default: the game's "
             "default policy.")] = None,
    budget: Annotated[int | None, typer.Option(
        "--budget", metavar="DEALS", show_default=False,
        help="Deals the search may play per setting tried, over all its trials. Default: 30 full trials.")] = None,
    optimizer: Annotated[Optimizer, typer.Option(
        "--optimizer", metavar="NAME", show_default=False,
        help="tpe (Optuna's TPE), ntbea (N-tuple bandit, for small discrete spaces: 3 independent runs) or "
             "random (the baseline any optimizer must beat). Default: tpe.")] = Optimizer.tpe,
    blocks: Annotated[int, typer.Option("--blocks", metavar=common.N, show_default=False,
                                        help="Blocks a full trial plays. Default: 10.")] = 10,
    confirm: Annotated[int | None, typer.Option(
        "--confirm", metavar="DEALS", show_default=False,
        help="Deals of the confirmation on fresh deals. Default: as many as the race plays.")] = None,
    study: Annotated[Path | None, typer.Option(
        "--study", metavar="DIR", show_default=False,
        help="Keep the search's trials in DIR (an Optuna JournalStorage file): the same command run again "
             "resumes the study and gives the same answer.")] = None,
    out: common.out_option("the candidates, the confirmation, the sensitivity and the metadata") = None,
    plot: output.PlotOpt = None,
    fmt: common.format_option("result (csv: the candidates)") = common.Format.table,
    run: common.RunArgs = None,
):
    """Tune a policy's parameters against opponents, and say honestly how much better the winner is.

    Three streams of deals that never overlap: the search (Optuna's TPE, random search or NTBEA) scores
    settings on blocks of duplicate deals against the defaults, every deal in every seat arrangement; the
    best settings of each run and the defaults race on the selection stream, eliminated by paired tests
    under Holm's control (the defaults stay unless beaten); the winner, and the best other setting, are
    confirmed on the confirmation stream only, against the defaults and against each opponent, with 95%
    intervals. The search's estimate is printed beside the confirmed one: the gap is the winner's curse.
    Last, each parameter one step either side of the winner (the sensitivity).
    """
    from analyser.analyses.tune import tune as run_tune
    from analyser.errors import UserError

    plot = output.checked_plot_path(plot)
    policies = run.policy or []
    if len(policies) != 1:
        raise UserError(f"give one --policy to tune (with values, e.g. 'timing:min_points=0..10'), not "
                        f"{len(policies)}; the opponents are --against")
    place = run.placing()
    place.pop("first_deal")
    result = run_tune(game, policies[0], against=against, players=run.players, budget=budget,
                      optimizer=optimizer.value, seed=run.seed, block=run.count, blocks=blocks, confirm=confirm,
                      study=study, rules=run.rules, threads=run.threads, unit=run.unit, out=out,
                      progress=run.progress, **place)
    output.finish(result, print_tune, fmt, out, plot)


def print_tune(result, fmt: common.Format | str = common.Format.table, console=None):
    """Print a TuneResult as terminal tables, one JSON object, or CSV of the candidates
    (``analyser show`` calls it for a tuning file)."""
    output.print_analysis(result, fmt, print_tune_tables, result.candidates, console)


def _pp(x) -> str:
    return hundred(x, sign=True)


def _ci(row, key) -> str:
    return f"{_pp(row[key + '_ci_low'])} {_pp(row[key + '_ci_high'])}"


def print_tune_tables(result, console=None):
    from rich.console import Console
    from rich.table import Table

    from analyser.analyses.tune_result import summary_lines

    console = console or Console()
    lines = summary_lines(result)
    console.print(f"[bold]{output.game_title(result.meta['game'])}[/bold]: {lines[0].split(': ', 1)[1]}")
    for line in lines[1:3]:
        console.print(line)
    names = result.parameters
    table = Table(title="Candidates: difference from the defaults in win share points, as the search saw it, in "
                        "the race (selection stream) and confirmed (fresh deals), 95% intervals",
                  title_justify="left", caption_justify="left",
                  caption="* winner   c challenger   x eliminated after stage N of the race")
    for name in (*names, "search", "race", "95% CI", "confirmed", "95% CI", "curse", ""):
        table.add_column(name, justify="right", overflow="fold")
    for r in result.candidates.to_dict("records"):
        out = r["race_out"]
        mark = ("*" if r["winner"] else "") + ("c" if r["challenger"] else "") + \
            ("" if out is None or out != out else f"x{int(out) + 1}") + ("=" if r["defaults"] else "")
        confirmed = r["confirmed"] == r["confirmed"]
        table.add_row(*[f"{r[n]:g}" for n in names], _pp(r["search_estimate"]), _pp(r["race_diff"]),
                      _ci(r, "race_diff"), _pp(r["confirmed"]) if confirmed else "",
                      _ci(r, "confirmed") if confirmed else "", _pp(r["curse"]) if confirmed else "", mark,
                      style="bold" if r["winner"] else None)
    console.print(table)
    for line in lines[3:]:
        console.print(line)
    sens = result.sensitivity
    if len(sens):
        t = Table(title="Sensitivity: one step either side of the winner, on the confirmation deals (points)",
                  title_justify="left")
        for name in ("parameter", "value", "vs winner", "95% CI", "vs defaults", "95% CI"):
            t.add_column(name, justify="right")
        for r in sens.to_dict("records"):
            t.add_row(r["parameter"], f"{r['value']:g}", _pp(r["vs_winner"]), _ci(r, "vs_winner"),
                      _pp(r["vs_defaults"]), _ci(r, "vs_defaults"))
        console.print(t)
