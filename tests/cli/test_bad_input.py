"""Every bad input: one line on stderr, exit code 2, never a traceback."""
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from analyser.cli.main import app

runner = CliRunner()
BIG = str(2**63)          # one past the largest index: an OverflowError traceback before


def cli(*args, **kwargs):
    """The real entry point in a fresh interpreter, stdout a pipe (so /dev/stdout is no file)."""
    return subprocess.run([sys.executable, "-m", "analyser.cli.main", *args], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100"}, timeout=300, **kwargs)


def assert_one_line(stderr: str, message: str):
    assert "Traceback" not in stderr
    assert stderr.strip().count("\n") == 0, stderr
    assert message in stderr, stderr


@pytest.mark.parametrize("args,message", [
    (["trace", "palace", "--deal", BIG], "--deal (the index of the game) must be from 0 to"),
    (["trace", "palace", "--deal", str(2**64)], "--deal (the index of the game) must be from 0 to"),
    (["trace", "palace", "--unit", "3"], "palace simulates only whole games, not '3'"),
    (["trace", "enemy_anemone", "--unit", "hand", "--deal", "-1"], "--deal (the index of the hand) must be"),
    (["trace", "palace", "--deal", "-1"], "must be from 0 to"),
    (["trace", "palace", "--seed", BIG], "seed must be from 0 to"),
    (["trace", "palace", "--hand", "1"], "palace has no hands or rounds"),
    (["simulate", "palace", "--seed", BIG], "seed must be from 0 to"),
    (["simulate", "palace", "--seed", "-1"], "seed must be from 0 to"),
    (["simulate", "palace", "--threads", "0"], "threads must be a whole number from 1 to"),
    (["simulate", "palace", "--threads", "99"], "threads must be a whole number from 1 to"),
    (["simulate", "palace", "--deals", "-5"], "the number of games must be from 1"),
    (["simulate", "palace", "-n", BIG], "the number of games must be from 1"),
    (["simulate", "palace", "--players", "0"], "palace is for 2 to 4 players, not 0"),
    (["simulate", "palace", "--policy", "saver:keep=1,keep=2"], "parameter 'keep' is given twice"),
    (["simulate", "palace", "--policy", "saver", "--policy", "lowest"],
     "give one policy for all seats or one per seat"),
    (["simulate", "palace", "--policy", "saver:keep"], "must look like name=value"),
    (["simulate", "palace", "--policy", "saver:keep=lots"], "must be a number"),
    (["simulate", "palace", "--rule", "max_actions=0"], "out of range"),
    (["simulate", "palace", "--rule", "short_game=maybe"], "on or off"),
    (["simulate", "palace", "--deals", "5", "--games", "6"], "--deals and --games are one option"),
    (["simulate", "palace", "--unit", "hand"], "palace simulates only whole games, not 'hand'"),
    (["simulate", "highcard", "--unit", "round"], "highcard simulates a match or a hand, not 'round'"),
    (["simulate", "highcard", "-u", "hand", "--rule", "hands=3"],
     "rule hands is fixed at 1 when simulating single hands"),
    (["simulate", "highcard", "-u", "hand", "-n", "0"], "the number of hands must be from 1"),
    (["simulate", "chess"], "unknown game 'chess'; valid: palace"),
    (["trace", "chess"], "unknown game 'chess'"),
    (["policies", "chess"], "unknown game 'chess'"),
])
def test_bad_input(args, message):
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert_one_line(r.stderr, message)


def test_out_is_a_directory(tmp_path):
    r = runner.invoke(app, ["simulate", "palace", "-n", "10", "--out", str(tmp_path), "--no-progress"])
    assert r.exit_code == 2
    assert_one_line(r.stderr, "it is a directory")
    assert list(tmp_path.iterdir()) == []


def test_out_is_a_symbolic_link(tmp_path):
    target = tmp_path / "real.parquet"
    target.write_bytes(b"old")
    (tmp_path / "link.parquet").symlink_to(target)
    r = runner.invoke(app, ["simulate", "palace", "-n", "10", "--out", str(tmp_path / "link.parquet"),
                            "--no-progress"])
    assert r.exit_code == 2
    assert_one_line(r.stderr, "it is a symbolic link")
    assert target.read_bytes() == b"old" and (tmp_path / "link.parquet").is_symlink()


def test_out_dev_stdout_through_the_entry_point():
    # stdout is a pipe here; run in a subprocess, never in-process, where fd 1 may be a file
    r = cli("simulate", "palace", "-n", "10", "--out", "/dev/stdout", "--no-progress")
    assert r.returncode == 2
    assert_one_line(r.stderr, "cannot write results file /dev/stdout")
    assert os.path.islink("/dev/stdout")


def test_huge_index_through_the_entry_point():
    r = cli("trace", "palace", "--deal", BIG)
    assert r.returncode == 2
    assert_one_line(r.stderr, "must be from 0 to 9,223,372,036,854,775,807")


USAGE_ERRORS = [(["simulate", "palace", "--deals", "abc"], "--deals"), (["simulate", "palace", "--count"], "--count"),
                (["trace", "palace", "--hand", "x"], "--hand"), (["simulate", "palace", "--nonsense"], "--nonsense")]
EACH_THROUGH_MAIN = """
import contextlib, io, sys
from analyser.cli.main import main
for args in {cases!r}:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            main(args)
        except SystemExit as exit:
            code = exit.code
    print(repr((code, err.getvalue())))
"""


def test_usage_errors_through_the_entry_point():
    """The real entry point (analyser.cli.main:main), each case in turn in one fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", EACH_THROUGH_MAIN.format(cases=[a for a, _ in USAGE_ERRORS])],
                          capture_output=True, text=True, env={**os.environ, "COLUMNS": "100"}, timeout=300)
    results = [eval(line) for line in done.stdout.splitlines()]
    assert len(results) == len(USAGE_ERRORS), done.stdout + done.stderr
    for (code, stderr), (_, name) in zip(results, USAGE_ERRORS, strict=True):
        assert code == 2
        assert_one_line(stderr, name)


def test_largest_index_and_seed_are_accepted():
    r = runner.invoke(app, ["trace", "palace", "--deal", str(2**63 - 1), "--seed", str(2**63 - 1), "-f", "jsonl"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["simulate", "palace", "-n", "3", "--seed", str(2**63 - 1), "-f", "json",
                            "--no-progress"])
    assert r.exit_code == 0, r.output


def test_show_missing_file(tmp_path):
    r = runner.invoke(app, ["show", str(tmp_path / "nowhere.parquet")])
    assert r.exit_code == 2
    assert_one_line(r.stderr, "no results file at")


def test_show_a_file_that_is_not_parquet(tmp_path):
    bad = tmp_path / "notes.parquet"
    bad.write_text("just some text\n")
    r = runner.invoke(app, ["show", str(bad)])
    assert r.exit_code == 2
    assert_one_line(r.stderr, "not a readable analyser results file")


def test_show_a_parquet_file_without_analyser_metadata(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"deal": [0, 1], "loser": [2, 3]}), plain)
    r = runner.invoke(app, ["show", str(plain)])
    assert r.exit_code == 2
    assert_one_line(r.stderr, "without analyser metadata")
    assert "KeyError" not in r.stderr


def test_show_a_directory(tmp_path):
    r = runner.invoke(app, ["show", str(tmp_path)])
    assert r.exit_code == 2
    assert_one_line(r.stderr, "no results file at")


def test_hand_of_a_match(tmp_path):
    """--hand K passes hand=K to the trace (needs a game with sub-units: the tests' toy game)."""
    from analyser.games.registry import game_names, get_game

    matches = [n for n in game_names() if get_game(n).sub_unit]
    if not matches:
        pytest.skip("no registered game has hands or rounds")
    import json

    game = matches[0]
    whole = runner.invoke(app, ["trace", game, "--deal", "3", "-f", "jsonl"])
    assert whole.exit_code == 0, whole.output
    hands = sorted({e["hand"] for e in map(json.loads, whole.stdout.splitlines()) if "hand" in e})
    one = runner.invoke(app, ["trace", game, "-d", "3", "--hand", str(hands[-1]), "-f", "jsonl"])
    assert one.exit_code == 0, one.output
    events = [json.loads(x) for x in one.stdout.splitlines()]
    assert {e["hand"] for e in events if "hand" in e} == {hands[-1]}
    bad = runner.invoke(app, ["trace", game, "--deal", "3", "--hand", str(hands[-1] + 1)])
    assert bad.exit_code == 2
    assert_one_line(bad.stderr, f"not {hands[-1] + 1}")
