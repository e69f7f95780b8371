"""``analyser vary``: one line-up on the same deals under each value of one rule setting."""
from __future__ import annotations

from typing import Annotated

import typer

from analyser.cli import common, output
from analyser.cli.simulate import PLAYERS_HELP, POLICY_HELP
from analyser.errors import counted
from analyser.io.numbers import hundred, num, plus_minus

DEALS_HELP = (
    "Deals to play, each under every value (--count, --games and --matches are other names for it). "
    "Default: 10,000.")


@common.plays_units(POLICY_HELP, PLAYERS_HELP, DEALS_HELP)
def vary(
    game: common.GameArg,
    setting: Annotated[str, typer.Option(
        "--setting", metavar="NAME[=V,...]", show_default=False,
        help="The rule setting to vary, and its values (default: every value of an on/off or choice setting), "
             "e.g. talk=none,open or hands=2,4.")],
    out: common.out_option("the table and the configuration") = None,
    plot: output.PlotOpt = None,
    fmt: common.format_option("result") = common.Format.table,
    run: common.RunArgs = None,
):
    """What a rule setting is worth: the same seats on the same deals under each value of it.

    Per team (or seat): win share and score under each value, and the change from the first value with a
    95% interval paired by deal (Tango's score interval on the deals where the change is not 0). A change of 0
    on all n deals is "identical", with an interval for the deals not seen (about ±3.84/n of the range), never
    an exact tie: no rule value is known to be inert.
    Olenon: `analyser vary olenon --setting talk --policy partner --policy shed`.

    Aborted deals (at the action cap) are left out of the changes; when more than 1% aborted under a value or
    the first, it also prints the change's bounds over all deals, the group's aborted plays counted as lost
    under the value and won under the first, then the other way, each with its interval. If fewer than two
    deals completed under every value it says so in one line (exit 2).
    """
    from analyser.analyses.vary import vary as run_vary

    plot = output.checked_plot_path(plot)
    name, eq, values = setting.partition("=")

    result = run_vary(game, name.strip(), values if eq else None, policies=run.policy, players=run.players, n=run.count,
                      seed=run.seed, rules=run.rules, threads=run.threads, unit=run.unit, out=out,
                      progress=run.progress, **run.placing())
    output.finish(result, print_vary, fmt, out, plot)


def print_vary(result, fmt: common.Format | str = common.Format.table, console=None):
    """Print a VaryResult as a terminal table, one JSON object, or CSV of its rows (``show`` calls it)."""
    output.print_analysis(result, fmt, print_vary_tables, result.table, console)


def print_vary_tables(result, console=None):
    from rich.console import Console
    from rich.table import Table

    from analyser.cli.tables import whole_numbers

    console = console or Console()
    m = result.meta
    fixed = ", ".join(f"{k}={v}" for k, v in m["settings"].items() if v != "varied")
    values = [str(v) for v in m["values"]]
    console.print(f"[bold]{output.game_title(m['game'])}[/bold]: {m['setting']} = {' / '.join(values)}; "
                  f"{m['players']} players, "
                  f"{counted(m['deals'], m['unit'])} under each ({m['aborted']:,} dropped: aborted under some "
                  f"value), seed {m['seed']} ({fixed}). The same deals, seats and policies under every value.")
    table = Table(title="Win share under each value (95% intervals)", title_justify="left",
                  caption=f"win %: ± is the 95% interval's half-width (its larger side; --format json gives both "
                          f"ends); change: points of win share from {m['setting']}={values[0]}, paired by deal; "
                          f"indep.: the half-width independent deals would give; identical: the same play on "
                          f"every deal of the run, with the interval of the deals not seen (a rule value is "
                          f"never an exact tie)", caption_justify="left")
    for name, left in (("group", True), ("policies", True), (m["setting"], True), ("win %", False),
                       ("change", False), ("indep.", False), ("score", False)):
        table.add_column(name, justify="left" if left else "right", overflow="fold")
    for _, row in result.table.iterrows():
        first = row["value"] == values[0]
        share = plus_minus(row["win_mean"], row["win_ci_low"], row["win_ci_high"])
        identical = not first and bool(row["win_diff_identical"])
        change = "" if first else \
            plus_minus(row["win_diff"], row["win_diff_ci_low"], row["win_diff_ci_high"], sign=True) + \
            (f": identical on all {m['deals']:,}" if identical else "")
        independent = "" if first or identical else f"±{hundred(row['win_diff_independent_half_width'], 1)}"
        table.add_row(row["group"], row["policies"], row["value"], share, change, independent,
                      num(row["score_mean"], 3, grouped=True))
    console.print(whole_numbers(table, console.width))
    for line in result.aborts():
        console.print(f"Aborted: {line}.")
