"""A full disk, a quota or a file-size limit: one line naming the file and the space it needed,
exit code 2, an older file left as it was, no temporary file behind, and a run directory's
finished chunks kept for the next run. The disk is filled by the one low-level write every
writer goes through (analyser.io.atomic.write_some), by RLIMIT_FSIZE in a child process, and,
as root, by a real 1 MB tmpfs."""
import errno
import os
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from analyser.errors import DiskFull
from analyser.io import atomic

runner = CliRunner()
OLD = b"the old file"


@pytest.fixture
def disk(monkeypatch):
    """``disk(room)``: the disk then takes ``room`` more bytes; a write past them is cut short where
    the room ends and the next one fails with ENOSPC, as a real disk does."""
    real = atomic.write_some
    left = {}

    def write(fd, data):
        data = memoryview(data).cast("B")
        if not left["room"]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        data = data[: left["room"]]
        done = real(fd, data)
        left["room"] -= done
        return done

    def fill(room: int):
        left["room"] = room
        monkeypatch.setattr(atomic, "write_some", write)

    return fill


def left_behind(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


def one_line_full(r, path):
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
    assert f"{path}: no space left on device; it needed at least " in r.stderr, r.stderr


@pytest.mark.parametrize("command, name", [
    (["simulate", "palace", "-n", "300", "--chunk-size", "100", "--no-progress", "--out"], "out.parquet"),  # streamed
    (["compare", "palace", "--policy", "saver", "--policy", "lowest", "-n", "20", "--no-progress", "--out"],
     "out.parquet"),                                                                                 # a table
    (["simulate", "palace", "-n", "20", "--no-progress", "--plot"], "out.png"),
    (["simulate", "palace", "-n", "20", "--no-progress", "--plot"], "out.svg"),
    (["replay", "palace", "--out"], "out.html"),
    (["report", "olenon", "-n", "40", "--section", "seats", "--no-progress", "--out"], "out.html"),
])
def test_a_full_disk_is_one_line_and_leaves_the_old_file(tmp_path, disk, command, name):
    path = tmp_path / name
    path.write_bytes(OLD)
    disk(2000)
    r = runner.invoke(app, [*command, str(path)])
    one_line_full(r, path)
    assert path.read_bytes() == OLD and left_behind(tmp_path) == []


def test_a_full_disk_while_writing_a_markdown_report_names_the_file(tmp_path, disk):
    path = tmp_path / "r.md"
    disk(0)
    r = runner.invoke(app, ["report", "olenon", "-n", "40", "--section", "seats", "--no-progress", "--out", str(path)])
    assert r.exit_code == 2 and "Traceback" not in r.stderr and "no space left on device" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_the_space_named_is_what_the_file_needed(tmp_path, disk):
    """The figure of the space is what the file had written and the write that failed: a page's size
    at least, when nothing of it fits."""
    page = analyser.replay("palace", seed=0)
    disk(0)
    with pytest.raises(DiskFull, match=r"needed at least \d+\.\d [kM]B there") as err:
        page.save(tmp_path / "p.html")
    amount, unit = re.search(r"needed at least (\S+) (\S+) there", str(err.value)).groups()
    assert float(amount) * {"kB": 1e3, "MB": 1e6}[unit] == pytest.approx(len(page.html().encode()), rel=0.01)


def test_a_run_directory_keeps_its_chunks_when_the_disk_fills(tmp_path, disk):
    """The chunks written before the disk filled stay named in the manifest; the same run, with room
    again, plays only the rest and gives the plain run's result."""
    plain = analyser.simulate("palace", n=1000, seed=3, chunk_size=100)
    disk(30_000)
    with pytest.raises(DiskFull, match=r"finished chunks are kept in .*: the same command resumes from them$") as err:
        analyser.simulate("palace", n=1000, seed=3, chunk_size=100, run_dir=tmp_path, progress=False)
    assert "cannot write run directory " in str(err.value) and left_behind(tmp_path) == []
    assert 0 < len(list(tmp_path.glob("*.parquet"))) < 10
    disk(10**9)
    again = analyser.simulate("palace", n=1000, seed=3, chunk_size=100, run_dir=tmp_path, progress=False)
    assert again.records.tobytes() == plain.records.tobytes() and again.summary.equals(plain.summary)


FSIZE_CHILD = """
import resource, signal, sys
import analyser
analyser.simulate("palace", n=1, progress=False)   # compiled (and cached) before the limit, which is for --out
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a write past the limit then fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
from analyser.cli.main import main
main(sys.argv[1:])
"""


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_file_size_limit_is_one_line(tmp_path):
    path = tmp_path / "big.parquet"
    path.write_bytes(OLD)
    r = subprocess.run([sys.executable, "-c", FSIZE_CHILD, "simulate", "palace", "-n", "5000", "--no-progress",
                        "--out", str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().count("\n") == 0 and f"cannot write results file {path}: file too large" in r.stderr
    assert path.read_bytes() == OLD and left_behind(tmp_path) == []


@pytest.fixture
def small_tmpfs(tmp_path):
    """A real 1 MB tmpfs (root only: skipped otherwise)."""
    where = tmp_path / "small"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def test_a_real_full_disk(small_tmpfs):
    path, run = small_tmpfs / "out.parquet", small_tmpfs / "run"
    r = runner.invoke(app, ["simulate", "palace", "-n", "100000", "--chunk-size", "20000", "--no-progress",
                            "--out", str(path)])
    one_line_full(r, path)
    assert list(small_tmpfs.iterdir()) == []
    r = runner.invoke(app, ["simulate", "palace", "-n", "100000", "--chunk-size", "2000", "--no-progress",
                            "--run-dir", str(run)])
    assert r.exit_code == 2 and r.stderr.strip().count("\n") == 0, r.stderr
    assert "no space left on device" in r.stderr and f"finished chunks are kept in {run}" in r.stderr
    assert left_behind(run) == []
