"""The figure of a tuning (``analyser tune``): each raced setting's search, race and confirmed
difference from the defaults side by side (the gap between the first and the last is the winner's
curse), and the sensitivity of the winner to one-step deviations of each parameter."""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from analyser.io.numbers import num
from analyser.plots.figures import ACCENT, FAIR, MUTED, caption, new_figure, set_ticks, title


def tune_figure(candidates: pd.DataFrame, sensitivity: pd.DataFrame, meta: dict):
    names = [p["name"] for p in meta["parameters"]]
    panels = 1 + len(names)
    fig, axes = new_figure(4.0 * panels, 4.2, ncols=panels, squeeze=False)
    axes = axes[0]
    ax = axes[0]
    x = np.arange(len(candidates))
    rows = candidates.to_dict("records")
    ax.axhline(0, color=FAIR, lw=1, ls="--")
    ax.plot(x - 0.2, candidates["search_estimate"], "v", color=MUTED, label="search")
    ax.errorbar(x, candidates["race_diff"], yerr=_err(candidates, "race_diff"), fmt="o", color=MUTED, mfc="white",
                capsize=3, label="race (selection stream)")
    if "confirmed" in candidates and candidates["confirmed"].notna().any():
        ax.errorbar(x + 0.2, candidates["confirmed"], yerr=_err(candidates, "confirmed"), fmt="s", color=ACCENT,
                    capsize=3, label="confirmed (fresh deals)")
    marks = ["defaults" if r["defaults"] else ("winner" if r["winner"] else f"#{i}") for i, r in enumerate(rows)]
    set_ticks(ax, [m + ("*" if r["winner"] else "") for m, r in zip(marks, rows, strict=True)])
    ax.yaxis.set_major_formatter(_points())
    ax.set_ylabel("win share difference from the defaults")
    ax.set_title("search, race and confirmed estimates", fontsize=10)
    ax.legend(fontsize=8)
    for ax, name in zip(axes[1:], names, strict=True):
        part = sensitivity[sensitivity["parameter"] == name].sort_values("value")
        ax.axhline(0, color=FAIR, lw=1, ls="--")
        if len(part):
            ax.errorbar(part["value"], part["vs_winner"], yerr=_err(part, "vs_winner"), fmt="o", color=ACCENT,
                        capsize=3)
        winner = next(r[name] for r in rows if r["winner"])
        ax.plot([winner], [0], "*", color=FAIR, ms=12, label="winner")
        ax.yaxis.set_major_formatter(_points())
        ax.set_xlabel(name)
        ax.set_ylabel("difference from the winner")
        ax.set_title(f"one step of {name}", fontsize=10)
        ax.legend(fontsize=8)
    title(fig, f"Tuning {meta['tuned']} against {', '.join(a['label'] for a in meta['against'])}")
    caption(fig, meta, extra=[f"{meta['optimizer']}, budget {meta['budget']:,}"])
    return fig


def _err(frame: pd.DataFrame, value: str) -> np.ndarray:
    mid = frame[value].to_numpy(float)
    return np.abs(np.vstack([mid - frame[f"{value}_ci_low"].to_numpy(float),
                             frame[f"{value}_ci_high"].to_numpy(float) - mid]))


def _points() -> FuncFormatter:
    """Signed percentage points to two decimals: a sensitivity's steps are often a tenth of a point."""
    return FuncFormatter(lambda v, _: num(v, 2, True, 100, " pp"))
