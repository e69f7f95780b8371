"""The figures of a sweep (``analyser sweep``): a curve of the swept parameter with its 95% band, or a
heat map of two parameters, the values that differ from the baseline and the best marked."""
from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analyser.io.numbers import num, plus_minus
from analyser.plots.figures import (
    ACCENT,
    FAIR,
    MUTED,
    PlotFigure,
    caption,
    fair_share,
    game_spec,
    game_title,
    heat,
    is_share,
    new_figure,
    pct,
    percent_axis,
    set_ticks,
    text_colour,
    title,
)


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
    fair = fair_share(meta) if is_share(value) else None
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
    fair = fair_share(meta) if is_share(value) else None
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

    ax.set_title(textwrap.fill(" · ".join(p for p in parts if p), int(fig.get_figwidth() * 12)), fontsize=9)


def _shown(v: float, value: str) -> str:
    return pct(v) if is_share(value) and not _is_difference(value) else \
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
    if is_share(value):
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
    share, diff = is_share(value), _is_difference(value)
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
    im = heat(fig, ax, values.to_numpy(float), _reference(meta, value)[0], _label(value), is_share(value))
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
                    ha="center", va="center", fontsize=size, color=text_colour(im.cmap(im.norm(v))))


def _outline(ax, near: np.ndarray, top: tuple[int, int]) -> None:
    """The best cell outlined thick, the others within noise of it thin."""
    from matplotlib.patches import Rectangle

    for i, j in zip(*np.nonzero(near), strict=True):
        if (i, j) != top:
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, ec="#ffb000", lw=1.5))
    ax.add_patch(Rectangle((top[1] - 0.45, top[0] - 0.45), 0.9, 0.9, fill=False, ec="#ffb000", lw=3.5))
