"""The figure of a rollout (``analyser rollout``): each legal action's win share with its 95%
interval, best at the top, the action the seat's policy chose marked."""
from __future__ import annotations

import numpy as np

from analyser.plots.figures import ACCENT, MUTED, caption, game_title, new_figure, pct, percent_axis, title


def rollout_figure(result):
    m = result.meta
    table = result.table.iloc[::-1]          # best at the top
    fig, ax = new_figure(8.0, 1.2 + 0.45 * len(table))
    y = np.arange(len(table))
    mean = table["win"].to_numpy(float)
    err = np.abs(np.vstack([mean - table["win_ci_low"].to_numpy(float), table["win_ci_high"].to_numpy(float) - mean]))
    colors = [ACCENT if played else MUTED for played in table["played"]]
    for i, color in enumerate(colors):
        ax.errorbar(mean[i], y[i], xerr=err[:, i: i + 1], fmt="o", color=color, ecolor=color, capsize=4, lw=1.5,
                    ms=6)
    for yi, xi in zip(y, mean, strict=True):
        ax.annotate(pct(xi), (xi, yi), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax.set_yticks(y, [a + ("  (played)" if p else "") for a, p in zip(table["action"], table["played"], strict=True)])
    percent_axis(ax, "x")
    ax.set_xlabel(f"seat {m['seat']}'s win share after the action")
    ax.set_title(f"{game_title(m)}: seat {m['seat']} at step {m['step']} of {m['unit']} {m['first_deal']}\n"
                 f"{m['stopping']}", loc="left")
    caption(fig, m, extra=["common random numbers"])
    return fig


def review_figure(result):
    """Each reviewed decision's cost (points of win share below the best) with its 95% interval, by step;
    the costly ones (Holm, analyses.review) in the accent colour."""
    m = result.meta
    table = result.table.sort_values("step")
    fig, ax = new_figure(max(6.0, 0.35 * len(table) + 2), 4.0)
    x = np.arange(len(table))
    cost = 100 * table["cost"].to_numpy(float)
    err = 100 * np.abs(np.vstack([table["cost"] - table["cost_ci_low"], table["cost_ci_high"] - table["cost"]]))
    ax.axhline(0, color=MUTED, lw=1)
    costly = table["costly"].to_numpy(bool)
    for mask, color, label in ((~costly, MUTED, "not costly (Holm, 5%)"), (costly, ACCENT, "costly (Holm, 5%)")):
        if mask.any():
            ax.errorbar(x[mask], cost[mask], yerr=err[:, mask], fmt="o", color=color, ecolor=color, capsize=3, ms=5,
                        label=label)
    ax.legend(loc="best", fontsize=8)
    ax.set_xticks(x, [str(s) for s in table["step"]])
    ax.set_xlabel("step K (the position after K steps, as rollout's --step)")
    ax.set_ylabel("cost, points of win share")
    low, high = m["mean_cost_ci"]
    title(fig, f"{game_title(m)}: seat {m['seat']}'s decisions in {m['unit']} {m['first_deal']}: {m['costly']} "
               f"costly; mean cost per decision {100 * m['mean_cost']:.1f} points of win share "
               f"[{100 * low:.1f}, {100 * high:.1f}]")
    caption(fig, m, extra=["common random numbers", "best picked on half the worlds"])
    return fig
