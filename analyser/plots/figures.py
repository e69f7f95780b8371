"""What every figure shares: the figure class, its file, axes, captions and colours. The figures
of each analysis are in their own module (plots.simulate, compare, tournament, sweep, vary,
rollout, report).

Every function returns a :class:`PlotFigure` (a matplotlib ``Figure``) built with
the object-oriented API: pyplot is never imported, so no window opens, no
backend is chosen and no global figure is left open. A notebook shows the
returned figure inline once (``_repr_png_``); ``fig.savefig(path)`` writes png,
svg or pdf. Every figure has a title, labelled axes and a caption naming the
game, players, seed, count and settings of the run.
"""
from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from analyser.errors import UserError, counted
from analyser.io.atomic import AtomicFile
from analyser.io.numbers import num
from analyser.io.results_file import check_folder, check_target

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
    check_folder(path, f"cannot plot to {path}")
    return path


def save_figure(fig: Figure, path) -> Path:
    """Write ``fig`` as png, svg or pdf (by the suffix), with no GUI backend involved: a temporary
    file renamed into place, so a failed write leaves an older figure as it was."""
    path = check_plot_path(path)
    with AtomicFile(path) as f:
        fig.savefig(f, format=path.suffix[1:].lower())
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


def caption_parts(meta: dict, game=None, extra: Sequence[str] = (), intervals: bool = True) -> list[str]:
    """The caption's parts: the game, players, seed, units (aborted), settings, ``extra``, the intervals."""
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
        parts.append(f"{counted(int(count), unit)}" + (f" ({aborted:,} aborted)" if aborted else ""))
    if meta.get("settings"):
        parts.append(", ".join(f"{k}={v}" for k, v in meta["settings"].items()))
    return [*parts, *extra, INTERVAL] if intervals else [*parts, *extra]


def caption_text(meta: dict, game=None, extra: Sequence[str] = (), intervals: bool = True) -> str:
    """``Palace · 4 players · seed 1 · 500 games (4 aborted) · short_game=False, ... · 95% intervals``."""
    return " · ".join(caption_parts(meta, game, extra, intervals))


def wrap_parts(parts: Sequence[str], chars: int, sep: str = " · ") -> str:
    """``parts`` joined by ``sep`` in as few lines of at most ``chars`` as they need, as even as they can be,
    broken only between parts (so no line holds a part's last word alone; a part longer than a line is
    wrapped on its own)."""
    import math
    import textwrap

    pieces = [line for p in parts for line in textwrap.wrap(p, chars)]
    text = sep.join(pieces)
    need = math.ceil(len(text) / chars)
    for limit in range(min(chars, math.ceil(len(text) / need)), chars + 1):
        lines = [""]
        for p in pieces:
            if lines[-1] and len(lines[-1]) + len(sep) + len(p) > limit:
                lines.append(p)
            else:
                lines[-1] = f"{lines[-1]}{sep}{p}" if lines[-1] else p
        if len(lines) <= need or limit == chars:
            return "\n".join(lines)
    return text


def caption(fig, meta: dict, game=None, extra: Sequence[str] = (), intervals: bool = True) -> None:
    """The caption at the bottom of the figure, wrapped to its width between its parts (constrained layout
    makes room)."""
    chars = int(fig.get_figwidth() * 14)       # about 14 characters of 8-point text an inch
    fig.supxlabel(wrap_parts(caption_parts(meta, game, extra, intervals), chars), fontsize=8, color="#444444")


def title(fig, text: str) -> None:
    """The figure's title, wrapped to its width (about 8 characters of 12-point text an inch)."""
    import textwrap

    fig.suptitle(textwrap.fill(text, int(fig.get_figwidth() * 8)))


def result_caption(fig, result) -> None:
    caption(fig, {**result.meta, "aborted": result.tally.aborted}, result.game, [f"win = {result.game.outcome}"])


def is_share(name: str) -> bool:
    return any(w in str(name).lower() for w in ("win", "share", "rate"))


def text_colour(rgba) -> str:
    """Black or white text, whichever reads on a cell of this colour."""
    r, g, b = rgba[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


def heat(fig, ax, values: np.ndarray, centre: float | None, label: str, percent: bool):
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
