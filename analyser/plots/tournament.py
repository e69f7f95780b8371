"""The figure of a tournament (``analyser tournament``): the head-to-head matrix as a heat map beside the
equilibrium weights."""
from __future__ import annotations

import numpy as np
import pandas as pd

from analyser.plots.figures import (
    ACCENT,
    PlotFigure,
    caption,
    fair_share,
    game_title,
    heat,
    new_figure,
    pct,
    set_ticks,
    text_colour,
)

INTERVAL_BAND = "#d5deea"      # light: an interval, behind the value


def head_to_head(matrix: pd.DataFrame, ci_low: pd.DataFrame, ci_high: pd.DataFrame, meta: dict,
                 equilibrium: pd.DataFrame | None = None) -> PlotFigure:
    """Win share of each row policy against each column policy (mixed tables: the share of
    plays it finished above the column policy), the value and its 95% interval in each cell
    (NaN cells, e.g. the diagonal, grey); with ``equilibrium`` (analyser.stats.nash) a second
    panel of the equilibrium mix's weights with their bootstrap intervals."""
    values = matrix.to_numpy(float)
    low, high = ci_low.reindex_like(matrix).to_numpy(float), ci_high.reindex_like(matrix).to_numpy(float)
    n = max(values.shape)
    width = max(6.0, 1.6 + 1.3 * values.shape[1])
    height = max(4.0, 1.6 + 0.75 * values.shape[0])
    if equilibrium is None:
        fig, ax = new_figure(width, height)
    else:
        fig, (ax, bars) = new_figure(width + 4.0, height, ncols=2, width_ratios=[width, 4.0])
        _weights_panel(bars, equilibrium, list(matrix.index))
    fair = fair_share(meta) or 0.5         # two policies head to head, unless the run says otherwise
    value = "above share" if meta.get("seating") == "mixed" else "win share"
    im = heat(fig, ax, values, fair, f"{value} of the row policy", True)
    size = 8 if n <= 6 else 6
    for i, j in np.ndindex(values.shape):
        v = values[i, j]
        text = "–" if not np.isfinite(v) else f"{pct(v)}\n({pct(low[i, j])}–{pct(high[i, j])})"
        ink = "black" if not np.isfinite(v) else text_colour(im.cmap(im.norm(v)))
        ax.text(j, i, text, ha="center", va="center", fontsize=size, color=ink)
    set_ticks(ax, list(matrix.columns))
    set_ticks(ax, list(matrix.index), axis="y")
    ax.set_xlabel("against (column policy)")
    ax.set_ylabel("policy (row)")
    fig.suptitle(f"{game_title(meta)}: head-to-head {value}, row against column"
                 + ("" if equilibrium is None else "; the equilibrium mix"))
    caption(fig, meta, extra=[f"fair share {pct(fair)}"] if fair is not None else [])
    return fig


def _weights_panel(ax, equilibrium: pd.DataFrame, order: list[str]) -> None:
    """Horizontal bars of the equilibrium's weights (policies in the matrix's row order) with 95% intervals."""
    e = equilibrium.set_index("policy").reindex(order)
    w = e["weight"].to_numpy(float)
    low, high = e["weight_ci_low"].to_numpy(float), e["weight_ci_high"].to_numpy(float)
    ys = np.arange(len(order))
    # the interval a light band behind the bar: one of [0, 1] (a weight the deals cannot pin) then reads
    # as a pale band, not a black line across the panel
    ax.barh(ys, np.nan_to_num(high - low), left=np.nan_to_num(low), height=0.8, color=INTERVAL_BAND, lw=0,
            label="95% interval")
    ax.barh(ys, w, height=0.45, color=ACCENT, label="weight")
    for y, x in zip(ys, w, strict=True):
        inside = x > 0.5
        ax.text(x / 2 if inside else x + 0.02, y, f"{x:.2f}", va="center", fontsize=8,
                color="white" if inside else "black", ha="center" if inside else "left")
    set_ticks(ax, order, axis="y")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("equilibrium weight (band: 95% interval)")
    ax.grid(axis="x", alpha=0.3)
