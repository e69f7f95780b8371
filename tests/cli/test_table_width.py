"""Terminal tables at 60, 80 and 120 columns: no number is cut, neither with "…"
nor folded over two lines. Through the real CLI, COLUMNS set."""
import json
import os
import subprocess
import sys

import pytest

WIDTHS = [60, 80, 120]
RUN = ["palace", "-n", "3000", "--seed", "1", "--policy", "saver", "--policy", "saver",
       "--policy", "pickup:max_pile=5,spend_rank=12", "--policy", "random", "--no-progress"]


def cli(*args, width=100):
    r = subprocess.run([sys.executable, "-m", "analyser.cli.main", *args], capture_output=True, text=True,
                       env={**os.environ, "COLUMNS": str(width)}, timeout=900)
    assert r.returncode == 0, r.stderr
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
    """Every rate, interval bound and mean rank of the per-seat and per-policy rows, as the table writes them."""
    out = set()
    for row in numbers["seats"] + numbers["by_policy"]:
        for key in ("win_rate", "win_ci_low", "win_ci_high", "loser_rate", "loser_ci_low", "loser_ci_high"):
            out.add(f"{100 * row[key]:.2f}")
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
    cut = sorted(n for n in shown_numbers(numbers) if not any(n in line for line in lines))
    assert cut == [], f"numbers cut over two lines at {width} columns: {cut}"
