"""The ``analyser`` app. Commands import numba and the games only when they run,
so ``analyser --help``, ``--version`` and shell completion answer at once."""
from __future__ import annotations

import signal
import sys
from typing import Annotated

import typer

from analyser.cli import (
    compare,
    info,
    merge,
    plot,
    replay,
    report,
    rollout,
    simulate,
    skill,
    sweep,
    tournament,
    trace,
    tune,
    vary,
    warmup,
)
from analyser.cli.common import Command, Group, stop_code
from analyser.errors import Terminated, stop_word

app = typer.Typer(
    name="analyser",
    help="Monte Carlo strategy analyser for card games: simulate, trace and compare policies.",
    no_args_is_help=True,
    rich_markup_mode="markdown",     # a paragraph wraps to the terminal instead of breaking at source lines
    pretty_exceptions_enable=False,
    add_completion=True,
    cls=Group,
)
# What each command's --help ends with: one or two lines to copy (README's tour has more).
EXAMPLES = {
    simulate.simulate: ["analyser simulate palace --players 4 -n 100000 --policy saver --policy lowest",
                        "analyser simulate olenon --policy partner --policy shed --rule talk=open"],
    simulate.show: ["analyser show palace.parquet"],
    merge.merge: ["analyser merge a.parquet b.parquet --out ab.parquet"],
    trace.trace: ["analyser trace palace --seed 1 --deal 17",
                  "analyser trace olenon --seed 1 --deal 0 --round 1 --format jsonl"],
    replay.replay: ["analyser replay palace --seed 1 --deal 17 --out game.html"],
    rollout.rollout: ["analyser rollout palace --seed 1 --deal 17 --list",
                      "analyser rollout palace --seed 1 --deal 0 --step 19 --trials 2000"],
    rollout.review: ["analyser review palace --seed 1 --deal 0 --seat 0 --trials 200"],
    compare.compare: ["analyser compare palace --policy saver --policy lowest --players 4 -n 20000"],
    tournament.tournament: ["analyser tournament palace -p 2 --policy saver --policy lowest --policy pickup"],
    plot.plot: ["analyser plot cmp.parquet --out cmp.png"],
    sweep.sweep: ["analyser sweep palace -p 2 --policy 'pickup:max_pile=0..12' --policy saver -n 20000"],
    tune.tune: ["analyser tune enemy_anemone --policy 'timing:min_points=0..10,late_tricks=0..10'",
                "analyser tune palace -p 2 --policy 'pickup:max_pile=0..12' --against saver --study st"],
    vary.vary: ["analyser vary olenon --setting talk --policy partner --policy shed -n 100000"],
    report.report: ["analyser report palace --deals 20000 --out palace.md"],
    skill.skill: ["analyser skill palace -p 2 --policy pimc:worlds=4 -n 200",
                  "analyser skill olenon --policy pimc:worlds=4 --part relative --part luck -n 100"],
    info.games: ["analyser games"],
    info.policies: ["analyser policies palace"],
    warmup.warmup: ["analyser warmup", "analyser warmup palace olenon --no-search --jobs 1"],
}
for command, lines in EXAMPLES.items():
    app.command(cls=Command, epilog="\n\n".join(f"Example: `{line}`" for line in lines))(command)


def package_version() -> str:
    """The installed distribution's version; the source tree's when it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("analyser")
    except PackageNotFoundError:
        from analyser.version import __version__

        return __version__


def _print_version(value: bool):
    if value:
        typer.echo(f"analyser {package_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", metavar="", callback=_print_version, is_eager=True,
                                          show_default=False, help="Print the version and exit.")] = False,
):
    pass


def _terminate(signum, frame):
    """SIGTERM raised where Python delivers it, so every cleanup of Ctrl-C runs (partial files removed)."""
    raise Terminated


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors come out as one line and exit code 2, like every bad input;
    Ctrl-C outside a run exits with 130. Shell completion (_ANALYSER_COMPLETE) is answered
    by the command itself, before any of this. SIGTERM is handled as Ctrl-C is (exit 143)."""
    signal.signal(signal.SIGTERM, _terminate)
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="analyser", standalone_mode=False)
    except Exception as err:  # typer's usage errors (ClickException) carry format_message()
        if type(err).__name__ == "NoArgsIsHelpError":   # bare `analyser`: the help (rich printed it already)
            text = err.format_message()
            if text.strip():
                print(text)
            sys.exit(2)
        if hasattr(err, "format_message"):
            print(f"error: {err.format_message()}".replace("\n", " "), file=sys.stderr)
            sys.exit(2)
        if type(err).__name__ == "Abort":   # click's, raised from the Ctrl-C or SIGTERM outside a command
            print(stop_word(err.__cause__), file=sys.stderr)
            sys.exit(stop_code(err.__cause__))
        raise
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
