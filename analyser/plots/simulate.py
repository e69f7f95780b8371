"""The figures of a simulate result: win share per seat and per policy against the fair share, and
the distribution of length."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analyser.io.numbers import num, plural
from analyser.plots.figures import (
    ACCENT,
    FAIR,
    MUTED,
    PlotFigure,
    fair_share,
    new_figure,
    pct,
    percent_axis,
    result_caption,
    set_ticks,
)


def interval_points(ax, frame: pd.DataFrame, labels: list[str], fair: float | None, title: str) -> None:
    """Win share points with 95% interval bars, the fair share dashed."""
    mean = frame["win_rate"].to_numpy(float)
    err = np.abs(np.vstack([mean - frame["win_ci_low"].to_numpy(float), frame["win_ci_high"].to_numpy(float) - mean]))
    x = np.arange(len(mean))
    ax.errorbar(x, mean, yerr=err, fmt="o", color=ACCENT, ecolor=ACCENT, capsize=5, ms=6, lw=1.5, label="win share")
    for xi, m in zip(x, mean, strict=True):
        ax.annotate(pct(m), (xi, m), xytext=(7, 0), textcoords="offset points", va="center", fontsize=8)
    if fair is not None:
        ax.axhline(fair, color=FAIR, ls="--", lw=1, label=f"fair share {pct(fair)}")
    ax.set_xlim(-0.6, len(mean) - 0.4)
    set_ticks(ax, labels)
    percent_axis(ax)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def _win_panels(result, ax_seat, ax_policy) -> None:
    fair = fair_share(result.meta, result.game)
    seats = result.summary
    interval_points(ax_seat, seats, [f"seat {s}\n({p})" for s, p in zip(seats["seat"], seats["policy"], strict=True)],
                     fair, "per seat")
    pol = result.by_policy
    interval_points(ax_policy, pol, [f"{p}\n(seats {seat_runs(s)})" for p, s in zip(pol["policy"], pol["seats"],
                                                                                strict=True)],
                     fair, "per policy (its seats pooled)")
    ax_seat.set_ylabel("win share")
    ax_policy.legend(fontsize=8, loc="best")


def seat_runs(seats) -> str:
    """A policy's seats as runs, short enough for a tick label: "0-3", "0, 2", "0-2, 5"."""
    numbers = sorted(int(x) for x in str(seats).replace(" ", "").split(",") if x != "")
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def _length_panel(result, ax) -> None:
    """Distribution of the completed units' length, mean and 95th percentile marked; a few lengths as
    labelled bars, one length as a sentence (a single bar says nothing)."""
    game, hist = result.game, np.asarray(result.tally.length_hist, float)
    units = plural(game.unit)
    ax.set_title(f"length of completed {units}", fontsize=10)
    total = hist.sum()
    if total == 0:
        _note(ax, f"no completed {units}")
        return
    nz = np.flatnonzero(hist)
    if nz.size == 1:
        _one_length(result, ax, int(nz[0]))
        return
    ax.set_xlabel(f"{game.length} per {game.unit}")
    ax.set_ylabel(f"share of {units}")
    if nz.size <= FEW_LENGTHS and nz[-1] - nz[0] < 20:
        _few_lengths(ax, nz, hist[nz] / total)
    else:
        _length_histogram(ax, hist / total, int(nz[0]), int(nz[-1]))
    fig = result.figures
    ax.axvline(fig["length_mean"], color=ACCENT, lw=1.5, label=f"mean {fig['length_mean']:,.1f}")
    ax.axvline(fig["length_p95"], color=FAIR, ls="--", lw=1.2, label=f"95th percentile {fig['length_p95']:,.0f}")
    percent_axis(ax)
    ax.legend(fontsize=8, loc="best")
    ax.grid(axis="y", alpha=0.3)


FEW_LENGTHS = 5


def _note(ax, text: str, detail: str = "") -> None:
    """A panel that is a sentence instead of a plot."""
    ax.set_axis_off()
    ax.text(0.5, 0.6, text, ha="center", va="center", transform=ax.transAxes, fontsize=11)
    if detail:
        ax.text(0.5, 0.35, detail, ha="center", va="center", transform=ax.transAxes, fontsize=9, color="#444444")


def _one_length(result, ax, length: int) -> None:
    """Every unit took the same length: say so, with what does vary (decisions, shared wins) beside it."""
    game, fig = result.game, result.figures
    detail = []
    if np.isfinite(fig.get("decisions_mean", np.nan)):
        detail.append(f"{num(fig['decisions_mean'], 1)} of them decisions on average\n(two or more legal actions)")
    if fig.get("shared_wins"):
        detail.append(f"{pct(fig['shared_win_rate'])} of {plural(game.unit)} ended in a shared win")
    _note(ax, f"every {game.unit} took\n{length:,} {game.length}", "\n".join(detail))


def _few_lengths(ax, lengths: np.ndarray, shares: np.ndarray) -> None:
    """A bar per length that occurred, its share written on it."""
    bars = ax.bar(lengths, shares, width=0.8, color=MUTED, edgecolor=ACCENT, lw=0.4)
    ax.bar_label(bars, [pct(x) for x in shares], fontsize=8)
    ax.set_xticks(lengths, [f"{x:,}" for x in lengths], fontsize=8)
    ax.set_xlim(lengths[0] - 1.5, lengths[-1] + 1.5)
    ax.set_ylim(0, 1.15 * shares.max())


def _length_histogram(ax, shares: np.ndarray, lo: int, hi: int) -> None:
    """Bars over the lengths from ``lo`` to ``hi``, at most about 60 of them."""
    step = max(1, math.ceil((hi - lo + 1) / 60))
    edges = np.arange(lo, hi + step + 1, step) - 0.5
    ax.hist(np.arange(shares.size), bins=edges, weights=shares, color=MUTED, edgecolor=ACCENT, lw=0.4)
    if hi - lo < 20:                                        # a narrow spread: some room either side
        ax.set_xlim((lo + hi) / 2 - 12, (lo + hi) / 2 + 12)
    if step > 1:
        ax.text(0.99, 0.6, f"bins of {step}", ha="right", transform=ax.transAxes, fontsize=7, color="#666666")


def win_shares(result) -> PlotFigure:
    """Win share per seat and per policy with 95% intervals, against the fair share."""
    n_seats, n_pol = len(result.summary), len(result.by_policy)
    fig, (a, b) = new_figure(10, 4, ncols=2, sharey=True, width_ratios=[max(n_seats, 2), max(n_pol, 2)])
    _win_panels(result, a, b)
    fig.suptitle(f"{result.game.title}: win share per seat and per policy")
    result_caption(fig, result)
    return fig


def length_distribution(result) -> PlotFigure:
    """Histogram of the completed units' length (``tally.length_hist``)."""
    fig, ax = new_figure(10, 4)
    _length_panel(result, ax)
    fig.suptitle(f"{result.game.title}: {result.game.length} per {result.game.unit}")
    result_caption(fig, result)
    return fig


def result_figure(result) -> PlotFigure:
    """The default figure of a SimulationResult: win shares per seat and per policy, and length."""
    n_seats, n_pol = len(result.summary), len(result.by_policy)
    fig, (a, b, c) = new_figure(12, 4.5, ncols=3, width_ratios=[max(n_seats, 2), max(n_pol, 2), 4])
    b.sharey(a)
    _win_panels(result, a, b)
    _length_panel(result, c)
    fig.suptitle(f"{result.game.title}: who wins, and how long a {result.game.unit} lasts")
    result_caption(fig, result)
    return fig
