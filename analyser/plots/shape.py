"""The shape section's figures (analyser.analyses.report.shape_section): each a Figure, never shown.

length       the distribution of the completed units' length (a histogram, the quantiles marked) beside
             the share of each way a unit ended, with 95% intervals
reliability  the per-step estimate's predicted chances against how often they came true, by bin
"""
from __future__ import annotations

import numpy as np

from analyser.plots.figures import ACCENT, FAIR, MUTED, caption, new_figure, set_ticks


def length_figure(part: dict, meta: dict, caption_meta: dict):
    lengths, ends = part["lengths"], part["ends"]
    fig, (a, b) = new_figure(11, 4.2, ncols=2)
    a.hist(lengths, bins=min(40, max(5, int(np.sqrt(max(len(lengths), 1))))), color=MUTED, edgecolor="white")
    for r in part["length"]["quantiles"]:
        a.axvline(r["length"], color=FAIR if r["quantile"] == 0.5 else ACCENT, lw=1.5 if r["quantile"] == 0.5 else 0.8,
                  ls="-" if r["quantile"] == 0.5 else "--")
    a.set_xlabel(f"length ({meta['length']})")
    a.set_ylabel(f"completed {meta['unit']}s")
    a.set_title("length: median (solid), 10/25/75/90% (dashed)", fontsize=10)
    y = np.arange(len(ends))
    share = np.array([e["share"] for e in ends])
    err = np.abs(np.vstack([share - [e["ci_low"] for e in ends], np.array([e["ci_high"] for e in ends]) - share]))
    b.barh(y, share, color=ACCENT, alpha=0.8)
    b.errorbar(share, y, xerr=err, fmt="none", color="#333333", capsize=3)
    set_ticks(b, [e["way"] for e in ends], axis="y", width=30)
    b.invert_yaxis()
    b.set_xlabel(f"share of {meta['unit']}s")
    b.set_title("how they end (95% intervals)", fontsize=10)
    fig.suptitle(f"{meta['title']}: how long a {meta['unit']} runs and how it ends")
    caption(fig, caption_meta, extra=[meta["lineup_text"]])
    return fig


def reliability_figure(part: dict, meta: dict, caption_meta: dict):
    est = part["estimate"]
    rows = est["reliability"]
    fig, ax = new_figure(5.5, 5)
    p = np.array([r["predicted"] for r in rows])
    o = np.array([r["observed"] for r in rows])
    err = np.abs(np.vstack([o - [r["ci_low"] for r in rows], np.array([r["ci_high"] for r in rows]) - o]))
    ax.plot([0, 1], [0, 1], color="#333333", lw=1, ls="--", label="perfectly calibrated")
    ax.errorbar(p, o, yerr=err, fmt="o", color=ACCENT, capsize=3, label="bins of predictions")
    ax.set_xlabel("predicted chance")
    ax.set_ylabel("came true")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8, loc="upper left")
    b = est["brier"]
    ax.set_title(f"Brier {b['brier']:.3f} against the base rate's {b['base']:.3f}", fontsize=10)
    fig.suptitle(f"{meta['title']}: is the per-step estimate calibrated?")
    caption(fig, caption_meta, extra=[f"{est['sampled']} {meta['unit']}s, out of sample"])
    return fig
