"""More than 1% of units at the action cap: one warning line, from every command that plays units."""
import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from analyser.errors import AbortedUnits

runner = CliRunner()
LOOPS = "pickup:max_voluntary=5000"      # about a quarter of Palace games loop to the cap


@pytest.mark.parametrize("command", [["simulate", "palace", "--policy", LOOPS],
                                     ["compare", "palace", "--policy", LOOPS, "--policy", "pickup"],
                                     ["vary", "palace", "--setting", "ten_on_anything", "--policy", LOOPS]])
def test_a_high_abort_rate_is_one_warning_line(command):
    r = runner.invoke(app, [*command, "-n", "200", "--no-progress"])
    assert r.exit_code == 0, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("warning: ") and "aborted at the action cap" in lines[0], r.stderr
    assert "completed" in lines[0] and "only" in lines[0]


def test_no_warning_without_aborts():
    r = runner.invoke(app, ["simulate", "enemy_anemone", "-n", "200", "--no-progress"])
    assert r.exit_code == 0 and "warning" not in r.stderr, r.stderr


def test_python_warns_too():
    with pytest.warns(AbortedUnits, match="of 200 games"):
        analyser.simulate("palace", policies=[LOOPS], n=200, progress=False)
