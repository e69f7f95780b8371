"""``analyser simulate`` and ``analyser show``."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyser.cli import common, output

GAME_HELP = "Game to play; `analyser games` lists them."
POLICY_HELP = ("A policy, NAME or NAME:PARAM=VALUE,...; give it once for every seat, once per team "
               "(Olenon: team 0, then team 1) or once per seat. "
               "`analyser policies GAME` lists them. Default: the game's default policy ("
               + common.DEFAULT_POLICY + ").")
RULE_HELP = ("A rule setting NAME=VALUE, repeatable; `analyser games` lists them. "
             "Default: the game's settings as listed there.")
PLAYERS_HELP = "Players at the table. Default: the game's usual count (" + common.DEFAULT_PLAYERS + ")."
UNIT_HELP = ("What one simulated record is: a whole game or match (default), or, for games played in hands or "
             "rounds, a single hand or round from a fresh deal.")


PolicyOpt = common.policy_option(POLICY_HELP)
PlayersOpt = common.players_option(PLAYERS_HELP)
GameOpt = Annotated[str, typer.Argument(metavar=common.GAME, help=GAME_HELP, autocompletion=common.complete_game,
                                        show_default=False)]   # simulate's and trace's


@common.user_errors
def simulate(
    game: GameOpt,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    count: Annotated[int | None, typer.Option(
        "--count", "-n", metavar=common.N, show_default=False,
        help="How many to play: games (Palace) or matches, or hands or rounds with --unit. --deals, --games and "
             "--matches are other names for it. Default: 10,000; with --precision the first batch, 1,000.")] = None,
    deals: Annotated[int | None, typer.Option("--deals", metavar=common.N, hidden=True)] = None,
    games: Annotated[int | None, typer.Option("--games", metavar=common.N, hidden=True)] = None,
    matches: Annotated[int | None, typer.Option("--matches", metavar=common.N, hidden=True)] = None,
    unit: Annotated[str | None, typer.Option("--unit", "-u", metavar="UNIT", help=UNIT_HELP,
                                                autocompletion=common.complete_unit, show_default=False)] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar=common.N, show_default=False,
                                      help="Run seed: with the settings it fixes every game. Default: 0.")] = 0,
    rule: Annotated[list[str] | None, typer.Option("--rule", metavar=common.RULE, help=RULE_HELP,
                                                      autocompletion=common.complete_rule, show_default=False)] = None,
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
    max_deals: Annotated[int, typer.Option("--max-deals", metavar=common.N, show_default=False,
                                           help="The cap for --precision. Default: 10,000,000.")] = 10_000_000,
    threads: Annotated[int | None, typer.Option(
        "--threads", "-t", metavar=common.N, show_default=False,
        help="Worker threads; the numbers do not depend on it. Default: all cores.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar=common.FILE, show_default=False,
        help="Also write one row per game or match to this Parquet FILE; an existing FILE is replaced only "
             "when the run completes. Default: no file.")] = None,
    fmt: common.format_option("summary") = common.Format.table,
    plot: output.PlotOpt = None,
    first_deal: common.FirstDealOpt = 0,
    chunk_size: common.ChunkSizeOpt = 1 << 16,
    backend: common.BackendOpt = None,
    scheduler: common.SchedulerOpt = None,
    run_dir: common.RunDirOpt = None,
    no_progress: common.NoProgressOpt = False,
):
    """Play games (Palace) or matches and print a summary.

    Per seat and per policy: win share, mean score and the game's own rates, with 95% intervals.

    Per run: game length, events, aborted games and speed.
    """
    from analyser.analyses.simulate import simulate as run_simulation
    from analyser.errors import UserError
    from analyser.games.registry import parse_rule_args

    if rerun and precision is None:
        raise UserError("--rerun repeats a --precision run at the count it reached: give --precision H too")
    plot = output.checked_plot_path(plot)
    count = common.one_of({"--count": count, "--deals": deals, "--games": games, "--matches": matches},
                   10_000 if precision is None else 1_000)
    result = run_simulation(game, players=players, policies=policy, n=count, seed=seed,
                            rules=parse_rule_args(rule), threads=threads, out=out,
                            keep_records=False, progress=not no_progress, unit=unit, precision=precision,
                            max_deals=max_deals, rerun=rerun, first_deal=first_deal, chunk_size=chunk_size,
                            backend=common.where(backend, scheduler), run_dir=run_dir)
    output.print_result(result, fmt)
    if out is not None:
        typer.echo(f"wrote {out}", err=True)
    if plot is not None:
        output.write_plot(result.plot(), plot)


@common.user_errors
def show(
    file: Annotated[Path, typer.Argument(metavar=common.FILE, show_default=False,
                                         help="A results file written with --out.")],
    fmt: common.format_option("summary") = common.Format.table,
):
    """Print the summary of a results file again: `simulate`, `compare`, `tournament`, `sweep` or `vary`
    with --out."""
    from analyser.analyses.show import load
    from analyser.games.registry import lazy

    result = load(file)
    kind = result.meta.get("kind")
    printer = {"compare": "analyser.cli.compare:print_compare", "sweep": "analyser.cli.sweep:print_sweep",
               "tournament": "analyser.cli.tournament:print_tournament",
               "vary": "analyser.cli.vary:print_vary", "rollout": "analyser.cli.rollout:print_rollout",
               "review": "analyser.cli.rollout:print_review"}.get(kind)
    (lazy(printer) if printer else output.print_result)(result, fmt)
