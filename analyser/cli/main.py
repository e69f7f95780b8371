"""The ``analyser`` app. Commands import numba and the games only when they run,
so ``analyser --help`` answers at once."""
from __future__ import annotations

import sys

import typer

from analyser.cli import info, simulate, trace

app = typer.Typer(
    name="analyser",
    help="Monte Carlo strategy analyser for card games: simulate, trace and compare policies.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command()(simulate.simulate)
app.command()(simulate.show)
app.command()(trace.trace)
app.command()(info.games)
app.command()(info.policies)


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors come out as one line and exit code 2, like every bad input."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="analyser", standalone_mode=False)
    except Exception as err:  # typer's usage errors (ClickException) carry format_message()
        if hasattr(err, "format_message"):
            print(f"error: {err.format_message()}".replace("\n", " "), file=sys.stderr)
            sys.exit(2)
        if type(err).__name__ == "Abort":
            sys.exit(1)
        raise
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
