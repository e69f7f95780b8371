"""Terminal tables at 60, 80 and 120 columns: no number is cut, neither with "…"
nor folded over two lines. The CLI in this process (CliRunner), COLUMNS set: rich reads it
as it makes each command's console."""
import json

import pytest
from typer.testing import CliRunner

from analyser.cli.main import app

WIDTHS = [60, 80, 120]
RUN = ["palace", "-n", "3000", "--seed", "1", "--policy", "saver", "--policy", "saver",
       "--policy", "pickup:max_pile=5,spend_rank=12", "--policy", "random", "--no-progress"]


def cli(*args, width=100):
    r = CliRunner().invoke(app, list(args), env={"COLUMNS": str(width)})
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The run's numbers (JSON), its results file, and the tables of simulate and show at every width."""
    path = tmp_path_factory.mktemp("width") / "run.parquet"
    numbers = json.loads(cli("simulate", *RUN, "--out", str(path), "-f", "json"))
    tables = {}
    for width in WIDTHS:
        tables["simulate", width] = cli("simulate", *RUN, width=width)
        tables["show", width] = cli("show", str(path), width=width)
    return numbers, tables


def shown_numbers(numbers: dict) -> set[str]:
    """Every rate with its interval ("47.6 ±0.3") and mean rank of the per-seat and per-policy rows, as the
    table writes them."""
    from analyser.io.numbers import plus_minus

    out = set()
    for row in numbers["seats"] + numbers["by_policy"]:
        for name in ("win", "loser"):
            out.add(plus_minus(row[f"{name}_rate"], row[f"{name}_ci_low"], row[f"{name}_ci_high"]))
        out.add(f"{row['mean_rank']:.3f}")
    return out


@pytest.mark.parametrize("command", ["simulate", "show"])
@pytest.mark.parametrize("width", WIDTHS)
def test_no_ellipsis(run, command, width):
    _, tables = run
    text = tables[command, width]
    assert "Per seat" in text
    assert "…" not in text and "..." not in text
    assert max(len(line) for line in text.splitlines()) <= width


@pytest.mark.parametrize("command", ["simulate", "show"])
@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_number_is_whole_on_one_line(run, command, width):
    numbers, tables = run
    lines = tables[command, width].splitlines()
    shown = shown_numbers(numbers)
    if width < 80:          # too narrow for "47.6 ±0.3" beside a long policy spec: it may wrap at its space
        shown = {part for n in shown for part in n.split()}
    cut = sorted(n for n in shown if not any(n in line for line in lines))
    assert cut == [], f"numbers cut over two lines at {width} columns: {cut}"


@pytest.mark.parametrize("command", ["simulate", "show"])
@pytest.mark.parametrize("width", [80, 120])
def test_every_row_is_one_line_and_a_policy_spec_is_never_cut(run, command, width):
    text = tables = run[1][command, width]
    seats = [line for line in text[text.index("Per seat"):text.index("Per policy")].splitlines() if "│" in line]
    assert len(seats) == 4 and all("±" in line for line in seats), "\n".join(seats)
    assert "pickup:max_pile=5,spend_rank=12" in tables


@pytest.mark.parametrize("args", [["simulate", "enemy_anemone", "-n", "200", "--policy", "timing", "--policy",
                                   "greedy", "--policy", "lowball:duck=3", "--policy", "timing:min_points=5"],
                                  ["simulate", "olenon", "-n", "200"], ["simulate", "spite_and_malice", "-n", "200"],
                                  ["vary", "olenon", "--setting", "talk", "-n", "200"]])
def test_the_other_games_and_vary_fit_80_columns(args):
    text = cli(*args, "--no-progress", width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text and "[" not in text.split("Per run")[0]        # intervals as ±, none wrapped
    assert "timing:min_points=5" in text or "timing" not in args
