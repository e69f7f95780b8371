"""Figures a reader can trust at their saved size: no label outside the figure, 8-point text, a sweep's
intervals, fair share, opponents and only a best that is clear of noise, a length panel that says
something when every unit lasts as long, and no "-0.0"."""
from io import BytesIO
from unittest.mock import patch

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import analyser
from analyser import plots as F
from analyser.analyses.vary import VaryResult
from analyser.plots.vary import vary_figure


def drawn_texts(fig) -> list[Text]:
    """The text artists a draw of the figure really draws (not a tick outside the view, nor an axes
    switched off), recorded as Text.draw is called, with something to show."""
    drawn = []
    draw = Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return draw(self, renderer)

    FigureCanvasAgg(fig)
    with patch.object(Text, "draw", record):
        fig.canvas.draw()
    return drawn


def assert_inside(fig, texts: list[Text] | None = None) -> None:
    """Every drawn text lies within the figure, and a label written on a plot (``ax.text``, ``annotate``)
    within that plot's frame too: one that runs over the frame to the figure's edge reads as cut off.
    ``texts``: what a draw of the figure just drew (drawn_texts), else it is drawn here."""
    texts = drawn_texts(fig) if texts is None else texts
    renderer = fig.canvas.get_renderer()
    for t in texts:
        e = t.get_window_extent(renderer)
        assert within(e, fig.bbox), (t.get_text(), e.bounds, fig.bbox.bounds)
        if t.axes is not None and t in t.axes.texts:
            assert within(e, t.axes.bbox), (t.get_text(), e.bounds, t.axes.bbox.bounds)


def within(inner, outer, slack: float = 0.5) -> bool:
    return (outer.x0 - slack <= inner.x0 and inner.x1 <= outer.x1 + slack
            and outer.y0 - slack <= inner.y0 and inner.y1 <= outer.y1 + slack)


def saved_inches(fig) -> tuple[float, float]:
    from matplotlib.image import imread

    buf = BytesIO()
    fig.savefig(buf, format="png")
    buf.seek(0)
    height, width = imread(buf, format="png").shape[:2]
    return width / fig.dpi, height / fig.dpi


def vary_result(game: str, groups: list[str], policies: str, diffs: list[float]) -> VaryResult:
    """A rule comparison of two values with the given paired differences (in shares) for the second."""
    rows = []
    for value, shift in (("none", None), ("open", 1)):
        for g, d in zip(groups, diffs, strict=True):
            mean = 0.5 + (d if shift else 0)
            rows.append({"group": g, "policies": policies, "value": value, "win_mean": mean,
                         "win_ci_low": mean - 0.031, "win_ci_high": mean + 0.029,
                         "win_diff": d if shift else np.nan, "win_diff_ci_low": d - 0.027 if shift else np.nan,
                         "win_diff_ci_high": d + 0.026 if shift else np.nan})
    meta = {"game": game, "unit": "match", "players": 4 if game == "olenon" else len(groups), "seed": 0,
            "deals": 500, "setting": "talk", "values": ["none", "open"], "settings": {"talk": "varied", "rounds": 2}}
    return VaryResult(pd.DataFrame(rows), meta)


# ---------------------------------------------------------------- 1: vary olenon, no label clipped

def test_vary_olenon_labels_inside_the_figure():
    big = vary_result("olenon", ["team 0", "team 1"], "partner + partner", [-0.1234, 0.1234])
    assert_inside(vary_figure(big))
    run = analyser.vary("olenon", "talk", policies=["partner", "shed"], n=500, progress=False)
    assert_inside(run.plot())


# ---------------------------------------------------------------- 5: vary enemy_anemone, aspect and 8 pt

def test_vary_six_seats_wraps_into_rows_with_readable_text():
    run = analyser.vary("enemy_anemone", "spent_tokens", players=6, n=500, progress=False)
    fig = run.plot()
    width, height = saved_inches(fig)
    assert width <= 11.5 and width / height <= 2.0, (width, height)
    texts = drawn_texts(fig)
    assert min(t.get_fontsize() for t in texts) >= 8
    assert len([ax for ax in fig.axes if ax.axison]) == 6               # a panel per seat
    assert_inside(fig, texts)


# ---------------------------------------------------------------- 6: no "-0.0"

def test_no_signed_zero_in_vary_or_paired_labels():
    tiny = vary_result("olenon", ["team 0", "team 1"], "shed + shed", [-0.0001, 0.0])
    same = tiny.table["win_diff"] == 0
    tiny.table.loc[same, ["win_diff_ci_low", "win_diff_ci_high"]] = (-0.0077, 0.0077)
    tiny.table["win_diff_identical"] = same
    texts = [t.get_text() for t in drawn_texts(vary_figure(tiny))]
    assert not any("-0.0 " in t or "+0.0 pts" in t for t in texts), texts
    assert any("played identically" in t for t in texts) and not any("exact tie" in t for t in texts)
    frame = pd.DataFrame({"quantity": ["win share"], "difference": [-0.00001], "ci_low": [-0.01], "ci_high": [0.01]})
    fig = F.paired_difference(frame, {"game": "palace", "players": 2})
    texts = [t.get_text() for t in drawn_texts(fig)]
    assert "win share: 0.00 percentage points" in texts
    assert "0.0 pp" in texts and not any(t.startswith(("-0.0", "+0.0")) for t in texts), texts


# ---------------------------------------------------------------- 2, 3: sweeps

@pytest.fixture(scope="module")
def grid_sweep():
    return analyser.sweep("palace", ["pickup:max_pile=1..3,spend_rank=10..12", "saver"], players=2, n=500,
                          progress=False)


@pytest.fixture(scope="module")
def line_sweep():
    return analyser.sweep("olenon", ["tempo:margin=1..6", "shed"], n=300, progress=False)


def test_heatmap_cells_say_value_and_interval(grid_sweep):
    fig = grid_sweep.plot()
    ax = fig.axes[0]
    cells = [t.get_text() for t in ax.texts]
    table = grid_sweep.table
    assert len(cells) == len(table) and all("±" in c for c in cells), cells
    row = table.iloc[0]
    half = 100 * max(row["win_rate"] - row["win_ci_low"], row["win_ci_high"] - row["win_rate"])
    assert any(c.split("\n")[-1] == f"±{half:.1f}" or c.endswith(f"±{half:.2f}") for c in cells), (cells, half)
    assert_inside(fig)


def test_heatmap_title_fair_share_and_opponents(grid_sweep):
    fig = grid_sweep.plot()
    assert fig.get_suptitle().replace("\n", " ").endswith("win share of pickup (seats rotated) against saver")
    assert "fair share 50.0%" in fig.axes[0].get_title().replace("\n", " ")


def test_heatmap_best_is_every_cell_within_noise(grid_sweep):
    from matplotlib.patches import Rectangle

    table = grid_sweep.table
    top = table.index[table["best"]][0]
    near = int((table["win_ci_high"] >= table.loc[top, "win_ci_low"]).sum())
    fig = grid_sweep.plot()
    outlined = [p for p in fig.axes[0].patches if isinstance(p, Rectangle)]
    assert len(outlined) == near
    said = fig.axes[0].get_title().replace("\n", " ")
    assert (f"best within noise: {near} cells" if near > 1 else "clear of the rest") in said, said


def test_team_sweep_curve_names_the_team_opponents_and_fair_share(line_sweep):
    fig = line_sweep.plot()
    ax = fig.axes[0]
    said = fig.get_suptitle().replace("\n", " ")
    assert said.endswith("win share of tempo's team (with shed; teams rotated) against shed"), said
    assert "fair share 50.0%: what an equal team wins" in ax.get_title().replace("\n", " ")
    assert ax.containers, "no interval bars"                          # errorbar containers
    fair = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert fair and fair[0].get_ydata()[0] == pytest.approx(0.5)
    said = ax.get_title().replace("\n", " ")
    assert "within noise" in said or "clear of the rest" in said, said


# ---------------------------------------------------------------- 4: one length

def test_one_length_is_said_not_drawn():
    run = analyser.simulate("enemy_anemone", n=200, progress=False)
    assert np.count_nonzero(run.tally.length_hist) == 1
    length = run.plot().axes[2]
    assert not length.patches and not length.axison
    said = " ".join(t.get_text() for t in length.texts).replace("\n", " ")
    assert "every match took 160 plays and discards" in said, said


def test_a_few_lengths_are_labelled_bars():
    from types import SimpleNamespace

    hist = np.zeros(200)
    hist[[150, 152]] = [30, 10]
    game = SimpleNamespace(unit="match", length="actions", title="Test", outcome="win")
    result = SimpleNamespace(game=game, tally=SimpleNamespace(length_hist=hist, aborted=0),
                             figures={"length_mean": 150.5, "length_p95": 152}, meta={"game": "test", "deals": 40})
    (ax,) = F.length_distribution(result).axes
    assert len(ax.patches) == 2
    assert {t.get_text() for t in ax.texts} >= {"75.0%", "25.0%"}
