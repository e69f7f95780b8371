"""What a command leaves behind: its result printed (a terminal table, one JSON object or CSV),
the file it wrote named, and the figure it drew (``--plot FILE``: png, svg or pdf with a
non-interactive backend; pyplot is never imported, no window opens)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from analyser.cli.common import FILE, Format
from analyser.io.jsonable import dumps

PLOT_HELP = "Also draw the run's figure to this FILE: .png, .svg or .pdf. Default: no figure."
PlotOpt = Annotated[Path | None, typer.Option("--plot", metavar=FILE, show_default=False, help=PLOT_HELP)]


def game_title(name: str) -> str:
    """The game's title for a table's heading ("Spite & Malice", not its id), or the id of a game not
    registered here (a results file from elsewhere still prints)."""
    from analyser.games.registry import get_game

    try:
        return get_game(name).title
    except Exception:
        return name


def print_result(result, fmt: Format):
    """Print a SimulationResult as a terminal table, one JSON object, or CSV of the seat rows."""
    if fmt == Format.json:
        typer.echo(dumps(result.to_dict(), indent=2))
    elif fmt == Format.csv:
        result.summary.to_csv(sys.stdout, index=False)
    else:
        from analyser.cli.tables import print_tables

        print_tables(result)


def print_analysis(result, fmt, tables, csv_frame, console=None) -> None:
    """Print a comparison, tournament or sweep: ``tables(result, console)`` for people, one
    JSON object (``result.to_dict()``), or ``csv_frame`` as CSV for spreadsheets."""
    fmt = Format(fmt)
    if fmt == Format.json:
        typer.echo(dumps(result.to_dict(), indent=2))
    elif fmt == Format.csv:
        csv_frame.to_csv(sys.stdout, index=False)
    else:
        tables(result, console)


def finish(result, printer, fmt, out, plot) -> None:
    """After an analysis command: print the result, say where the file went, draw the figure."""
    printer(result, fmt)
    if out is not None:
        typer.echo(f"wrote {out}", err=True)
    if plot is not None:
        write_plot(result.plot(), plot)


def checked_plot_path(path: Path | None) -> Path | None:
    """Check a ``--plot`` FILE before a run starts (a bad suffix should not wait for the run)."""
    if path is None:
        return None
    from analyser.plots.figures import check_plot_path

    return check_plot_path(path)


def write_plot(fig, path: Path) -> None:
    """Write ``fig`` to ``path`` and say so on stderr, as ``--out`` does."""
    import matplotlib

    matplotlib.use("Agg")       # never a GUI backend from the CLI, whatever MPLBACKEND says
    from analyser.plots.figures import save_figure

    save_figure(fig, path)
    typer.echo(f"wrote {path}", err=True)
