"""Figures of a run: win shares against the fair share, game length, paired
differences, head-to-head and sweep results.

Every function returns a :class:`PlotFigure` (a matplotlib ``Figure``) built with
the object-oriented API: pyplot is never imported, so no window opens, no
backend is chosen and no global figure is left open. A notebook shows the
returned figure inline once (``_repr_png_``); ``fig.savefig(path)`` writes png,
svg or pdf. Every figure has a title, labelled axes and a caption naming the
game, players, seed, count and settings of the run.
"""
from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from analyser.errors import UserError
from analyser.io.numbers import num, plural, plus_minus
from analyser.io.results_file import check_target

INTERVAL = "95% intervals"
ACCENT, MUTED, FAIR = "#1f5fa8", "#9bb7d9", "#c0392b"


class PlotFigure(Figure):
    """A Figure that a notebook shows inline without pyplot or ``%matplotlib``."""

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.savefig(buf, format="png", bbox_inches="tight")
        return buf.getvalue()


# ---------------------------------------------------------------- shared helpers

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def check_plot_path(path) -> Path:
    """The path of a figure file to write, checked before any run (a figure is drawn after it): a known
    suffix, a regular file in an existing directory that can be written to."""
    path = Path(path)
    check_target(path, f"name a {', '.join(PLOT_SUFFIXES[:-1])} or {PLOT_SUFFIXES[-1]} file")
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise UserError(f"cannot plot to {path}: name a {', '.join(PLOT_SUFFIXES[:-1])} or {PLOT_SUFFIXES[-1]} "
                        f"file")
    if not path.parent.is_dir():
        raise UserError(f"cannot plot to {path}: there is no directory {path.parent}")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"cannot plot to {path}: {path if path.exists() else path.parent} is not writable")
    return path


def save_figure(fig: Figure, path) -> Path:
    """Write ``fig`` as png, svg or pdf (by the suffix), with no GUI backend involved."""
    path = check_plot_path(path)
    try:
        fig.savefig(path)
    except OSError as err:
        raise UserError(f"cannot write {path} ({err.strerror or err})") from None
    return path


def new_figure(width: float = 10.0, height: float = 4.0, **subplots):
    """A constrained-layout figure and its axes (``subplots`` go to ``Figure.subplots``)."""
    fig = PlotFigure(figsize=(width, height), dpi=100, layout="constrained")
    return fig, fig.subplots(**subplots)


def wrap(label, width: int = 14) -> str:
    """Break a long label (``saver:keep=6,burn_at=4``) into lines at spaces, commas and colons."""
    return "\n".join(_wrap_line(line, width) for line in str(label).split("\n"))


def _wrap_line(text: str, width: int) -> str:
    parts, token = [], ""
    for ch in text:
        token += ch
        if ch in " ,:":
            parts.append(token)
            token = ""
    parts.append(token)
    lines, line = [], ""
    for part in parts:
        if line and len(line) + len(part.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += part
    lines.append(line.rstrip())
    return "\n".join(x for x in lines if x)


def set_ticks(ax, labels: Sequence, axis: str = "x", width: int = 14) -> None:
    """Category ticks, wrapped; slanted when there are many of them."""
    texts = [wrap(lab, width) for lab in labels]
    pos = range(len(texts))
    if axis == "x":
        longest = max((len(line) for t in texts for line in t.split("\n")), default=0)
        many = len(texts) > 4 and longest > 6 or len(texts) > 12
        ax.set_xticks(pos, texts, rotation=30 if many else 0, ha="right" if many else "center", fontsize=8)
    else:
        ax.set_yticks(pos, texts, fontsize=8)


def percent_axis(ax, axis: str = "y", decimals: int | None = None) -> None:
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(PercentFormatter(1.0, decimals=decimals))


def points_axis() -> FuncFormatter:
    """Ticks in percentage points, signed; zero without a sign (never "-0.0 pp")."""
    return FuncFormatter(lambda v, _: num(v, 1, True, 100, " pp"))


def pct(x: float, digits: int = 1) -> str:
    return num(x, digits, scale=100, suffix="%")


def game_spec(meta: dict):
    """The run's GameSpec (None when the game is not registered here)."""
    from analyser.games.registry import get_game

    try:
        return get_game(meta["game"]).for_unit(meta.get("unit"))
    except Exception:   # a caption must never fail for want of a game
        return None


def game_title(meta: dict, game=None) -> str:
    game = game or game_spec(meta)
    return meta.get("title") or (game.title if game else str(meta.get("game", "")))


def fair_share(meta: dict, game=None) -> float | None:
    """A seat's share of the wins when every seat is equally good: win_total(players) / players."""
    if meta.get("fair_share") is not None:
        return float(meta["fair_share"])
    game = game or game_spec(meta)
    players = meta.get("players")
    return game.win_total(players) / players if game and players else None


def caption_text(meta: dict, game=None, extra: Sequence[str] = (), intervals: bool = True) -> str:
    """``Palace · 4 players · seed 1 · 500 games (4 aborted) · short_game=False, ... · 95% intervals``."""
    game = game or game_spec(meta)
    parts = [game_title(meta, game)]
    if meta.get("players"):
        parts.append(f"{meta['players']} players")
    if meta.get("seed") is not None:
        parts.append(f"seed {meta['seed']}")
    count = meta.get("deals", meta.get("units"))
    if count is not None:
        unit = meta.get("unit") or (game.unit if game else "game")
        aborted = meta.get("aborted")
        parts.append(f"{int(count):,} {plural(unit)}" + (f" ({aborted:,} aborted)" if aborted else ""))
    if meta.get("settings"):
        parts.append(", ".join(f"{k}={v}" for k, v in meta["settings"].items()))
    parts += [*extra, INTERVAL] if intervals else extra
    return " · ".join(parts)


def caption(fig, meta: dict, game=None, extra: Sequence[str] = (), intervals: bool = True) -> None:
    """The caption at the bottom of the figure, wrapped to its width (constrained layout makes room)."""
    import textwrap

    chars = int(fig.get_figwidth() * 14)       # about 14 characters of 8-point text an inch
    fig.supxlabel(textwrap.fill(caption_text(meta, game, extra, intervals), chars), fontsize=8, color="#444444")


def title(fig, text: str) -> None:
    """The figure's title, wrapped to its width (about 8 characters of 12-point text an inch)."""
    import textwrap

    fig.suptitle(textwrap.fill(text, int(fig.get_figwidth() * 8)))


def _result_caption(fig, result) -> None:
    caption(fig, {**result.meta, "aborted": result.tally.aborted}, result.game, [f"win = {result.game.outcome}"])


# ---------------------------------------------------------------- a simulate result

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
    interval_points(ax_policy, pol, [f"{p}\n(seats {s})" for p, s in zip(pol["policy"], pol["seats"], strict=True)],
                     fair, "per policy (its seats pooled)")
    ax_seat.set_ylabel("win share")
    ax_policy.legend(fontsize=8, loc="best")


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
    _result_caption(fig, result)
    return fig


def length_distribution(result) -> PlotFigure:
    """Histogram of the completed units' length (``tally.length_hist``)."""
    fig, ax = new_figure(10, 4)
    _length_panel(result, ax)
    fig.suptitle(f"{result.game.title}: {result.game.length} per {result.game.unit}")
    _result_caption(fig, result)
    return fig


def result_figure(result) -> PlotFigure:
    """The default figure of a SimulationResult: win shares per seat and per policy, and length."""
    n_seats, n_pol = len(result.summary), len(result.by_policy)
    fig, (a, b, c) = new_figure(12, 4.5, ncols=3, width_ratios=[max(n_seats, 2), max(n_pol, 2), 4])
    b.sharey(a)
    _win_panels(result, a, b)
    _length_panel(result, c)
    fig.suptitle(f"{result.game.title}: who wins, and how long a {result.game.unit} lasts")
    _result_caption(fig, result)
    return fig


# ---------------------------------------------------------------- comparisons, tournaments, sweeps

def _is_share(name: str) -> bool:
    return any(w in str(name).lower() for w in ("win", "share", "rate"))


def paired_difference(frame: pd.DataFrame, meta: dict, tables: pd.DataFrame | None = None,
                      note: str | None = None) -> PlotFigure:
    """One panel per row of ``frame``: the paired difference with its 95% interval, the
    independent interval lighter beside it, and zero; then, with ``tables``, one panel of
    the win share difference per kind of table (A alone, B alone) titled with ``note``.

    Columns: ``quantity`` (e.g. "win share", "score"), ``difference``, ``ci_low``,
    ``ci_high``; optional ``independent_ci_low``/``independent_ci_high``, ``percent``
    (default: quantities naming a win, share or rate), ``tie`` (an exact tie: said in
    the title). ``tables``: ``name``, ``estimate``, ``ci_low``, ``ci_high``. ``meta`` may
    name the two sides as ``a`` and ``b``.
    """
    rows = frame.to_dict("records")
    panels = len(rows) + (tables is not None)
    fig, axes = new_figure(10, 1.1 + 1.25 * panels, nrows=panels, squeeze=False)
    if tables is not None:
        _table_panel(axes[-1, 0], tables, note)
    for ax, row in zip(axes[:, 0], rows, strict=False):
        percent = bool(row.get("percent", _is_share(row["quantity"])))
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
            value = "exact tie (0 on every deal, interval [0, 0])"
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


def _ink(rgba) -> str:
    """Black or white text, whichever reads on a cell of this colour."""
    r, g, b = rgba[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def _heat(fig, ax, values: np.ndarray, centre: float | None, label: str, percent: bool):
    """A heat map of ``values`` (NaN grey) with its colour bar; a diverging map around ``centre``."""
    from matplotlib import colormaps
    from matplotlib.colors import TwoSlopeNorm

    finite = values[np.isfinite(values)]
    lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    if centre is not None and lo < centre < hi:
        norm, cmap = TwoSlopeNorm(centre, lo, hi), "RdBu"
    else:
        norm, cmap = None, "viridis"
    im = ax.imshow(np.ma.masked_invalid(values), cmap=colormaps[cmap].with_extremes(bad="#dddddd"), norm=norm,
                   aspect="auto")
    bar = fig.colorbar(im, ax=ax, shrink=0.9)
    bar.set_label(label, fontsize=8)
    if percent:
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    return im


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
    im = _heat(fig, ax, values, fair, f"{value} of the row policy", True)
    size = 8 if n <= 6 else 6
    for i, j in np.ndindex(values.shape):
        v = values[i, j]
        text = "–" if not np.isfinite(v) else f"{pct(v)}\n({pct(low[i, j])}–{pct(high[i, j])})"
        ink = "black" if not np.isfinite(v) else _ink(im.cmap(im.norm(v)))
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
    err = np.vstack([w - e["weight_ci_low"].to_numpy(float), e["weight_ci_high"].to_numpy(float) - w])
    ys = np.arange(len(order))
    ax.barh(ys, w, color=ACCENT, xerr=np.nan_to_num(np.maximum(err, 0)), capsize=4, ecolor="#333333")
    for y, x in zip(ys, w, strict=True):
        inside = x > 0.5
        ax.text(x / 2 if inside else x + 0.02, y, f"{x:.2f}", va="center", fontsize=8,
                color="white" if inside else "black", ha="center" if inside else "left")
    set_ticks(ax, order, axis="y")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("equilibrium weight (Nash averaging)")
    ax.grid(axis="x", alpha=0.3)


def _ci_columns(frame: pd.DataFrame, value: str) -> tuple[str, str]:
    """``win_diff`` -> ``win_diff_ci_low``/..., ``win_rate`` -> ``win_ci_low``/...; else ``ci_low``/``ci_high``."""
    base = value.rsplit("_", 1)[0]
    for low, high in ((f"{value}_ci_low", f"{value}_ci_high"), (f"{base}_ci_low", f"{base}_ci_high"),
                      ("ci_low", "ci_high")):
        if low in frame and high in frame:
            return low, high
    raise ValueError(f"the sweep frame has no interval columns for {value} ({base}_ci_low or ci_low)")


def _params(frame: pd.DataFrame, value: str, given: Sequence[str | None], count: int) -> list[str]:
    """The parameter columns: those given, else the first columns that are neither the value nor an interval."""
    if all(given):
        return list(given)
    free = [c for c in frame.columns if c != value and "ci_" not in str(c)]
    return free[:count]


def _label(name: str) -> str:
    return str(name).replace("_rate", " share").replace("win_diff", "win share difference").replace("_mean", "") \
        .replace("_", " ")


def _is_difference(value: str) -> bool:
    return str(value).endswith("_diff")


def _reference(meta: dict, value: str) -> tuple[float | None, str]:
    """The line a sweep's value is read against: 0 (the baseline) for a difference, else the fair share."""
    if _is_difference(value):
        return 0.0, "baseline"
    fair = fair_share(meta) if _is_share(value) else None
    return fair, f"fair share {pct(fair)}" if fair is not None else ""


def _best_row(frame: pd.DataFrame, ys: np.ndarray, value: str, best: str) -> int:
    """The sweep's own best row (by win share) when the frame marks it and a win share is shown, else the
    max (or min) of the values shown."""
    if "best" in frame and frame["best"].any() and str(value).startswith("win"):
        return int(np.flatnonzero(frame["best"].to_numpy(bool))[0])
    return int(np.nanargmax(ys) if best == "max" else np.nanargmin(ys))


def _near_best(frame: pd.DataFrame, value: str, k: int, best: str) -> np.ndarray:
    """The rows whose 95% interval overlaps row ``k``'s: as good as the best for all this run can tell
    (overlap is the cautious test: it never calls a row worse that a paired test would not)."""
    low_col, high_col = _ci_columns(frame, value)
    low, high = frame[low_col].to_numpy(float), frame[high_col].to_numpy(float)
    with np.errstate(invalid="ignore"):
        near = high >= low[k] if best == "max" else low <= high[k]
    near[k] = True
    return near


SIGNIFICANT = "! differs from the baseline (Holm, 5%)"


def _flags(frame: pd.DataFrame, name: str) -> np.ndarray:
    return frame[name].to_numpy(bool) if name in frame else np.zeros(len(frame), bool)


def _teams(meta: dict, players: int) -> tuple[int, ...]:
    game = game_spec(meta)
    return game.team_of(players) if game else tuple(range(players))


def _whose(meta: dict) -> str:
    """Whose value a sweep shows: ``of pickup (seats rotated) against saver``; in a team game the swept
    policy's team with its partners. Empty when the metadata does not name the line-up."""
    policy, lineup, seat = meta.get("policy"), meta.get("lineup"), meta.get("seat")
    if not policy:
        return ""
    if not lineup or seat is None:
        return f" of {policy}"
    teams = _teams(meta, len(lineup))
    partners = [p for i, p in enumerate(lineup) if teams[i] == teams[seat] and i != seat]
    others = ", ".join(dict.fromkeys(p for i, p in enumerate(lineup) if teams[i] != teams[seat]))
    if partners:
        who = f"{policy}'s team (with {', '.join(dict.fromkeys(partners))}; teams rotated)"
    else:
        who = f"{policy} (seats rotated)"
    return f" of {who}" + (f" against {others}" if others else "")


def _read_against(meta: dict, value: str) -> str:
    """What the sweep's value is read against, for the subtitle: the fair share (an equal seat's or
    team's) or, for a difference, the baseline."""
    if _is_difference(value):
        base = (meta.get("baseline") or {}).get("params")
        return "0 = the baseline" + (" " + ", ".join(f"{k}={v:g}" for k, v in base.items()) if base else "")
    fair = fair_share(meta) if _is_share(value) else None
    if fair is None:
        return ""
    teams = (meta.get("arrangements") or {}).get("teams")
    return f"fair share {pct(fair)}: what an equal {'team' if teams else 'seat'} wins"


def _noise_text(near: int, noun: str, marked: str = "") -> str:
    if near == 1:
        return f"best {noun}{marked} clear of the rest (no other 95% interval overlaps it)"
    return f"best within noise: {near} {noun}s{marked} (95% intervals overlap the top one's)"


def _subtitle(fig, ax, parts: Sequence[str]) -> None:
    """The axes title under the figure's, wrapped to the figure's width (about 12 characters of 9-point
    text an inch)."""
    import textwrap

    ax.set_title(textwrap.fill(" · ".join(p for p in parts if p), int(fig.get_figwidth() * 12)), fontsize=9)


def _shown(v: float, value: str) -> str:
    return pct(v) if _is_share(value) and not _is_difference(value) else \
        num(v, 1, True, 100, " pts") if _is_difference(value) else f"{v:.3g}"


def sweep_curve(frame: pd.DataFrame, meta: dict, x: str | None = None, value: str = "win_rate",
                best: str = "max") -> PlotFigure:
    """``value`` against the parameter ``x`` (default: the first other column) with its 95% interval
    bars, the best point (the frame's ``best`` row, else ``best``: "max" or "min") starred and the
    points within noise of it (intervals overlapping) marked, the values that differ from the baseline
    (a ``significant`` column) ringed, and the fair share (for a difference: 0, the baseline) drawn."""
    (x,) = _params(frame, value, [x], 1)
    data = frame.sort_values(x)
    low_col, high_col = _ci_columns(data, value)
    xs, ys = data[x].to_numpy(float), data[value].to_numpy(float)
    fig, ax = new_figure(10, 4.4)
    err = np.abs(np.vstack([ys - data[low_col].to_numpy(float), data[high_col].to_numpy(float) - ys]))
    ax.fill_between(xs, data[low_col].to_numpy(float), data[high_col].to_numpy(float), color=MUTED, alpha=0.4, lw=0)
    ax.errorbar(xs, ys, yerr=err, fmt="o-", color=ACCENT, ecolor=ACCENT, capsize=3, ms=4, lw=1.5,
                label=f"{_label(value)}, 95% interval")
    flagged = _flags(data, "significant")
    if flagged.any():
        ax.plot(xs[flagged], ys[flagged], "o", mfc="none", mec=FAIR, ms=10, mew=1.5, label=SIGNIFICANT[2:])
    k = _best_row(data, ys, value, best)
    near = _near_best(data, value, k, best)
    if near.sum() > 1:
        ax.plot(xs[near], ys[near], "s", mfc="none", mec="#ffb000", ms=12, mew=1.5, label="within noise of the best")
    ax.plot([xs[k]], [ys[k]], "*", color=FAIR, ms=14, label=f"best: {x} = {xs[k]:g} ({_shown(ys[k], value)})",
            zorder=3)
    ref, ref_label = _reference(meta, value)
    if ref is not None:
        ax.axhline(ref, color=FAIR, ls="--", lw=1, label=ref_label)
    if _is_share(value):
        percent_axis(ax)
    policy = f"{meta['policy']}: " if meta.get("policy") else ""
    ax.set_xlabel(f"{policy}{x}")
    ax.set_ylabel(_label(value))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    _subtitle(fig, ax, [_read_against(meta, value), _noise_text(int(near.sum()), "value")])
    title(fig, f"{game_title(meta)}: {_label(value)}{_whose(meta)}")
    caption(fig, meta, extra=_sweep_extra(meta))
    return fig


def _sweep_extra(meta: dict) -> list[str]:
    """A sweep's design in its caption: the arrangements and the baseline, when the metadata has them."""
    extra = []
    if meta.get("arrangements"):
        a = meta["arrangements"]
        extra.append(f"{a['name']} ({a['count']} arrangements)")
    if meta.get("baseline"):
        extra.append("baseline " + ", ".join(f"{k}={v:g}" for k, v in meta["baseline"]["params"].items()))
    return extra


def _cell_text(v: float, low: float, high: float, value: str, mark: str) -> str:
    """A heat map cell: the value (and its marks) over the larger side of its 95% interval."""
    share, diff = _is_share(value), _is_difference(value)
    text = plus_minus(v, low, high, scale=100.0 if share else 1.0, sign=diff)
    head, _, half = text.partition(" ±")
    head += "%" if share and not diff else ""
    return f"{head}{mark}" + (f"\n±{half}" if half else "")


def sweep_heatmap(frame: pd.DataFrame, meta: dict, x: str | None = None, y: str | None = None,
                  value: str = "win_rate", best: str = "max") -> PlotFigure:
    """``value`` over a grid of two parameters (default: the first two other columns), each cell with its
    value and ± (the larger side of its 95% interval); the best cell outlined thick and the cells within
    noise of it (intervals overlapping) thin; cells that differ from the baseline marked ``!`` and the
    baseline ``=`` (when the frame has ``significant`` / ``baseline`` columns); a diverging map around
    the fair share (0 for a difference)."""
    x, y = _params(frame, value, [x, y], 2)
    low_col, high_col = _ci_columns(frame, value)
    k = _best_row(frame, frame[value].to_numpy(float), value, best)
    data = frame.assign(_mark=[("!" if s else "") + ("=" if b else "") for s, b in
                               zip(_flags(frame, "significant"), _flags(frame, "baseline"), strict=True)],
                        _near=_near_best(frame, value, k, best).astype(float))

    def grid(column: str, how: str = "mean") -> pd.DataFrame:
        return data.pivot_table(index=y, columns=x, values=column, aggfunc=how).sort_index().sort_index(axis=1)

    values = grid(value)
    fig, ax = new_figure(max(6.0, 2.0 + 0.9 * values.shape[1]), max(4.0, 2.0 + 0.55 * values.shape[0]))
    im = _heat(fig, ax, values.to_numpy(float), _reference(meta, value)[0], _label(value), _is_share(value))
    if values.size <= 150:
        _cell_texts(ax, im, values, grid(low_col).reindex_like(values), grid(high_col).reindex_like(values),
                    grid("_mark", "first").reindex_like(values), value)
    near = grid("_near", "max").reindex_like(values).fillna(0).to_numpy(bool)
    top = (values.index.get_loc(frame[y].iloc[k]), values.columns.get_loc(frame[x].iloc[k]))
    _outline(ax, near, top)
    set_ticks(ax, [f"{v:g}" if isinstance(v, (int, float)) else v for v in values.columns])
    set_ticks(ax, [f"{v:g}" if isinstance(v, (int, float)) else v for v in values.index], axis="y")
    policy = f"{meta['policy']}: " if meta.get("policy") else ""
    ax.set_xlabel(f"{policy}{x}")
    ax.set_ylabel(f"{policy}{y}")
    _subtitle(fig, ax, [_read_against(meta, value), _noise_text(int(near.sum()), "cell", ", outlined")])
    title(fig, f"{game_title(meta)}: {_label(value)}{_whose(meta)}")
    extra = [f"best: {x} = {values.columns[top[1]]}, {y} = {values.index[top[0]]} (thick outline)",
             "cells: value ± the larger side of its 95% interval", *_sweep_extra(meta)]
    if "significant" in frame:
        extra += [SIGNIFICANT, "= the baseline"]
    caption(fig, meta, extra=extra, intervals=False)
    return fig


def _cell_texts(ax, im, values, low, high, marks, value: str) -> None:
    """Each finite cell's value and ±, in black or white as its colour needs."""
    size = 8 if values.shape[1] <= 10 else 7
    for i, j in np.ndindex(values.shape):
        v = values.iloc[i, j]
        if np.isfinite(v):
            ax.text(j, i, _cell_text(v, low.iloc[i, j], high.iloc[i, j], value, marks.iloc[i, j] or ""),
                    ha="center", va="center", fontsize=size, color=_ink(im.cmap(im.norm(v))))


def _outline(ax, near: np.ndarray, top: tuple[int, int]) -> None:
    """The best cell outlined thick, the others within noise of it thin."""
    from matplotlib.patches import Rectangle

    for i, j in zip(*np.nonzero(near), strict=True):
        if (i, j) != top:
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, ec="#ffb000", lw=1.5))
    ax.add_patch(Rectangle((top[1] - 0.45, top[0] - 0.45), 0.9, 0.9, fill=False, ec="#ffb000", lw=3.5))
