"""What the README says of the program, checked against the program (the README once claimed open
talk helps the partner team recover what passing loses; its own `vary` measured -0.17 points)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import analyser
from analyser.engine.progress import LOADING

README = (Path(__file__).parents[2] / "README.md").read_text()

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")


def test_the_compile_estimate_is_the_spinners():
    span = re.search(r"compiles the engine \((\d+-\d+)\s+seconds", README).group(1)
    assert f"compiling, {span} s" in LOADING


def test_what_open_talk_is_worth_to_partner_is_what_vary_measures():
    claim = re.search(r"gives the partner team (-?[\d.]+) ±([\d.]+) points of win share under\s+`talk=open` "
                      r"\(paired by deal; ([\d.]+)% against ([\d.]+)%\)", README)
    assert claim, "the README's sentence on open talk changed: update this test with it"
    change, half, open_share, none_share = (float(x) for x in claim.groups())
    table = analyser.vary("olenon", "talk", policies=["partner", "shed"], n=100_000).table
    team = table[table["group"] == "team 0"].set_index("value")
    opened = team.loc["open"]
    side = max(opened["win_diff"] - opened["win_diff_ci_low"], opened["win_diff_ci_high"] - opened["win_diff"])
    assert round(100 * opened["win_diff"], 2) == change and round(100 * side, 2) == half
    assert round(100 * opened["win_mean"], 1) == open_share
    assert round(100 * team.loc["none", "win_mean"], 1) == none_share


def test_the_search_players_example_gives_the_readme_s_numbers():
    """The README's first search example, `compare olenon --policy pimc:worlds=8 --policy tempo -n 200
    --seed 1`, and the numbers it quotes for it."""
    claim = re.search(r"PIMC at 8 worlds ([+-][\d.]+) points of match win share against `tempo`, Olenon's\s+"
                      r"best heuristic, \[([+-][\d.]+), ([+-][\d.]+)\]", README)
    assert claim, "the README's sentence on pimc:worlds=8 against tempo changed: update this test with it"
    assert "compare olenon --policy pimc:worlds=8 --policy tempo -n 200 --seed 1" in README
    win = analyser.compare("olenon", ["pimc:worlds=8", "tempo"], n=200, seed=1, progress=False).summary
    win = win.set_index("quantity").loc["win share difference"]
    assert [round(100 * win[k], 2) for k in ("estimate", "ci_low", "ci_high")] == [float(x) for x in claim.groups()]


def test_the_readme_names_every_notebook():
    stems = sorted(p.stem for p in (Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))
    assert len(stems) == 7 and [s for s in stems if f"`{s}`" not in README] == []


def test_the_quick_start_gives_the_suite_s_measured_time_and_the_browser_tests_skip():
    """The suite's time is RESULTS.md's measurement (8-12 minutes cold, 5-6 warm), and the quick
    start says the browser tests are skipped without chromium, as tests/test_replay.py skips them."""
    quick = README[README.index("## Quick start"): README.index("## The command line")]
    assert "about 8-12 minutes from a fresh clone" in quick and "5-6 with the compile cache" in quick
    assert "apt-get install chromium chromium-driver" in quick and "skipped" in quick
    replay_tests = (Path(__file__).parents[2] / "tests" / "test_replay.py").read_text()
    assert "chromium and chromedriver are not installed" in replay_tests and "chromium chromium-driver" in replay_tests


def test_policies_is_said_to_show_ranges_and_does():
    from typer.testing import CliRunner

    from analyser.cli.main import app

    assert "policies palace             # policies, their parameters, defaults and ranges" in README
    r = CliRunner().invoke(app, ["policies", "palace"], env={"COLUMNS": "160"})
    assert "0..52 whole" in r.stdout and "2..14 whole" in r.stdout, r.stdout
