"""Where results files and figures go: checked before a run, named as a shell would."""
import pytest
from typer.testing import CliRunner

from analyser.cli.main import app

runner = CliRunner()


def one_line(r, message: str):
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
    assert message in r.stderr, r.stderr


@pytest.mark.parametrize("command", [["simulate", "palace"], ["compare", "palace", "--policy", "saver",
                                                               "--policy", "lowest"]])
def test_a_results_file_is_parquet(tmp_path, command):
    r = runner.invoke(app, [*command, "-n", "10", "--no-progress", "--out", str(tmp_path / "out.csv")])
    one_line(r, "name a .parquet file")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_directory_is_refused_not_made(tmp_path):
    r = runner.invoke(app, ["simulate", "palace", "-n", "10", "--no-progress",
                            "--out", str(tmp_path / "missing" / "x.parquet")])
    one_line(r, f"no directory {tmp_path / 'missing'}")
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_plot_path_is_refused_before_the_run():
    r = runner.invoke(app, ["simulate", "palace", "-n", "10", "--no-progress", "--plot", "/proc/x.png"])
    one_line(r, "cannot write /proc/x.png: it is under /proc")
    assert "Per seat" not in r.stdout          # refused before playing, not after


def test_the_report_names_its_own_kind_of_file():
    r = runner.invoke(app, ["report", "palace", "-n", "10", "--out", "/proc/r.md"])
    one_line(r, "cannot write /proc/r.md: it is under /proc")
    assert ".parquet" not in r.stderr
