"""``analyser merge``: simulate results files of one run split over unit ranges, as one summary."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyser.cli import common, output


@common.user_errors
def merge(
    files: Annotated[list[Path] | None, typer.Argument(
        metavar="FILES...", show_default=False,
        help="Results files written by `simulate --out`, of one configuration and disjoint unit ranges.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar=common.FILE, show_default=False,
        help="Also write the merged records (in unit order) to this Parquet FILE, which `analyser show` "
             "reads. Default: no file.")] = None,
    fmt: common.format_option("summary") = common.Format.table,
):
    """Print one summary of several `simulate` results files, as if one run had played all their units.

    Unit i of a seed is the same game whatever else is played, so runs of one configuration (game, unit,
    players, seed, rule settings, policies and their parameters, streams, analyser version) over disjoint
    unit ranges, such as `simulate palace --seed 3 -n 100000 --first-deal 0 --out a.parquet` and `...
    --first-deal 100000 --out b.parquet` on two machines, add up to the run over all of them: `merge
    a.parquet b.parquet` prints exactly what `simulate palace --seed 3 -n 200000` would.

    Gaps between the ranges are allowed; the summary names the units it covers. Files that differ in
    their configuration or share a unit are refused, naming the files and the difference.
    """
    from analyser.analyses.merge import merge as merge_files

    result = merge_files(files or [], out=out)
    merged = f"{len(files)} file{'s' if len(files) > 1 else ''}: {result.covers}"
    if fmt == common.Format.table:
        typer.echo(f"Merged {merged}.")
    elif fmt == common.Format.csv:         # stdout stays CSV
        typer.echo(f"merged {merged}", err=True)
    output.print_result(result, fmt)
    if out is not None:
        typer.echo(f"wrote {out}", err=True)
