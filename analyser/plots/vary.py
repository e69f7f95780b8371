"""The figure of a rule comparison (``analyser vary``): one panel per group (team or
seat), each group's win share under each value of the setting with 95% intervals;
the panels wrap into rows so that the figure keeps a readable aspect and 8-point
text however many seats there are. Each later value's tick says its paired
difference from the first value."""
from __future__ import annotations

import math

import numpy as np

from analyser.io.numbers import num
from analyser.plots.figures import (
    ACCENT,
    MUTED,
    caption,
    game_title,
    new_figure,
    pct,
    percent_axis,
    title,
    wrap,
)

COLORS = (MUTED, ACCENT, "#2e8b57", "#b8860b", "#8e44ad", "#c0392b")
MAX_WIDTH = 11.0        # inches: wider panels wrap into another row


def vary_figure(result):
    m, table = result.meta, result.table
    values = [str(v) for v in m["values"]]
    groups = list(dict.fromkeys(table["group"]))
    panel = max(3.0, 1.25 * len(values) + 0.6)
    cols, rows = _grid(len(groups), panel)
    fig, axes = new_figure(panel * cols + 0.8, 2.9 * rows + 1.4, nrows=rows, ncols=cols, sharey=True,
                           squeeze=False)
    for ax, group in zip(axes.flat, groups, strict=False):
        _group_panel(ax, table[table["group"] == group].set_index("value").loc[values], values)
    for ax in axes.flat[len(groups):]:
        ax.set_axis_off()
    for ax in axes[:, 0]:
        ax.set_ylabel("win share")
    title(fig, f"{game_title(m)}: win share under each value of {m['setting']} (same deals)")
    caption(fig, {**m, "settings": {k: v for k, v in m["settings"].items() if v != "varied"}}, None,
            [f"pts: paired difference from {m['setting']}={values[0]}"])
    return fig


def _grid(panels: int, width: float) -> tuple[int, int]:
    """Columns and rows of panels: as many columns as fit MAX_WIDTH, the rows filled evenly."""
    cols = max(1, min(panels, int(MAX_WIDTH // width)))
    rows = math.ceil(panels / cols)
    return math.ceil(panels / rows), rows


def _group_panel(ax, rows, values: list[str]) -> None:
    """One group's win share under each value; the tick under a later value says its change."""
    mean = rows["win_mean"].to_numpy(float)
    err = np.abs(np.vstack([mean - rows["win_ci_low"].to_numpy(float), rows["win_ci_high"].to_numpy(float) - mean]))
    for v in range(len(values)):
        color = COLORS[v % len(COLORS)]
        ax.errorbar([v], mean[v:v + 1], yerr=err[:, v:v + 1], fmt="o", color=color, ecolor=color, capsize=4, ms=6,
                    lw=1.5)
    ticks = [f"{value}\n{pct(y)}" + ("" if v == 0 else "\n" + change_text(row))
             for v, (value, y, (_, row)) in enumerate(zip(values, mean, rows.iterrows(), strict=True))]
    ax.set_xticks(range(len(values)), ticks, fontsize=8)
    ax.set_xlim(-0.6, len(values) - 0.4)
    percent_axis(ax)
    ax.tick_params(axis="y", labelsize=8)
    ax.set_title(wrap(f"{rows['group'].iloc[0]}: {rows['policies'].iloc[0]}", 40), fontsize=9)
    ax.grid(axis="y", alpha=0.3)


def change_text(row) -> str:
    """The paired difference from the first value in points with its interval; identical play on every deal
    said as such."""
    d, low, high = row["win_diff"], row["win_diff_ci_low"], row["win_diff_ci_high"]
    text = f"{num(d, 1, True, 100, ' pts')}\n[{num(low, 1, True, 100)}, {num(high, 1, True, 100)}]"
    return text + ("\nplayed identically" if row.get("win_diff_identical") else "")
