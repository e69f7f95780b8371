"""``analyser compare``: policy A against policy B on duplicate deals."""
from __future__ import annotations

from typing import Annotated

import typer

from analyser.cli import common, output
from analyser.io.numbers import num

POLICY_HELP = ("Give it exactly twice: policy A, then policy B (NAME or NAME:PARAM=VALUE,...). "
               "`analyser policies GAME` lists them.")
PLAYERS_HELP = ("Players at the table. Default: the game's usual count (" + common.DEFAULT_PLAYERS + "). "
                "With more than two, A and B fill the seats in the rotations of ABB..B and BAA..A; in a team game "
                "each fills whole teams (A on team 0 and B on the other, then swapped).")


DEALS_HELP = (
    "Deals to play, each in every arrangement (--count, --games and --matches are other names for it). "
    "Default: 10,000; with --precision the first batch, default 1,000.")


@common.plays_units(POLICY_HELP, PLAYERS_HELP, DEALS_HELP)
def compare(
    game: common.GameArg,
    precision: Annotated[float | None, typer.Option(
        "--precision", metavar="H", show_default=False,
        help="Add deals until the paired win share difference's Chow-Robbins half-width z*sqrt((s^2 + 1/n)/n) "
             "is at most H (0.005 = ±0.5 points), after at least 100 deals, or --max-deals is reached. "
             "Default: a fixed number of deals.")] = None,
    max_deals: common.MaxDealsOpt = 10_000_000,
    out: common.out_option("the per-deal paired values and the configuration") = None,
    plot: output.PlotOpt = None,
    fmt: common.format_option("result") = common.Format.table,
    run: common.RunArgs = None,
):
    """Compare policy A with policy B on duplicate deals.

    Every deal is played once in each seat arrangement: the same cards, each policy with its own random stream.

    A's advantage in win share and score: a 95% interval paired by deal (Tango's score interval on the deals
    that differ), and the one independent deals would give. An exact tie, 0 [0, 0], is only two names for one
    deterministic policy; policies that played identically on all n deals keep an interval for the deals not
    seen (about ±3.84/n of the range). With 3+ seats it says when the tables
    where A sits alone and where B does disagree (the answer depends on the table).

    Aborted deals (at the action cap) are left out of the estimate; when more than 1% of the deals aborted it
    also prints the bounds over all deals, every aborted play counted as lost by A and as won by A, each with
    its interval. If fewer than two deals completed it says so in one line (exit 2).
    """
    from analyser.analyses.compare import compare as run_compare

    plot = output.checked_plot_path(plot)
    result = run_compare(game, policies=run.policy or [], players=run.players, deals=run.count, seed=run.seed,
                         rules=run.rules, threads=run.threads, precision=precision, max_deals=max_deals,
                         unit=run.unit, out=out, progress=run.progress, **run.placing())
    output.finish(result, print_compare, fmt, out, plot)


def print_compare(result, fmt: common.Format | str = common.Format.table, console=None):
    """Print a CompareResult as a terminal table, one JSON object, or CSV of the summary rows
    (``analyser show`` calls it for a comparison file)."""
    output.print_analysis(result, fmt, print_compare_tables, result.summary, console)






def _summary_cells(row, value, width) -> list[str]:
    """Paired interval, independent half-width and reduction of a summary row; an exact tie (one policy by
    construction) and identical play on every deal of the sample say so."""
    if row["tie"]:
        return ["0 [0, 0]: exact tie (one policy)", "-", "exact tie"]
    if row.get("identical"):
        return [f"0 [{value(row['ci_low'])}, {value(row['ci_high'])}]: played identically on all "
                f"{int(row['deals']):,} deals", "-", "-"]
    return [f"{value(row['estimate'])} [{value(row['ci_low'])}, {value(row['ci_high'])}]",
            f"±{width(row['independent_half_width'])}", f"{_num(row['variance_reduction'], 2, False)}x"]


def print_compare_tables(result, console=None):
    import numpy as np
    from rich.console import Console
    from rich.table import Table

    from analyser.analyses.compare import SAME, heterogeneity_text
    from analyser.cli.tables import whole_numbers
    from analyser.io.numbers import plural

    console = console or Console()
    m = result.meta
    units = plural(m["unit"])
    arr = m["arrangements"]
    settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
    title = output.game_title(m["game"])
    console.print(f"[bold]{title}[/bold]: A = {m['policies']['A']}, B = {m['policies']['B']}; "
                  f"{m['players']} players, {m['deals']:,} {units}, seed {m['seed']} ({settings}). "
                  f"Every deal is played in each of {arr['count']} arrangements ({arr['name']}); "
                  f"A - B is the mean over A's seats minus the mean over B's, paired by deal"
                  + (": A's team against B's team." if arr.get("teams") else "."))
    if m.get("same_policy"):
        console.print(f"[bold]{SAME}[/bold]")
    het = result.heterogeneity
    if het["flag"]:
        console.print(f"[bold]Win share: {heterogeneity_text(het)}.[/bold] One number for A - B does not fit "
                      f"both kinds of table; see per arrangement.")
    summary = result.summary.set_index("quantity")
    table = Table(title="A's advantage over B (95% intervals)", title_justify="left",
                  caption="points: percentage points of win share; reduction: how many times as many "
                          "independent deals the same precision needs", caption_justify="left")
    for name, left in (("", True), ("A - B, paired", False), ("independent deals", False), ("reduction", False)):
        table.add_column(name, justify="left" if left else "right", overflow="fold")
    win = summary.loc["win share difference"]
    table.add_row("win share (points)", *_summary_cells(win, _pp, lambda x: _pp(x, False)))
    score = summary.loc["score difference"]
    wins, scores = result.tally.values("win"), result.tally.values("score")
    if not np.array_equal(wins, scores, equal_nan=True):   # Palace's score is its win: not shown twice
        table.add_row("score", *_summary_cells(score, _num, lambda x: _num(x, 3, False)))
    per = Table(title="Per arrangement (mean over each policy's seats)", title_justify="left")
    for name, left in (("seats", True), ("streams", True), ("A win share", False), ("B win share", False),
                       ("A - B (points, 95% CI)", False)):
        per.add_column(name, justify="left" if left else "right", overflow="fold")
    for row in result.by_arrangement.to_dict("records"):
        per.add_row(row["seats"], row["streams"], _pp(row["a_win_share"], False) + "%",
                    _pp(row["b_win_share"], False) + "%",
                    f"{_pp(row['win_diff'])} [{_pp(row['win_diff_ci_low'])}, {_pp(row['win_diff_ci_high'])}]")
    run = Table(title="Per run", title_justify="left", show_header=False)
    run.add_column(justify="left", overflow="fold")
    run.add_column(justify="right", overflow="fold")
    t = result.tally
    run.add_row(f"{units} compared / dropped (aborted)", f"{t.kept:,} / {t.dropped:,}")
    run.add_row("stop", m["stopped"])
    if het["tested"] and not het["flag"]:
        d = het["difference"]
        gap = "0 [0, 0]: exact tie (one policy)" if d["tie"] else \
            f"{_pp(d['estimate'])} [{_pp(d['ci_low'])}, {_pp(d['ci_high'])}]: no evidence the tables differ"
        run.add_row("A alone - B alone (points, paired)", gap)
    if m.get("precision"):
        run.add_row("precision applies to", m["precision"]["applies_to"])
        if m["precision"].get("stopping"):
            run.add_row("stopping rule", m["precision"]["stopping"])
    if m.get("plays_per_second"):
        run.add_row("plays/s end to end", f"{m['plays_per_second']:,.0f}")
    console.print(whole_numbers(table))
    if aborts := result.aborts():
        console.print(f"Aborted: {aborts}.")
    for tab in (per, run):
        console.print(whole_numbers(tab))


def _pp(x, sign: bool = True) -> str:
    return num(x, 2, sign, 100)


def _num(x, digits: int = 3, sign: bool = True) -> str:
    return num(x, digits, sign, grouped=True)
