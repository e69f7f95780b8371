"""Where results files and figures go: checked before a run, named as a shell would, written with the
user's umask, and no temporary file left behind by a killed run."""
import os
import socket
import stat
import subprocess
import sys
import time

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


def entry(*args):
    return [sys.executable, "-m", "analyser.cli.main", *args]


def partials(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


@pytest.mark.skipif(os.name != "posix", reason="kills a child process")
def test_a_killed_writers_partial_file_is_removed_by_the_next_run(tmp_path):
    path = tmp_path / "x.parquet"
    child = subprocess.Popen(entry("simulate", "palace", "-n", "100000000", "--out", str(path), "--no-progress"),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while not partials(tmp_path) and time.time() < deadline and child.poll() is None:
        time.sleep(0.2)
    child.kill()
    child.wait()
    assert len(partials(tmp_path)) == 1
    live = tmp_path / f".x.parquet.{os.getpid()}@{socket.gethostname()}.0000.partial"   # a live writer's
    live.write_bytes(b"")
    r = runner.invoke(app, ["simulate", "palace", "-n", "20", "--no-progress", "--out", str(path)])
    assert r.exit_code == 0, r.output
    assert partials(tmp_path) == [live.name] and path.is_file()


def test_results_files_have_the_users_umask(tmp_path):
    old = os.umask(0o022)
    try:
        r = runner.invoke(app, ["simulate", "palace", "-n", "20", "--no-progress",
                                "--out", str(tmp_path / "s.parquet")])
        v = runner.invoke(app, ["vary", "palace", "--setting", "ten_on_anything", "-n", "20", "--no-progress",
                                "--out", str(tmp_path / "v.parquet")])
    finally:
        os.umask(old)
    assert r.exit_code == 0 and v.exit_code == 0, r.output + v.output
    assert {stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()} == {0o644}


@pytest.mark.parametrize("where", ["a_file/r.md", "a_file/deeper/r.html"])
def test_the_report_checks_its_folder_before_the_run(tmp_path, monkeypatch, where):
    import analyser.analyses.report.builder as builder

    (tmp_path / "a_file").write_text("in the way")
    monkeypatch.setattr(builder, "report", lambda *a, **k: pytest.fail("the report ran before its path was checked"))
    r = runner.invoke(app, ["report", "olenon", "-n", "40", "--section", "seats", "--out", str(tmp_path / where)])
    one_line(r, f"cannot write the report {tmp_path / where}: {tmp_path / 'a_file'} is a file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]


def test_the_default_report_is_here_and_never_a_tracked_example(tmp_path, monkeypatch):
    """From the repository's root, the README's `analyser report GAME` must not overwrite reports/GAME.md."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["report", "olenon", "-n", "40", "--section", "seats", "--no-progress"])
    assert r.exit_code == 0, r.output
    written = sorted(p.name for p in tmp_path.iterdir())
    assert "olenon-report.md" in written and "olenon-report.json" in written, written
    tracked = subprocess.run(["git", "ls-files", *written], cwd=root, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    assert tracked.stdout == ""
