"""Ctrl-C during `simulate --out FILE`: one line, exit code 130, the old FILE byte for byte,
no partial file left; SIGTERM the same with "terminated" and 143. A real process gets a real signal."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from analyser.errors import Terminated

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to a child process")


def entry(*args):
    return [sys.executable, "-m", "analyser.cli.main", *args]


@pytest.fixture(scope="module")
def old_file(tmp_path_factory):
    """A results file from a small run, played in this process (no signal is sent to it); the run
    also fills the compile cache."""
    from typer.testing import CliRunner

    from analyser.cli.main import app

    path = tmp_path_factory.mktemp("interrupt") / "f.parquet"
    done = CliRunner().invoke(app, ["simulate", "palace", "-n", "100", "--out", str(path), "--no-progress"])
    assert done.exit_code == 0, done.output
    return path


def as_from_a_terminal():
    """In the child, before exec: SIGINT at its default and not blocked, as in a shell at a
    terminal, whatever this test process inherited (a run started in the background, a
    runner that blocks signals); Python then turns SIGINT into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def partials(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


@pytest.mark.parametrize("count, sent, code, word", [
    (100_000_000, signal.SIGINT, 130, "interrupted"),
    (10**18, signal.SIGINT, 130, "interrupted"),
    (100_000_000, signal.SIGTERM, 143, "terminated"),
])
def test_a_signal_keeps_the_old_file(old_file, count, sent, code, word):
    before = old_file.read_bytes()
    assert partials(old_file.parent) == []
    # small chunks: the first one written (and the one in play at the signal) takes a moment, not seconds
    child = subprocess.Popen(entry("simulate", "palace", "-n", str(count), "--chunk-size", "2000", "--out",
                                   str(old_file), "--no-progress"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=as_from_a_terminal)
    try:
        deadline = time.monotonic() + 300
        while not partials(old_file.parent):   # the writer opens its temporary file once the code is loaded
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the run never started writing"
            time.sleep(0.1)
        partial = old_file.parent / partials(old_file.parent)[0]
        opened = partial.stat().st_size
        while partial.stat().st_size == opened:   # wait for a chunk in it, however slow the machine is today
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the run never wrote a chunk"
            time.sleep(0.1)
        child.send_signal(sent)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == code, err
    assert "Traceback" not in err and err.strip().count("\n") == 0, err
    assert re.fullmatch(rf"{word} after [\d,]+ games; {re.escape(str(old_file))} was left as it was",
                        err.strip()), err
    assert int(re.search(r"after ([\d,]+)", err).group(1).replace(",", "")) > 0
    assert old_file.read_bytes() == before
    assert partials(old_file.parent) == []
    assert out == ""


def test_ctrl_c_while_loading_is_one_line_and_130(monkeypatch):
    """Ctrl-C outside the runner's chunk loop (loading compiled code, say): no traceback either."""
    from typer.testing import CliRunner

    import analyser.analyses.simulate
    from analyser.cli.main import app

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(analyser.analyses.simulate, "simulate", interrupted)
    r = CliRunner().invoke(app, ["simulate", "palace", "-n", "10", "--no-progress"])
    assert r.exit_code == 130 and r.stderr.strip() == "interrupted"


@pytest.mark.parametrize("stop, code, word", [(KeyboardInterrupt, 130, "interrupted"),
                                              (Terminated, 143, "terminated")])
def test_a_stop_outside_any_command_keeps_its_word_and_code(monkeypatch, capsys, stop, code, word):
    """Ctrl-C or SIGTERM before a command runs (click turns either into its Abort): the same line and code."""
    import click

    import analyser.cli.main as main

    def stopped():
        raise stop

    monkeypatch.setattr(main.signal, "signal", lambda *args: None)   # keep this process's own SIGTERM handling
    monkeypatch.setattr(main.typer.main, "get_command", lambda app: click.Command("x", callback=stopped))
    with pytest.raises(SystemExit) as exit_:
        main.main([])
    assert exit_.value.code == code and capsys.readouterr().err.strip() == word
