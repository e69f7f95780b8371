"""The report's and a run's figures at their real sizes: the ratings title inside the figure at 4 players,
equilibrium intervals that do not draw black lines across the panel, the players legend off the data,
and a simulate figure whose policy label and caption break only where they should."""
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgb

from analyser.plots.figures import wrap_parts
from analyser.plots.report import players_figure, policies_figure
from analyser.plots.simulate import seat_runs
from analyser.plots.tournament import head_to_head
from tests.plots.test_readable import assert_inside, drawn_texts

REPORTS = Path(__file__).resolve().parents[2] / "reports"


def committed(game: str) -> dict:
    path = REPORTS / f"{game}.json"
    if not path.exists():
        pytest.skip(f"{path} is not there")
    return json.loads(path.read_text())


def report_of(game: str) -> SimpleNamespace:
    """A report as the figures read it, from the committed report's JSON (4 players)."""
    d = committed(game)
    p = d["policies"]
    parts = {"policies": {"ratings": pd.DataFrame(p["ratings"]), "model": p["model"], "fit": p["fit"]}}
    if "seats" in d["players"]:
        parts["players"] = {"seats": pd.DataFrame(d["players"]["seats"]), "frame": pd.DataFrame(d["players"]["table"]),
                            "policy": d["players"]["policy"]}
    return SimpleNamespace(meta=d["meta"], parts=parts)


@pytest.mark.parametrize("game", ["palace", "olenon", "enemy_anemone"])
def test_the_ratings_title_lies_inside_the_figure_at_four_players(game):
    report = report_of(game)
    assert report.meta["players"] == 4 and report.parts["policies"]["fit"]["fits"] is False   # the long title
    fig = policies_figure(report)
    texts = drawn_texts(fig)
    assert any("policy ratings" in t.get_text() for t in texts)
    assert_inside(fig, texts)


def test_the_equilibrium_panel_draws_no_dark_line_across_it():
    names = ["a", "b", "c"]
    matrix = pd.DataFrame([[np.nan, 0.5, 0.6], [0.5, np.nan, 0.6], [0.4, 0.4, np.nan]], index=names, columns=names)
    eq = pd.DataFrame({"policy": names, "weight": [0.5, 0.5, 0.0], "weight_ci_low": [0.0, 0.0, 0.0],
                       "weight_ci_high": [1.0, 1.0, 0.0]})
    fig = head_to_head(matrix, matrix - 0.05, matrix + 0.05, {"game": "palace", "players": 2}, eq)
    panel = fig.axes[1]
    fig.canvas.draw()
    lines = [(seg, c) for col in panel.collections for seg, c in
             zip(col.get_segments() if hasattr(col, "get_segments") else [], np.atleast_2d(col.get_colors()) if
                 hasattr(col, "get_colors") else [], strict=False)]
    lines += [(np.column_stack(ln.get_data()), to_rgb(ln.get_color())) for ln in panel.lines]
    for seg, colour in lines:
        seg = np.asarray(seg, float)
        if seg.size and np.ptp(seg[:, 0]) >= 0.9:              # as wide as the panel's [0, 1]
            assert 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2] > 0.6, colour
    bands = [p for p in panel.patches if p.get_width() >= 0.99]
    assert len(bands) == 2 and all(sum(to_rgb(p.get_facecolor())) / 3 > 0.75 for p in bands)
    assert_inside(fig)


def test_the_players_legend_covers_no_data():
    fig = players_figure(report_of("enemy_anemone"))
    fig.canvas.draw()
    a = fig.axes[0]
    legend = a.get_legend().get_window_extent()
    assert not legend.overlaps(a.get_window_extent()) and not legend.overlaps(fig.axes[1].get_window_extent())
    assert_inside(fig)


def test_a_policy_s_seats_fit_its_label_and_the_caption_breaks_between_its_parts():
    assert seat_runs("0,1,2,3") == "0-3" and seat_runs("0,2") == "0, 2" and seat_runs("0,1,2,5") == "0-2, 5"
    assert seat_runs("1,2") == "1, 2"
    parts = ["Palace (Shed, Shithead)", "4 players", "seed 0", "2,000 games (12 aborted)",
             "short_game=False, ten_on_anything=False, max_actions=5000", "win = not being the loser",
             "95% intervals"]
    text = wrap_parts(parts, 168)
    lines = text.split("\n")
    assert len(lines) == 2 and all(len(line) <= 168 for line in lines)
    assert all(p in lines[0] or p in lines[1] for p in parts)            # no part split over two lines
    assert abs(len(lines[0]) - len(lines[1])) < 40                        # even, not an orphan
    assert wrap_parts(["short", "caption"], 168) == "short · caption"
