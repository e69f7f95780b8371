"""Every figure renders: a PNG of the figure's size with real content (not pixels compared),
a title and a caption naming the run; pyplot is never involved."""
import subprocess
import sys
from io import BytesIO

import numpy as np
import pandas as pd
import pytest

from analyser import plots as F

META = {"game": "palace", "unit": "game", "players": 4, "deals": 5_000, "seed": 7,
        "settings": {"short_game": False}, "policy": "saver"}
LONG = ["saver", "lowest", "pickup:max_pile=4", "saver:keep=6,burn_at=4,swap=0.5"]


def pixels(fig) -> np.ndarray:
    """The figure as PNG, decoded; checks the size and that it is not blank."""
    from matplotlib.image import imread

    buf = BytesIO()
    fig.savefig(buf, format="png")
    buf.seek(0)
    img = imread(buf, format="png")[..., :3]
    assert img.shape[:2] == (round(fig.get_figheight() * fig.dpi), round(fig.get_figwidth() * fig.dpi))
    inked = np.any(np.abs(img - img[0, 0]) > 0.1, axis=-1).mean()   # the corner is background
    assert 0.02 < inked < 0.9, inked
    rgb = np.round(img * 255).astype(np.uint32)                     # 8-bit channels, one integer a colour
    assert len(np.unique(rgb[..., 0] << 16 | rgb[..., 1] << 8 | rgb[..., 2])) > 20
    return img


def check(fig, *caption_has: str):
    from matplotlib.figure import Figure

    assert isinstance(fig, Figure)
    pixels(fig)
    assert fig.get_suptitle()
    for text in ("95% intervals", *caption_has):
        assert text in fig.get_supxlabel().replace("\n", " "), fig.get_supxlabel()


@pytest.fixture(scope="module")
def palace():
    import analyser

    return analyser.simulate("palace", n=500, seed=1, progress=False,
                             policies=["saver", "lowest", "pickup:max_pile=4", "saver"])


@pytest.fixture(scope="module")
def anemone():
    import analyser

    return analyser.simulate("enemy_anemone", n=200, players=3, progress=False)


@pytest.mark.parametrize("draw", [F.result_figure, F.win_shares, F.length_distribution])
def test_result_figures(palace, anemone, draw):
    check(draw(palace), "Palace", "4 players", "seed 1", "500 games")
    check(draw(anemone), "Enemy Anemone", "3 players", "seed 0", "200 matches")


def test_result_figure_reads_the_run(palace, anemone):
    fig = palace.plot()
    assert fig._repr_png_().startswith(b"\x89PNG")          # what a notebook shows
    seat, policy, length = fig.axes
    assert seat.get_ylabel() == "win share" and length.get_xlabel() == "actions per game"
    assert length.get_ylabel() == "share of games"
    assert [t.get_text() for t in seat.get_xticklabels()][2] == "seat 2\n(pickup:\nmax_pile=4)"
    fair = [line for line in seat.get_lines() if line.get_linestyle() == "--"][0]
    assert fair.get_ydata()[0] == pytest.approx(0.75)             # Palace: every non-loser wins
    assert "length" in F.result_figure(anemone).axes[2].get_title()
    ea_fair = [line for line in anemone.plot().axes[0].get_lines() if line.get_linestyle() == "--"][0]
    assert ea_fair.get_ydata()[0] == pytest.approx(1 / 3)


def test_paired_difference():
    frame = pd.DataFrame({"quantity": ["win share", "score"], "difference": [0.021, -0.8],
                          "ci_low": [0.012, -1.3], "ci_high": [0.030, -0.3],
                          "independent_ci_low": [-0.01, -2.1], "independent_ci_high": [0.052, 0.5]})
    check(F.paired_difference(frame, {**META, "a": LONG[0], "b": LONG[3]}), "seed 7", "5,000 games")
    check(F.paired_difference(frame.iloc[:1, :4], META))            # no independent interval


def test_head_to_head():
    values = np.random.default_rng(1).uniform(0.4, 0.6, (4, 4))
    np.fill_diagonal(values, np.nan)
    m = pd.DataFrame(values, index=LONG, columns=LONG)
    check(F.head_to_head(m, m - 0.02, m + 0.02, {**META, "players": 2}), "fair share 50.0%")


def test_sweep_curve_and_heatmap():
    keep = np.arange(1, 13)
    curve = pd.DataFrame({"keep": keep, "win_rate": 0.7 + 0.05 * np.sin(keep / 3)})
    curve["win_ci_low"], curve["win_ci_high"] = curve.win_rate - 0.01, curve.win_rate + 0.01
    fig = F.sweep_curve(curve, META)
    check(fig)
    assert fig.axes[0].get_xlabel() == "saver: keep"
    assert "best: keep = 5 (75.0%)" in fig.axes[0].get_legend_handles_labels()[1]
    grid = pd.DataFrame([(k, b, 0.7 + 0.01 * k - 0.005 * (b - 4) ** 2) for k in range(1, 9) for b in range(2, 8)],
                        columns=["keep", "burn_at", "win_rate"])
    grid["win_ci_low"], grid["win_ci_high"] = grid.win_rate - 0.01, grid.win_rate + 0.01
    fig = F.sweep_heatmap(grid, META)
    pixels(fig)
    assert "best: keep = 8, burn_at = 4" in fig.get_supxlabel().replace("\n", " ")


def test_every_format_and_no_pyplot(tmp_path):
    """png, svg and pdf by suffix; the module never imports pyplot (no window, no global figures)."""
    code = (
        "import sys, pandas as pd\n"
        "from analyser import plots as F\n"
        "f = pd.DataFrame({'x': [1, 2, 3], 'win_rate': [.3, .5, .4],\n"
        "                  'ci_low': [.2, .4, .3], 'ci_high': [.4, .6, .5]})\n"
        f"for s in ('png', 'svg', 'pdf'): F.save_figure(F.sweep_curve(f, {{'game': 'palace', 'players': 4}}), "
        f"r'{tmp_path}/c.' + s)\n"
        "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert {p.suffix for p in tmp_path.iterdir()} == {".png", ".svg", ".pdf"}
    assert all(p.stat().st_size > 1000 for p in tmp_path.iterdir())


def test_bad_plot_path_is_a_user_error(tmp_path):
    from analyser.errors import UserError

    with pytest.raises(UserError, match=r"\.png, \.svg or \.pdf"):
        F.check_plot_path(tmp_path / "x.jpg")
    with pytest.raises(UserError, match="no directory"):
        F.check_plot_path(tmp_path / "missing" / "x.png")
