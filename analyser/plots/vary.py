"""The figure of a rule comparison (``analyser vary``): each group's win share under
each value of the setting, with 95% intervals, side by side; the paired
difference from the first value is written over each later value's point."""
from __future__ import annotations

import numpy as np

from analyser.plots.figures import ACCENT, MUTED, caption, game_title, new_figure, pct, percent_axis, set_ticks

COLORS = (MUTED, ACCENT, "#2e8b57", "#b8860b", "#8e44ad", "#c0392b")


def vary_figure(result):
    m = result.meta
    table = result.table
    values = [str(v) for v in m["values"]]
    groups = list(dict.fromkeys(table["group"]))
    fig, ax = new_figure(max(6.0, 1.6 * len(groups) * len(values)), 4.5)
    width = 0.8 / len(values)
    for v, value in enumerate(values):
        rows = table[table["value"] == value].set_index("group").loc[groups]
        x = np.arange(len(groups)) + (v - (len(values) - 1) / 2) * width
        mean = rows["win_mean"].to_numpy(float)
        err = np.abs(np.vstack([mean - rows["win_ci_low"].to_numpy(float), rows["win_ci_high"].to_numpy(float) - mean]))
        color = COLORS[v % len(COLORS)]
        ax.errorbar(x, mean, yerr=err, fmt="o", color=color, ecolor=color, capsize=4, ms=6, lw=1.5,
                    label=f"{m['setting']}={value}")
        for xi, yi, (_, row) in zip(x, mean, rows.iterrows(), strict=True):
            low, high = 100 * row["win_diff_ci_low"], 100 * row["win_diff_ci_high"]
            note = pct(yi) if v == 0 else f"{pct(yi)}\n{100 * row['win_diff']:+.1f} pts [{low:+.1f}, {high:+.1f}]"
            ax.annotate(note, (xi, yi), xytext=(6, 0), textcoords="offset points", va="center", fontsize=7)
    labels = [f"{g}\n{p}" for g, p in zip(groups, table.drop_duplicates("group")["policies"], strict=True)]
    set_ticks(ax, labels, width=24)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    percent_axis(ax)
    ax.set_ylabel("win share")
    ax.legend(fontsize=8, loc="best")
    fig.suptitle(f"{game_title(m)}: win share under each value of {m['setting']} (same deals)")
    caption(fig, {**m, "settings": {k: v for k, v in m["settings"].items() if v != "varied"}}, None,
            [f"pts: paired difference from {m['setting']}={values[0]}"])
    return fig
