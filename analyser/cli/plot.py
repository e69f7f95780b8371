"""``analyser plot``, and the ``--plot FILE`` that commands share: figures written as png,
svg or pdf with a non-interactive backend (pyplot is never imported; no window opens)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyser.cli.common import FILE, user_errors

PLOT_HELP = "Also draw the run's figure to this FILE: .png, .svg or .pdf. Default: no figure."


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


@user_errors
def plot(
    file: Annotated[Path, typer.Argument(metavar=FILE, show_default=False,
                                         help="A results file written by `simulate --out`.")],
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar=FILE, show_default=False,
        help="The figure to write: .png, .svg or .pdf. Default: FILE with the suffix .png.")] = None,
):
    """Draw the figure of a results file written by `simulate --out`: win share per seat and
    per policy with 95% intervals against the fair share, and the distribution of length."""
    from analyser.analyses.records import load

    out = checked_plot_path(out if out is not None else Path(file).with_suffix(".png"))
    write_plot(load(file).plot(), out)
