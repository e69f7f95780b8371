"""Resumable runs (--run-dir): a run stopped anywhere, by Ctrl-C or SIGKILL, resumes to the result
an uninterrupted run gives, byte for byte in its records; a directory of another run is refused."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from analyser.engine.local import LocalExecutor
from analyser.errors import UserError

runner = CliRunner()


def parts(folder):
    return sorted(p.name for p in folder.iterdir() if p.suffix == ".parquet" and not p.name.startswith("."))


def manifest(folder):
    return [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines()]


def same(a, b):
    assert a.records.tobytes() == b.records.tobytes()
    assert a.summary.equals(b.summary)


def test_a_resumed_simulation_equals_an_uninterrupted_one(tmp_path):
    plain = analyser.simulate("palace", n=700, seed=3, chunk_size=100)
    first = analyser.simulate("palace", n=700, seed=3, chunk_size=100, run_dir=tmp_path / "d")
    same(plain, first)
    assert len(parts(tmp_path / "d")) == 7
    for name in parts(tmp_path / "d")[2:5]:      # as if killed after two chunks, with later ones lost
        (tmp_path / "d" / name).unlink()
    again = analyser.simulate("palace", n=700, seed=3, chunk_size=100, run_dir=tmp_path / "d")
    same(plain, again)
    assert len(parts(tmp_path / "d")) == 7


def test_a_resumed_run_plays_only_the_missing_chunks(tmp_path, monkeypatch):
    analyser.simulate("olenon", n=300, seed=1, chunk_size=100, run_dir=tmp_path)
    (tmp_path / parts(tmp_path)[1]).unlink()
    played = []
    real = LocalExecutor.play

    def play(self, chunk):
        played.append((chunk.start, chunk.count))
        return real(self, chunk)

    monkeypatch.setattr(LocalExecutor, "play", play)
    analyser.simulate("olenon", n=300, seed=1, chunk_size=100, run_dir=tmp_path)
    assert played == [(100, 100)]
    played.clear()
    analyser.simulate("olenon", n=500, seed=1, chunk_size=100, run_dir=tmp_path)   # a larger count extends it
    assert played == [(300, 100), (400, 100)]


def test_a_damaged_or_half_written_part_is_played_again_never_read(tmp_path):
    plain = analyser.simulate("palace", n=300, seed=2, chunk_size=100)
    analyser.simulate("palace", n=300, seed=2, chunk_size=100, run_dir=tmp_path)
    first = tmp_path / parts(tmp_path)[0]
    first.write_bytes(first.read_bytes()[: first.stat().st_size // 2])   # cut short
    second = tmp_path / parts(tmp_path)[1]
    data = bytearray(second.read_bytes())
    data[len(data) // 3] ^= 0xFF                                          # one byte changed
    second.write_bytes(bytes(data))
    gone = subprocess.Popen([sys.executable, "-c", ""])
    gone.wait()
    half = tmp_path / f".x.parquet.{gone.pid}@{socket.gethostname()}.0a1b2c3d.partial"
    half.write_bytes(b"PAR1 half")                                       # a kill while writing
    same(plain, analyser.simulate("palace", n=300, seed=2, chunk_size=100, run_dir=tmp_path))
    assert not half.exists()
    again = analyser.simulate("palace", n=300, seed=2, chunk_size=100, run_dir=tmp_path)
    same(plain, again)


def test_a_part_the_manifest_does_not_name_is_not_read(tmp_path):
    analyser.simulate("palace", n=200, seed=2, chunk_size=100, run_dir=tmp_path)
    lines = (tmp_path / "manifest.jsonl").read_text().splitlines()
    (tmp_path / "manifest.jsonl").write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20])   # last line torn
    run = analyser.simulate("palace", n=200, seed=2, chunk_size=100, run_dir=tmp_path)
    same(analyser.simulate("palace", n=200, seed=2, chunk_size=100), run)
    entries = [e["start"] for e in manifest(tmp_path) if e["kind"] == "part"]
    assert entries == [0, 100]                  # the torn line cut off, its chunk played and named again


@pytest.mark.parametrize("change, words", [
    ({"seed": 4}, "seed: 3 in the directory, 4 here"),
    ({"policies": "lowest"}, "policies: saver in the directory, lowest here"),
    ({"rules": {"ten_on_anything": True}}, "settings.ten_on_anything: False in the directory, True here"),
    ({"chunk_size": 50}, "chunk_size: 100 in the directory, 50 here"),
    ({"first_deal": 10}, "first: 0 in the directory, 10 here"),
])
def test_a_directory_of_another_run_is_refused_naming_the_difference(tmp_path, change, words):
    args = {"n": 200, "seed": 3, "chunk_size": 100, **change}
    analyser.simulate("palace", n=200, seed=3, chunk_size=100, run_dir=tmp_path)
    with pytest.raises(UserError, match="holds another run") as err:
        analyser.simulate("palace", run_dir=tmp_path, **args)
    assert words in str(err.value)


def test_a_changed_user_policy_is_another_run(tmp_path):
    from numba import njit

    from analyser.games.palace.state import POLICY_SIG

    def make(last: bool):
        """A policy named ``pick`` either way: only its code differs."""
        if last:
            @njit(POLICY_SIG)
            def pick(pub, pv, legal, params):
                for a in range(legal.size - 1, -1, -1):
                    if legal[a]:
                        return a
                return 0
        else:
            @njit(POLICY_SIG)
            def pick(pub, pv, legal, params):
                for a in range(legal.size):
                    if legal[a]:
                        return a
                return 0
        return pick

    analyser.simulate("palace", policies=make(False), n=50, run_dir=tmp_path)
    analyser.simulate("palace", policies=make(False), n=50, run_dir=tmp_path)
    with pytest.raises(UserError, match=r"holds another run \(functions: .*pick#"):
        analyser.simulate("palace", policies=make(True), n=50, run_dir=tmp_path)


def test_a_run_resumed_after_an_edit_of_the_rules_is_refused_naming_the_code(tmp_path, monkeypatch):
    """The game's code key is its sources' (kernels.cache.code_key): a copy of the package whose Palace
    rules file is edited has another key, and a run directory made by the original refuses to resume
    under it; an edit of the trace's wording (compiled into nothing) keeps the key."""
    import shutil

    from analyser.games.registry import GameSpec, get_game
    from analyser.kernels import cache

    copy = tmp_path / "tree" / "analyser"
    shutil.copytree(cache.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    game_file = copy / "games" / "palace" / "__init__.py"
    original = cache.code_key(game_file, copy)
    assert original == get_game("palace").code_key()
    with open(copy / "games" / "palace" / "trace_text.py", "a") as f:
        f.write("# reworded\n")
    cache.refresh()
    assert cache.code_key(game_file, copy) == original
    with open(copy / "games" / "palace" / "rules.py", "a") as f:
        f.write("# an edit of the rules\n")
    cache.refresh()
    edited = cache.code_key(game_file, copy)
    assert edited != original and edited.split("/")[0] == original.split("/")[0]   # the same kernels

    analyser.simulate("palace", n=200, seed=3, chunk_size=100, run_dir=tmp_path / "d")
    monkeypatch.setattr(GameSpec, "code_key", lambda self: edited)
    words = rf"holds another run \(game_code: {original} in the directory, {edited} here\)"
    with pytest.raises(UserError, match=words):
        analyser.simulate("palace", n=200, seed=3, chunk_size=100, run_dir=tmp_path / "d")


def test_every_kind_of_plan_resumes_to_the_same_result(tmp_path):
    """compare with a precision stop, a sweep (two plans) and vary, each cut short and resumed."""
    runs = {
        "compare": lambda d: analyser.compare("palace", ["saver", "lowest"], n=200, chunk_size=100, precision=0.05,
                                              max_deals=600, run_dir=d).summary,
        "sweep": lambda d: analyser.sweep("palace", ["pickup:max_pile=1|3", "saver"], n=200, chunk_size=100,
                                          run_dir=d).table,
        "vary": lambda d: analyser.vary("palace", "ten_on_anything", n=200, chunk_size=100, run_dir=d).table,
    }
    for name, run in runs.items():
        plain = run(None)
        folder = tmp_path / name
        run(folder)
        for part in parts(folder)[1::2]:
            (folder / part).unlink()
        resumed = run(folder)
        drop = [c for c in plain.columns if "second" in c]
        assert plain.drop(columns=drop).equals(resumed.drop(columns=drop)), name


def test_run_dir_errors_are_one_line(tmp_path):
    (tmp_path / "f").write_text("x")
    r = runner.invoke(app, ["simulate", "palace", "-n", "10", "--run-dir", str(tmp_path / "f"), "--no-progress"])
    assert r.exit_code == 2 and "it is a file, not a directory" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["simulate", "palace", "-n", "10", "--run-dir", str(tmp_path / "no" / "d"),
                            "--no-progress"])
    assert r.exit_code == 2 and "does not exist" in r.output
    runner.invoke(app, ["simulate", "palace", "-n", "10", "--run-dir", str(tmp_path / "d"), "--no-progress"])
    r = runner.invoke(app, ["simulate", "palace", "-n", "10", "--seed", "9", "--run-dir", str(tmp_path / "d"),
                            "--no-progress"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "seed: 0 in the directory, 9 here" in r.output


def test_first_deal_on_the_cli_plays_those_units(tmp_path):
    r = runner.invoke(app, ["simulate", "palace", "-n", "20", "--first-deal", "30", "--out",
                            str(tmp_path / "a.parquet"), "--no-progress"])
    assert r.exit_code == 0, r.output
    units = pq.read_table(tmp_path / "a.parquet").column("unit").to_pylist()
    assert units == list(range(30, 50))
    api = analyser.simulate("palace", n=50, chunk_size=10)
    assert analyser.load(tmp_path / "a.parquet").games.drop(columns="unit").reset_index(drop=True).equals(
        api.games.iloc[30:].drop(columns="unit").reset_index(drop=True))


def entry(*args):
    return [sys.executable, "-m", "analyser.cli.main", *args]


@pytest.mark.skipif(os.name != "posix", reason="sends SIGKILL to a child process")
def test_a_run_killed_with_sigkill_resumes_to_the_uninterrupted_file(tmp_path):
    """Only the killed run needs a process of its own: the uninterrupted run and the resumed one are the
    same command run in this one (a fresh interpreter costs seconds of loading the games' code)."""
    command = ["simulate", "palace", "-n", "40000", "--chunk-size", "1000"]
    whole = tmp_path / "whole.parquet"
    done = runner.invoke(app, [*command, "--out", str(whole), "--no-progress"])
    assert done.exit_code == 0, done.output
    folder, out = tmp_path / "run", tmp_path / "resumed.parquet"
    args = [*command, "--run-dir", str(folder), "--out", str(out), "--threads", "1", "--no-progress"]
    child = subprocess.Popen(entry(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not (folder / "manifest.jsonl").exists() or \
                sum(e["kind"] == "part" for e in manifest(folder)) < 3:
            assert child.poll() is None, child.communicate()
            assert time.monotonic() < deadline, "the run never kept a chunk"
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    kept = sum(e["kind"] == "part" for e in manifest(folder))
    assert 3 <= kept < 40, kept
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert pq.read_table(out).equals(pq.read_table(whole))
    assert len(parts(folder)) == 40 and not list(folder.glob(".*"))


def test_ctrl_c_says_the_chunks_are_kept(tmp_path):
    calls = []
    real = LocalExecutor.play

    def play(self, chunk):
        calls.append(chunk.start)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, chunk)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(LocalExecutor, "play", play)
        with pytest.raises(analyser.errors.Interrupted, match=r"2 finished chunks are kept in .*: the same command "
                                                               r"resumes from them"):
            analyser.simulate("palace", n=500, chunk_size=100, run_dir=tmp_path)
    plain = analyser.simulate("palace", n=500, chunk_size=100)
    same(plain, analyser.simulate("palace", n=500, chunk_size=100, run_dir=tmp_path))
    assert np.array_equal(plain.records["unit"], np.arange(500))



def test_a_directory_that_holds_anything_but_a_run_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    r = runner.invoke(app, ["simulate", "palace", "-n", "20", "--no-progress", "--run-dir", str(tmp_path)])
    assert r.exit_code == 2 and r.stderr.strip().count("\n") == 0, r.stderr
    assert f"cannot use {tmp_path} as a run directory: it holds 'notes.txt', which is not part of a run" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]          # nothing written


def test_show_a_run_directory_says_how_far_the_run_got(tmp_path):
    analyser.simulate("palace", n=300, seed=2, chunk_size=100, run_dir=tmp_path, progress=False)
    r = runner.invoke(app, ["show", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert f"run directory {tmp_path}: 300 of 300 games in 3 of 3 chunks: complete" in r.stdout
    lines = (tmp_path / "manifest.jsonl").read_text().splitlines()
    (tmp_path / "manifest.jsonl").write_text("\n".join(lines[:-1]) + "\n")     # stopped before the last chunk
    r = runner.invoke(app, ["show", str(tmp_path), "-f", "json"])
    assert r.exit_code == 0, r.output
    assert "200 of 300 games in 2 of 3 chunks: the same command plays the rest" in r.stderr
    shown = json.loads(r.stdout)
    plain = analyser.simulate("palace", n=200, seed=2)
    assert shown["units"] == 200 and shown["seats"] == json.loads(json.dumps(plain.to_dict()["seats"]))


def test_show_a_run_directory_of_several_configurations(tmp_path):
    analyser.compare("palace", policies=["saver", "lowest"], n=20, seed=2, run_dir=tmp_path, progress=False)
    r = runner.invoke(app, ["show", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "20 of 20 games each configuration in" in r.stdout and "complete" in r.stdout
