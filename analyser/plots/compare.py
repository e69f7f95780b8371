"""The figure of a comparison (``analyser compare``): A's paired advantage with its 95% interval, and
the kinds of table when they disagree."""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.io.numbers import num
from analyser.plots.figures import (
    ACCENT,
    FAIR,
    MUTED,
    PlotFigure,
    caption,
    game_title,
    is_share,
    new_figure,
    points_axis,
    wrap,
)


def paired_difference(frame: pd.DataFrame, meta: dict, tables: pd.DataFrame | None = None,
                      note: str | None = None) -> PlotFigure:
    """One panel per row of ``frame``: the paired difference with its 95% interval, the
    independent interval lighter beside it, and zero; then, with ``tables``, one panel of
    the win share difference per kind of table (A alone, B alone) titled with ``note``.

    Columns: ``quantity`` (e.g. "win share", "score"), ``difference``, ``ci_low``,
    ``ci_high``; optional ``independent_ci_low``/``independent_ci_high``, ``percent``
    (default: quantities naming a win, share or rate), ``tie`` (an exact tie, one policy by
    construction) and ``identical`` (0 on every deal of the sample): said in the title.
    ``tables``: ``name``, ``estimate``, ``ci_low``, ``ci_high``. ``meta`` may name the two
    sides as ``a`` and ``b``.
    """
    rows = frame.to_dict("records")
    panels = len(rows) + (tables is not None)
    fig, axes = new_figure(10, 1.1 + 1.25 * panels, nrows=panels, squeeze=False)
    if tables is not None:
        _table_panel(axes[-1, 0], tables, note)
    for ax, row in zip(axes[:, 0], rows, strict=False):
        percent = bool(row.get("percent", is_share(row["quantity"])))
        d = row["difference"]
        ax.errorbar([d], [1], xerr=[[d - row["ci_low"]], [row["ci_high"] - d]], fmt="o", color=ACCENT,
                    capsize=5, lw=2, label="paired 95% interval")
        labels = ["paired 95%"]
        if pd.notna(row.get("independent_ci_low", np.nan)):
            ax.errorbar([d], [0], xerr=[[d - row["independent_ci_low"]], [row["independent_ci_high"] - d]],
                        fmt="o", color=MUTED, capsize=5, lw=2, label="independent 95% interval")
            labels = ["independent 95%", "paired 95%"]
        ax.set_yticks(range(2 - len(labels), 2), labels, fontsize=8)
        ax.set_ylim(-0.6 if len(labels) == 2 else 0.4, 1.6)
        ax.axvline(0, color="#333333", lw=1)
        value = num(d, 2, True, 100, " percentage points") if percent else f"{d:+.3g}"
        if row.get("tie"):
            value = "exact tie (one policy: 0 on every deal, interval [0, 0])"
        elif row.get("identical"):
            value = f"0: played identically on all {int(row['deals']):,} deals (the interval: deals not seen)" \
                if pd.notna(row.get("deals", np.nan)) else "0: played identically on every deal"
        ax.set_title(f"{row['quantity']}: {value}", fontsize=10, loc="left")
        if percent:
            ax.xaxis.set_major_formatter(points_axis())
        ax.set_xlabel(row["quantity"] + (" (percentage points)" if percent else ""), fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    # the y tick labels say which interval is which: no legend to cover a point
    sides = f" ({meta['a']} − {meta['b']})" if meta.get("a") and meta.get("b") else ""
    fig.suptitle(f"{game_title(meta)}: paired difference{sides}")
    caption(fig, meta)
    return fig


def _table_panel(ax, tables: pd.DataFrame, note: str | None) -> None:
    """The win share difference per kind of table with 95% intervals, against zero."""
    rows = tables.to_dict("records")
    for i, row in enumerate(rows):
        d = row["estimate"]
        ax.errorbar([d], [i], xerr=[[d - row["ci_low"]], [row["ci_high"] - d]], fmt="o", color=FAIR if note and
                    "depends" in note else ACCENT, capsize=5, lw=2)
    ax.set_yticks(range(len(rows)), [wrap(r["name"], 18) for r in rows], fontsize=8)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.axvline(0, color="#333333", lw=1)
    ax.xaxis.set_major_formatter(points_axis())
    ax.set_title(f"win share difference by table: {note}" if note else "win share difference by table",
                 fontsize=10, loc="left")
    ax.set_xlabel("win share difference (percentage points)", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
