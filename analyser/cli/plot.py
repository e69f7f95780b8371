"""``analyser plot``: the figure of a results file (see analyser.cli.output for ``--plot FILE``)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyser.cli.common import FILE, user_errors
from analyser.cli.output import checked_plot_path, write_plot


@user_errors
def plot(
    file: Annotated[Path, typer.Argument(metavar=FILE, show_default=False,
                                         help="A results file written with --out by simulate, compare, "
                                              "tournament, sweep, tune, vary, rollout or review.")],
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar=FILE, show_default=False,
        help="The figure to write: .png, .svg or .pdf. Default: FILE with the suffix .png.")] = None,
):
    """Draw the figure of a results file, the one its command's --plot draws: `simulate` (win share per
    seat and per policy against the fair share, and the distribution of length), `compare`, `tournament`,
    `sweep`, `tune`, `vary`, `rollout` or `review`."""
    from analyser.analyses.show import load

    out = checked_plot_path(out if out is not None else Path(file).with_suffix(".png"))
    write_plot(load(file).plot(), out)
