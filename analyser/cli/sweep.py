"""``analyser sweep``: one policy's parameters over a range of values, in every seat, on common deals."""
from __future__ import annotations

from typing import Annotated

import typer

from analyser.cli import common, output
from analyser.io.numbers import hundred, num

POLICY_HELP = ("The line-up. One policy carries the values to sweep: PARAM=lo..hi (step 1), lo..hi:step, or "
               "a|b|c (a list: commas separate parameters), for one or two parameters "
               "(e.g. 'pickup:max_pile=0..12'). Give one --policy per seat, or the swept one then one for all "
               "the other seats; alone, the other seats play it with the swept parameters at their defaults.")
PLAYERS_HELP = "Players at the table. Default: the game's usual count (" + common.DEFAULT_PLAYERS + ")."


DEALS_HELP = (
    "Deals per setting, the same deals for every setting (--count, --games and --matches are other "
    "names for it). Default: 10,000.")


@common.plays_units(POLICY_HELP, PLAYERS_HELP, DEALS_HELP)
def sweep(
    game: common.GameArg,
    baseline: Annotated[str | None, typer.Option(
        "--baseline", metavar="PARAM=V,...", show_default=False,
        help="The swept parameters' values the differences are taken from (e.g. max_pile=0). Default: "
             "their defaults; played besides the values if none equals it.")] = None,
    check_seed: Annotated[int | None, typer.Option(
        "--check-seed", metavar=common.N, show_default=False,
        help="Seed of the re-check of the best setting. Default: the run seed + 1,000,003.")] = None,
    out: common.out_option("the table and metadata") = None,
    plot: output.PlotOpt = None,
    fmt: common.format_option("result (csv: the table's rows)") = common.Format.table,
    run: common.RunArgs = None,
):
    """Sweep one policy's parameters over values against a line-up, in every seat, on common deals.

    Every deal is played in every rotation of the line-up (over the teams in a team game), so a seat's
    advantage is not read as a strategy's; every setting plays the same deals and arrangements.

    Prints per setting the swept policy's win share against the fair share and its paired difference
    from the baseline (the defaults) with 95% intervals (Tango's score interval on the deals where the
    difference is not 0), and flags the settings that differ from the baseline with Holm's family-wise
    control over all the settings. Only the baseline itself is an exact tie, 0 [0, 0]; a setting that
    played identically on all n deals is marked identical and keeps an interval for the deals not seen.

    The best setting is played again on a fresh seed: the best of many noisy estimates overstates itself.

    Aborted deals (at the action cap) are left out of the estimates; each setting's row has its difference's
    bounds over all deals (its aborted plays lost and the baseline's won, then the other way), printed for the
    best setting when more than 1% aborted. A baseline with fewer than two completed deals is one line (exit 2).
    """
    from analyser.analyses.sweep import sweep as run_sweep

    plot = output.checked_plot_path(plot)
    result = run_sweep(game, policies=run.policy or None, players=run.players, deals=run.count, seed=run.seed,
                       rules=run.rules, threads=run.threads, baseline=baseline, check_seed=check_seed,
                       unit=run.unit, out=out, progress=run.progress, **run.placing())
    output.finish(result, print_sweep, fmt, out, plot)


def print_sweep(result, fmt: common.Format | str = common.Format.table, console=None):
    """Print a SweepResult as a terminal table, one JSON object, or CSV of the table's rows
    (``analyser show`` calls it for a sweep file)."""
    output.print_analysis(result, fmt, print_sweep_table, result.table, console)


def _pc(x) -> str:
    return hundred(x)


def _pp(x) -> str:
    return hundred(x, sign=True)


def _num(x) -> str:
    return num(x, 3, grouped=True)


def _signed(x) -> str:
    return num(x, 3, sign=True, grouped=True)


def _mark(row) -> str:
    return ("*" if row.get("best") else "") + ("!" if row.get("significant") else "") + \
        ("=" if row.get("baseline") else "")


def print_sweep_table(result, console=None):
    from rich.console import Console
    from rich.table import Table

    from analyser.analyses.sweep_result import (
        arrangements_text,
        baseline_text,
        best_text,
        fair_text,
        family_text,
        others_text,
        recheck_text,
    )
    from analyser.io.numbers import plural

    console = console or Console()
    m, t = result.meta, result.table
    units = plural(m["unit"])
    title = output.game_title(m["game"])
    settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
    aborted = int(t["aborted"].sum())
    console.print(f"[bold]{title}[/bold]: {m['swept']} against {others_text(m)}, in every seat "
                  f"({arrangements_text(m)}); {m['players']} players, {m['deals']:,} {units} per setting, the "
                  f"same deals and arrangements for every setting (seed {m['seed']}; {settings})"
                  + (f"; {aborted:,} aborted {units} dropped over all settings." if aborted else "."))
    console.print(f"{baseline_text(m)}; {fair_text(m)}.")
    names = result.parameters
    rows = t.to_dict("records")
    share = Table(title="Win share per setting, in every seat, and its difference from the baseline (95% "
                        "intervals)", title_justify="left", caption_justify="left",
                  caption="* best   ! differs from the baseline (Holm, 5%)   = baseline")
    _table(share, names, rows, "win %", "win_rate", "win_ci", _pc, "vs base", "win_diff", _pp, tests=True)
    console.print(share)
    if not t["score_mean"].equals(t["win_rate"]):      # Palace: the score is the win
        score = Table(title="Mean score per setting and its difference from the baseline (95% intervals)",
                      title_justify="left")
        _table(score, names, rows, "score", "score_mean", "score_ci", _num, "vs base", "score_diff", _signed)
        console.print(score)
    console.print(f"best: {best_text(result.best)}")
    if aborts := result.aborts():
        console.print(f"Aborted: {aborts}.")
    console.print(family_text(m["family"]) + ".")
    console.print(recheck_text(result.recheck, m["unit"]))


def _table(table, names, rows, level_name, level, level_ci, level_fmt, diff_name, diff, diff_fmt,
           tests: bool = False) -> None:
    """One row per setting: the parameters, a level and a difference with their intervals; with ``tests``,
    Holm's p (of the win share difference) and the marks."""
    from analyser.io.numbers import p_short

    for name in (*names, level_name, "95% CI", diff_name, "95% CI", *(("Holm p", "") if tests else ())):
        table.add_column(name, justify="right", overflow="fold")
    for row in rows:
        cells = [f"{row[n]:g}" if isinstance(row[n], float) else str(row[n]) for n in names]
        cells += [level_fmt(row[level]), f"{level_fmt(row[level_ci + '_low'])} {level_fmt(row[level_ci + '_high'])}",
                  diff_fmt(row[diff]), f"{diff_fmt(row[diff + '_ci_low'])} {diff_fmt(row[diff + '_ci_high'])}"]
        cells += [p_short(row["p_holm"]), _mark(row)] if tests else []
        table.add_row(*cells, style="bold" if row.get("best") else None)
