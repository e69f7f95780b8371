"""``analyser simulate`` and ``analyser show``."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyser.cli import common, output

GAME_HELP = "Game to play; `analyser games` lists them."
POLICY_HELP = ("A policy, NAME or NAME:PARAM=VALUE,... (`analyser policies GAME` lists them), or one of "
               "your own as MODULE:FUNCTION[:PARAM=VALUE,...] (an @njit function or PolicySpec, its module in "
               "the current directory or on sys.path); give it once for every seat, once per team "
               "(Olenon: team 0, then team 1) or once per seat. Default: the game's default policy ("
               + common.DEFAULT_POLICY + ").")
RULE_HELP = ("A rule setting NAME=VALUE, repeatable; `analyser games` lists them. "
             "Default: the game's settings as listed there.")
PLAYERS_HELP = "Players at the table. Default: the game's usual count (" + common.DEFAULT_PLAYERS + ")."


PolicyOpt = common.policy_option(POLICY_HELP)
PlayersOpt = common.players_option(PLAYERS_HELP)
GameOpt = Annotated[str, typer.Argument(metavar=common.GAME, help=GAME_HELP, autocompletion=common.complete_game,
                                        show_default=False)]   # simulate's and trace's


COUNT_HELP = ("How many to play: games (Palace) or matches, or hands or rounds with --unit. --count, --games and "
              "--matches are other names for it. Default: 10,000; with --precision the first batch, 1,000.")


@common.plays_units(POLICY_HELP, PLAYERS_HELP, COUNT_HELP)
def simulate(
    game: GameOpt,
    precision: Annotated[float | None, typer.Option(
        "--precision", metavar="H", show_default=False,
        help="Add games or matches until every win share and rate has a Chow-Robbins half-width "
             "z*sqrt((s^2 + 1/n)/n) at most H (0.005 = ±0.5 points), after at least 100, or --max-deals is "
             "reached. The share whose interval is the widest drives the stop, which can bias it slightly (too "
             "little to measure over 300 seeds at H = 0.01); --rerun removes that. Default: a fixed number.")] = None,
    rerun: Annotated[bool, typer.Option(
        "--rerun", show_default=False,
        help="With --precision: after the stop at N, play N again on fresh deals (N to 2N-1 of the same seed) "
             "and report that fixed-count run, whose estimates the stop did not bias.")] = False,
    max_deals: common.MaxDealsOpt = 10_000_000,
    out: common.out_option("one row per game or match",
                           " An existing FILE is replaced only when the run completes. Default: no file.") = None,
    fmt: common.format_option("summary") = common.Format.table,
    plot: output.PlotOpt = None,
    run: common.RunArgs = None,
):
    """Play games (Palace) or matches and print a summary.

    Per seat and per policy: win share, mean score and the game's own rates, with 95% intervals.

    Per run: game length, events, aborted games and speed.
    """
    from analyser.analyses.simulate import simulate as run_simulation
    from analyser.errors import UserError

    if rerun and precision is None:
        raise UserError("--rerun repeats a --precision run at the count it reached: give --precision H too")
    plot = output.checked_plot_path(plot)
    result = run_simulation(game, players=run.players, policies=run.policy, n=run.count, seed=run.seed,
                            rules=run.rules, threads=run.threads, out=out, keep_records=False,
                            progress=run.progress, unit=run.unit, precision=precision, max_deals=max_deals,
                            rerun=rerun, **run.placing())
    output.finish(result, output.print_result, fmt, out, plot)


@common.user_errors
def show(
    file: Annotated[Path, typer.Argument(metavar=common.FILE, show_default=False,
                                         help="A results file written with --out.")],
    fmt: common.format_option("summary") = common.Format.table,
):
    """Print the summary of a results file again: `simulate`, `compare`, `tournament`, `sweep`, `tune` or `vary`
    with --out. A run directory (--run-dir DIR): how far its run got, and a simulation's summary of the
    units it holds."""
    from analyser.analyses.kinds import kind_of
    from analyser.analyses.show import load, load_run_dir
    from analyser.games.registry import lazy

    stored = load_run_dir(file)
    if stored is not None:
        result, lines = stored
        for line in lines:                      # programs reading json or csv get only the summary
            typer.echo(line, err=fmt != common.Format.table)
        if result is not None:
            output.print_result(result, fmt)
        return
    result = load(file)
    lazy(kind_of(result.meta).printer)(result, fmt)
