"""``analyser tune``: a small tuning end to end (table, JSON, results file, figure, show), and bad search
spaces as one line with exit code 2."""
import json

import pytest
from typer.testing import CliRunner

from analyser.cli.main import app
from tests.cli.test_bad_input import assert_one_line

runner = CliRunner()
RUN = ["tune", "highcard", "--policy", "alternate:every=1..9", "--against", "high", "-n", "30", "--blocks", "3",
       "--budget", "720", "--seed", "2", "--threads", "1", "--no-progress"]


def test_a_tuning_prints_writes_and_shows(tmp_path):
    out, plot = tmp_path / "tuned.parquet", tmp_path / "tuned.png"
    r = runner.invoke(app, [*RUN, "--out", str(out), "--plot", str(plot)])
    assert r.exit_code == 0, r.output
    for text in ("search: tpe", "race: the defaults", "Candidates", "confirmed", "Sensitivity", "vs high"):
        assert text in r.stdout, r.stdout
    assert out.is_file() and plot.stat().st_size > 0
    shown = runner.invoke(app, ["show", str(out)])
    assert shown.exit_code == 0 and "Candidates" in shown.stdout
    data = json.loads(runner.invoke(app, ["show", str(out), "--format", "json"]).stdout)
    assert data["kind"] == "tune" and data["seed"] == 2 and data["versions"]["analyser"]
    assert data["parameters"][0]["name"] == "every" and data["streams"]["confirmation"]["first"] == 2**41
    assert {c["label"] for c in data["candidates"]} >= {"alternate"} and data["summary"][0].startswith("highcard")


@pytest.mark.parametrize("args,message", [
    (["--policy", "alternate:often=1..3"], "unknown parameter 'often' for policy 'alternate'; valid: every"),
    (["--policy", "alternate:every=5..1"], "the range '5..1' ends below its start"),
    (["--policy", "alternate:every=0..5"], "parameter alternate:every=0 is out of range 1..9"),
    (["--policy", "alternate:every=3"], "nothing to tune"),
    (["--policy", "alternate:every=1..9", "--budget", "10", "-n", "50"],
     "the budget (10 deals) is smaller than one block (50 deals)"),
    (["--policy", "alternate:every=1..9", "--policy", "high"], "give one --policy to tune"),
    (["--policy", "alternate:every=1..9", "--against", "nobody"], "unknown policy 'nobody'"),
    (["--policy", "alternate:every=1..9", "--against", "high+high"], "names 2 policies; give one for every other"),
    (["--policy", "alternate:every=1..9", "--out", "tuned.csv"], "results files are Parquet"),
])
def test_bad_spaces_are_one_line_and_exit_2(args, message):
    r = runner.invoke(app, ["tune", "highcard", *args, "--no-progress"])
    assert r.exit_code == 2, r.output
    assert_one_line(r.stderr, message)
