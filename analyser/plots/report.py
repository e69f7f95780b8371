"""The figures of a balance report (analyser.reports): each a Figure, never shown.

seats         win share per seat (team) with 95% intervals against the fair share, the first mover beside
players       per player count: each seat's excess over the fair share, and the first-mover advantage
rules         per rule value: the paired change in the first mover's win share and in length
policies      the tournament's ratings (Elo) with 95% intervals
head_to_head  the tournament's matrix (analyser.plots.tournament.head_to_head)
length, reliability  the shape section's (analyser.plots.shape)
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from analyser.games.registry import length_text
from analyser.plots.figures import ACCENT, FAIR, MUTED, caption, new_figure, set_ticks
from analyser.plots.figures import title as figure_title
from analyser.plots.simulate import interval_points
from analyser.plots.tournament import head_to_head

COLORS = (ACCENT, "#2e8b57", "#b8860b", "#8e44ad", "#c0392b", MUTED)


def _points_axis(ax, axis: str = "y") -> None:
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(FuncFormatter(lambda v, _: f"{round(100 * v, 2):+g}"))


def _caption_meta(report, **extra) -> dict:
    m = report.meta
    return {"game": m["game"], "title": m["title"], "unit": m["unit"], "players": m["players"], "seed": m["seed"],
            "deals": m["deals"], "settings": m["settings"], **extra}


def seats_figure(report):
    part = report.parts["seats"]
    frame = part["frame"].rename(columns={"win_share": "win_rate", "ci_low": "win_ci_low", "ci_high": "win_ci_high"})
    labels = [f"{g}\n{p}" for g, p in zip(frame["group"], frame["policies"], strict=True)]
    fm = part["first_mover"]
    if np.isfinite(fm["first_mover_win_rate"]):
        frame = pd.concat([frame, pd.DataFrame([{"win_rate": fm["first_mover_win_rate"],
                                                 "win_ci_low": fm["first_mover_win_ci_low"],
                                                 "win_ci_high": fm["first_mover_win_ci_high"]}])], ignore_index=True)
        labels.append("first mover\n(any seat)")
    fig, ax = new_figure(max(6.0, 1.4 * len(labels) + 2), 4.2)
    interval_points(ax, frame, labels, part["fair_share"], f"per {part['what']}, and whoever moved first")
    ax.set_ylabel("win share")
    ax.legend(fontsize=8, loc="best")
    test = part["test"]
    rotated = f", the line-up rotated over the {part['what']}s" if part.get("rotations", 1) > 1 else ""
    fig.suptitle(f"{report.meta['title']}: is a seat unfair? (test across {part['what']}s: p = {test['p_value']:.2g}, "
                 f"adjusted {test.get('p_adjusted', float('nan')):.2g}{rotated})" if np.isfinite(test["p_value"])
                 else f"{report.meta['title']}: seats")
    caption(fig, _caption_meta(report, aborted=part["aborted"]), extra=[report.meta["lineup_text"]])
    return fig


def players_figure(report):
    part = report.parts["players"]
    seats, frame = part["seats"], part["frame"]
    counts = list(frame["players"])
    groups = list(dict.fromkeys(seats["group"]))
    fig, (a, b) = new_figure(11, 4.2, ncols=2, width_ratios=[3, 2])
    width = 0.8 / max(len(groups), 1)
    for k, g in enumerate(groups):
        rows = seats[seats["group"] == g]
        x = np.array([counts.index(p) for p in rows["players"]]) + (k - (len(groups) - 1) / 2) * width
        y = rows["excess"].to_numpy(float)
        err = np.abs(np.vstack([y - rows["excess_ci_low"].to_numpy(float), rows["excess_ci_high"].to_numpy(float) - y]))
        a.errorbar(x, y, yerr=err, fmt="o", ms=4, capsize=3, color=COLORS[k % len(COLORS)], label=g)
    a.axhline(0, color=FAIR, ls="--", lw=1, label="fair")
    set_ticks(a, [f"{p} players" for p in counts])
    a.set_xlim(-0.6, len(counts) - 0.4)
    _points_axis(a)
    a.set_ylabel("win share minus fair share (points)")
    a.set_title("each seat", fontsize=10)
    a.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)   # beside, not on, the data
    a.grid(axis="y", alpha=0.3)
    adv = frame["advantage"].to_numpy(float)
    if np.isfinite(adv).any():
        err = np.abs(np.vstack([adv - frame["advantage_ci_low"].to_numpy(float),
                                frame["advantage_ci_high"].to_numpy(float) - adv]))
        b.errorbar(np.arange(len(counts)), adv, yerr=err, fmt="o", color=ACCENT, capsize=5, ms=6)
        for x, y in zip(range(len(counts)), adv, strict=True):
            b.annotate(f"{100 * y:+.1f}", (x, y), xytext=(7, 0), textcoords="offset points", va="center", fontsize=8)
    else:
        b.text(0.5, 0.5, "the record does not say who moved first", ha="center", va="center", transform=b.transAxes)
    b.axhline(0, color=FAIR, ls="--", lw=1)
    set_ticks(b, [f"{p} players" for p in counts])
    b.set_xlim(-0.6, len(counts) - 0.4)
    _points_axis(b)
    b.set_title("first-mover advantage", fontsize=10)
    b.grid(axis="y", alpha=0.3)
    rotated = "; rotated over the seats" if frame["rotations"].max() > 1 else ""
    fig.suptitle(f"{report.meta['title']}: seat balance by player count ({part['policy']}{rotated})")
    caption(fig, _caption_meta(report, players=None), extra=["points of win share"])
    return fig


def rules_figure(report):
    frame = report.parts["rules"]["frame"]
    rows = frame[~frame["baseline"]]
    base = frame[frame["baseline"]].set_index("setting")["value"]
    labels = [f"{r.setting}: {base[r.setting]} -> {r.value}" for r in rows.itertuples()]
    fig, (a, b) = new_figure(11, 1.6 + 0.55 * len(rows), ncols=2, sharey=True)
    y = np.arange(len(rows))
    for ax, col, title, points in ((a, "first_mover_change", "first mover's win share (points)", True),
                                   (b, "length_change", f"mean length ({length_text(report.meta['game'])})", False)):
        v = rows[col].to_numpy(float)
        err = np.abs(np.vstack([v - rows[f"{col}_ci_low"].to_numpy(float), rows[f"{col}_ci_high"].to_numpy(float) - v]))
        if np.isfinite(v).any():
            ax.errorbar(v, y, xerr=err, fmt="o", color=ACCENT, capsize=4, ms=5)
        else:
            ax.text(0.5, 0.5, "not recorded", ha="center", va="center", transform=ax.transAxes)
        ax.axvline(0, color="#333333", lw=1)
        ax.set_title(f"change in {title}", fontsize=10)
        if points:
            _points_axis(ax, "x")
        ax.grid(axis="x", alpha=0.3)
    set_ticks(a, labels, axis="y", width=40)
    a.invert_yaxis()
    fig.suptitle(f"{report.meta['title']}: what each rule setting does (paired on the same deals)")
    caption(fig, _caption_meta(report), extra=[report.meta["lineup_text"], "change from the report's own setting"])
    return fig


def policies_figure(report):
    part = report.parts["policies"]
    r = part["ratings"].iloc[::-1]
    fig, ax = new_figure(8, 1.4 + 0.5 * len(r))
    y = np.arange(len(r))
    elo = r["elo"].to_numpy(float)
    err = np.abs(np.vstack([elo - r["elo_ci_low"].to_numpy(float), r["elo_ci_high"].to_numpy(float) - elo]))
    ax.errorbar(elo, y, xerr=err, fmt="o", color=ACCENT, capsize=4, ms=6)
    for yi, e in zip(y, elo, strict=True):
        ax.annotate(f"{e:+.0f}", (e, yi), xytext=(0, 7), textcoords="offset points", ha="center", fontsize=8)
    ax.axvline(0, color=FAIR, ls="--", lw=1, label=f"reference: {part['model']['reference']}")
    set_ticks(ax, list(r["policy"]), axis="y", width=24)
    ax.margins(x=0.1, y=0.15)                  # room for the labels over the outermost points
    ax.set_xlabel("Elo (400 / ln 10 x Bradley-Terry rating)")
    ax.legend(fontsize=8, loc="best")
    ax.grid(axis="x", alpha=0.3)
    poor = (part.get("fit") or {}).get("fits") is False
    figure_title(fig, f"{report.meta['title']}: policy ratings, {report.meta['players']} players"
                 + (" (the ratings do not fit: read the head-to-head matrix)" if poor else ""))
    caption(fig, _caption_meta(report, deals=report.meta["tournament_deals"]), extra=["deals per pair"])
    return fig


def report_figures(report) -> dict:
    """name -> Figure for the sections the report has (a skipped section draws nothing)."""
    p = report.parts
    out = {}
    if "seats" in p:
        out["seats"] = seats_figure(report)
    if "players" in p and "skipped" not in p["players"]:
        out["players"] = players_figure(report)
    if "rules" in p and not p["rules"]["frame"].empty:
        out["rules"] = rules_figure(report)
    if "policies" in p and "skipped" not in p["policies"]:
        meta = {**_caption_meta(report, deals=report.meta["tournament_deals"]),
                "fair_share": p["policies"]["fair_share"], "cell": p["policies"]["meta"].get("cell")}
        out["head_to_head"] = head_to_head(p["policies"]["matrix"], p["policies"]["ci_low"], p["policies"]["ci_high"],
                                           meta)                # the result to read, before the ratings
        out["policies"] = policies_figure(report)
    if "shape" in p:
        from analyser.plots.shape import length_figure, reliability_figure

        out["length"] = length_figure(p["shape"], report.meta, _caption_meta(report))
        if "estimate" in p["shape"]:
            out["reliability"] = reliability_figure(p["shape"], report.meta, _caption_meta(report))
    return out
