"""``analyser tournament``: policies on common duplicate deals, in pairs (Bradley-Terry ratings) or
at mixed tables (Plackett-Luce ratings), with a head-to-head matrix."""
from __future__ import annotations

import math
from typing import Annotated

import typer

from analyser.cli import common, output

POLICY_HELP = ("A policy in the tournament (NAME or NAME:PARAM=VALUE,...); give two or more, each once. "
               "The first is the ratings' reference. `analyser policies GAME` lists them.")
PLAYERS_HELP = ("Players at the table. Default: the game's usual count (" + common.DEFAULT_PLAYERS + "). "
                "With more than two, each pair A, B fills the seats in the rotations of ABB..B and BAA..A; in a "
                "team game each policy fills whole teams.")
TABLES_HELP = ("pairs: every pair of policies in compare's seat arrangements, rated by Bradley-Terry. mixed: tables "
               "of distinct policies, one per seat (per team in a team game; needs at least that many policies), "
               "all such tables when there are at most 20, else a cyclic design the output names, each in "
               "neighbour-balanced cyclic orders (who sits after whom balanced) and their rotations; rated by "
               "Plackett-Luce (choix) on the finishing orders. Default: pairs.")
BOOTSTRAP_HELP = ("Replicates of the bootstrap over deals that gives the equilibrium's intervals (0: none). "
                  "Default: 200.")
CELL = "row policy's mean win share per seat against the column policy, paired 95% interval"
PAIRS_NOTE = ("The win shares of one deal's arrangements are not independent games: each pair counts as its effective "
              "number of games (from its paired per-deal variance). The pairs share deals: the rating intervals are "
              "a sandwich clustered by deal.")
EQUILIBRIUM_NOTE = ("Equilibrium (Nash averaging over A = (M - M^T) / 2): the mix of policies no policy beats on "
                    "average, and each policy's value against it (0 in the mix, below 0 for a policy the mix beats; "
                    "at 2 seats, its win share against the mix minus 1/2). It does not assume the results are "
                    "transitive. 95% intervals: bootstrap over deals; a value's part against the estimated mix "
                    "is its delta-method interval over the deals (it holds near the bound, -1/2), the mix's "
                    "movement bootstrapped.")
MIXED_NOTE = ("Finishing orders enter as top-1 choices: each policy is chosen from itself and those that finished "
              "strictly below it; tied policies are not compared (without ties: the Plackett-Luce stages). The rating "
              "intervals are robust to the shared deals (a sandwich over deals).")
FORMAT_HELP = ("How to print the result: table, json or csv (the head-to-head matrix in long form: policy, "
               "against, win_share or, with mixed tables, above_share, ci_low, ci_high). Default: table.")


DEALS_HELP = (
    "Deals per pair or table, each in every arrangement; all play the same deals (--count, --games and "
    "--matches are other names for it). Default: 10,000; with --precision the first batch, "
    "default 1,000.")


@common.plays_units(POLICY_HELP, PLAYERS_HELP, DEALS_HELP)
def tournament(
    game: common.GameArg,
    tables: Annotated[str, typer.Option("--tables", metavar="pairs|mixed", help=TABLES_HELP,
                                        show_default=False)] = "pairs",
    precision: Annotated[float | None, typer.Option(
        "--precision", metavar="H", show_default=False,
        help="Add deals to every pair until each head-to-head cell's 95% interval has half-width at most H "
             "(0.005 = ±0.5 points), or --max-deals is reached. Default: a fixed number of deals.")] = None,
    max_deals: common.MaxDealsOpt = 10_000_000,
    bootstrap: Annotated[int, typer.Option("--bootstrap", metavar="N", show_default=False,
                                           help=BOOTSTRAP_HELP)] = 200,
    out: common.out_option("the per-deal values, the ratings, the equilibrium and the configuration") = None,
    plot: output.PlotOpt = None,
    fmt: Annotated[common.Format, typer.Option("--format", "-f", show_default=False,
                                               help=FORMAT_HELP)] = common.Format.table,
    run: common.RunArgs = None,
):
    """Play policies against each other on the same duplicate deals: a head-to-head matrix, its equilibrium and
    ratings.

    Pairs (default): each cell is the row policy's win share per seat against the column policy, paired by deal, with
    its 95% interval; the equilibrium is Nash averaging over the matrix (the mix no policy beats on average); ratings
    are Bradley-Terry strengths fitted by statsmodels (a binomial GLM), flagged when they do not fit. A pair's
    difference gets Tango's score interval on the deals where it is not 0: an exact tie, 0 [0, 0], only for one
    policy under two names; two policies that played identically on all n deals keep an interval for the
    deals not seen (about ±3.84/n).

    Mixed tables (--tables mixed): each cell is the share of plays the row policy finished above the column policy;
    ratings are Plackett-Luce strengths fitted by choix to the finishing orders. The first policy is rated 0.

    Aborted deals (at the action cap) are left out of a pair's cell; for each pair with more than 1% aborted it
    also prints the bounds over all deals, every aborted play counted as lost by the row policy and as won by
    it, each with its interval. A pair with fewer than two completed deals is one line (exit 2).
    """
    from analyser.analyses.tournament import tournament as run_tournament

    plot = output.checked_plot_path(plot)
    result = run_tournament(game, policies=run.policy or [], players=run.players, deals=run.count, seed=run.seed,
                            rules=run.rules, threads=run.threads, precision=precision,
                            max_deals=max_deals, unit=run.unit, out=out, progress=run.progress, tables=tables,
                            bootstrap=bootstrap, **run.placing())
    output.finish(result, print_tournament, fmt, out, plot)


def print_tournament(result, fmt: common.Format | str = common.Format.table, console=None):
    """Print a TournamentResult as tables, one JSON object, or CSV of the head-to-head matrix (long form)."""
    output.print_analysis(result, fmt, print_tournament_tables, result.head_to_head(), console)


def _cell(value, low, high, wide: bool) -> str:
    if not math.isfinite(value):
        return "-"
    half = max(value - low, high - value)
    return f"{100 * value:.1f}%" + (" " if wide else "\n") + f"±{100 * half:.1f}"


def _signed(x, digits: int) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x:+.{digits}f}"


def print_tournament_tables(result, console=None):
    from rich.console import Console
    from rich.table import Table

    from analyser.cli.tables import whole_numbers
    from analyser.errors import counted
    from analyser.io.numbers import plural

    console = console or Console()
    m = result.meta
    arr = m.get("arrangements")
    settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
    title = output.game_title(m["game"])
    names = result.policies
    if result.mixed:
        seating = (f"{counted(m['deals'], m['unit'])}, seed {m['seed']} ({settings}). Every table plays the same "
                   "deals: "
                   f"{m['tables']['design']}; {m['tables'].get('balance', 'each in its rotations')}.")
    else:
        seating = (f"{counted(m['deals'], m['unit'])} per pair, seed {m['seed']} ({settings}). Every pair plays the "
                   "same deals, "
                   f"each in {arr['count']} arrangements ({arr['name']}).")
    console.print(f"[bold]{result.answer()}[/bold]", highlight=False)
    console.print(f"[bold]{title}[/bold]: {counted(len(names), 'policy')}, {counted(len(m['pairs']), 'pair')}; "
                  f"{m['players']} players, " + seating)
    matrix, low, high = result.matrix, result.ci_low, result.ci_high
    wide = 12 + len(names) * 14 <= console.width
    fair = m.get("fair_share")
    caption = m.get("cell") or CELL
    if fair is not None:
        caption += f"; fair share {100 * fair:.1f}%"
    table = Table(title="Head to head (row against column)", title_justify="left", caption=caption,
                  caption_justify="left")
    table.add_column("policy", justify="left", overflow="fold")
    for k in range(len(names)):
        table.add_column(str(k + 1), justify="right", overflow="fold")
    for i, row in enumerate(names):
        table.add_row(f"{i + 1} {row}", *[_cell(matrix.iloc[i, j], low.iloc[i, j], high.iloc[i, j], wide)
                                          for j in range(len(names))])
    model = m["model"]
    fit = result.fit
    note = "" if fit["fits"] else "; does not fit: a transitive summary of intransitive results"
    ratings = Table(title="Ratings (95% intervals, relative to the reference)" + note, title_justify="left",
                    caption=f"{model['name']}, reference: {model['reference']}; Elo = 400 / ln 10 x rating"
                            + ("" if fit["fits"] else "; the fit's warning is above the matrix"),
                    caption_justify="left")
    for name, left in (("rank", False), ("policy", True), ("rating", False), ("Elo", False)):
        ratings.add_column(name, justify="left" if left else "right", overflow="fold")
    for r in result.ratings.to_dict("records"):
        if r["policy"] == model["reference"]:                     # 0 by definition, not a measured [0, 0]
            ratings.add_row(str(r["rank"]), r["policy"], "0 (reference)", "0 (reference)")
            continue
        ratings.add_row(str(r["rank"]), r["policy"],
                        f"{_signed(r['rating'], 2)} [{_signed(r['ci_low'], 2)}, {_signed(r['ci_high'], 2)}]",
                        f"{_signed(r['elo'], 0)} [{_signed(r['elo_ci_low'], 0)}, {_signed(r['elo_ci_high'], 0)}]")
    run = Table(title="Per run", title_justify="left", show_header=False)
    run.add_column(justify="left", overflow="fold")
    run.add_column(justify="right", overflow="fold")
    dropped = int(result.tally.dropped.sum())
    run.add_row(f"{plural(m['unit'])} dropped (aborted), all {'tables' if result.mixed else 'pairs'}", f"{dropped:,}")
    run.add_row("stop", m["stopped"])
    if m.get("precision"):
        run.add_row("precision applies to", m["precision"]["applies_to"])
    if fit.get("dispersion") is not None:
        run.add_row("fit: misfit chi2 / df (about 1 if it fits), df, p",
                    f"{fit['dispersion']:,.2f}, {fit['df']}, {fit['pvalue']:.2g}")
    if model.get("variance_ratio") is not None:
        run.add_row("fit: choices / robust over naive variance",
                    f"{model['choices']:,} / {model['variance_ratio']:.2f}")
    if m.get("plays_per_second"):
        run.add_row("plays/s end to end", f"{m['plays_per_second']:,.0f}")
    for line in result.summary_lines():
        console.print(f"[bold]{line}[/bold]")
    for tab in (table, equilibrium_table(result), ratings, run):
        console.print(whole_numbers(tab))
    console.print(EQUILIBRIUM_NOTE)
    console.print(MIXED_NOTE if result.mixed else PAIRS_NOTE)


def equilibrium_table(result):
    """The meta-game's equilibrium: each policy's weight in the mix and its value against it."""
    from rich.table import Table

    table = Table(title="Equilibrium (Nash averaging; 95% bootstrap intervals)", title_justify="left",
                  caption=f"{result.meta.get('bootstrap', 0):,} bootstrap replicates over deals",
                  caption_justify="left")
    for name, left in (("policy", True), ("weight", False), ("value (points)", False)):
        table.add_column(name, justify="left" if left else "right", overflow="fold")
    classes = sorted({", ".join(sorted([r["policy"], *r["indistinguishable_from"].split(", ")]))
                      for r in result.equilibrium.to_dict("records") if r.get("indistinguishable_from")})
    if classes:
        table.caption += "; one policy as far as these deals tell (weight shared): " + "; ".join(classes)
    for r in result.equilibrium.to_dict("records"):
        never = r["weight_ci_high"] == 0                          # a boundary, not a constant sample
        table.add_row(r["policy"], "0 in every replicate" if never else
                      f"{_plain(r['weight'], 2)} [{_plain(r['weight_ci_low'], 2)}, {_plain(r['weight_ci_high'], 2)}]",
                      f"{_signed(_points(r['value']), 1)} [{_signed(_points(r['value_ci_low']), 1)}, "
                      f"{_signed(_points(r['value_ci_high']), 1)}]")
    return table


def _points(x):
    return None if x is None or not math.isfinite(x) else 100 * x


def _plain(x, digits: int) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"
