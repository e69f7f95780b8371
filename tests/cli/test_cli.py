"""The CLI: outputs, and bad input as one line on stderr with exit code 2."""
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from analyser.cli.main import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def test_simulate_json_has_the_documented_keys():
    r = run("simulate", "palace", "--deals", "200", "--seed", "3", "--policy", "saver", "--policy", "lowest",
            "--policy", "pickup:max_pile=4", "--policy", "random", "--format", "json", "--no-progress")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert {"game", "players", "deals", "seed", "settings", "seats", "games_per_second", "aborted"} <= set(data)
    seat = data["seats"][2]
    assert {"seat", "policy", "params", "games", "win_rate", "win_ci_low", "win_ci_high", "loser_rate"} <= set(seat)
    assert seat["policy"] == "pickup" and seat["params"]["max_pile"] == 4
    assert seat["win_ci_low"] <= seat["win_rate"] <= seat["win_ci_high"]


def test_simulate_table_and_csv():
    r = run("simulate", "palace", "-n", "100", "--players", "3", "--rule", "ten_on_anything=on", "--no-progress")
    assert r.exit_code == 0 and "Per seat" in r.stdout and "ten_on_anything=True" in r.stdout
    r = run("simulate", "palace", "-n", "100", "-f", "csv", "--no-progress")
    assert r.stdout.splitlines()[0].startswith("seat,policy,games,win_rate")


def test_out_and_show(tmp_path):
    path = tmp_path / "r.parquet"
    r = run("simulate", "palace", "-n", "150", "--out", str(path), "-f", "json", "--no-progress")
    assert r.exit_code == 0
    shown = run("show", str(path), "-f", "json")
    assert shown.exit_code == 0
    assert json.loads(shown.stdout)["seats"] == json.loads(r.stdout)["seats"]


def test_trace_jsonl_order_and_text():
    r = run("trace", "palace", "--seed", "2", "--deal", "1", "--format", "jsonl")
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["type"] == "setup" and list(lines[0])[:8] == [
        "type", "game", "players", "seed", "unit", "deal", "settings", "policies"]
    assert [e["type"] for e in lines[1:5]] == ["swap"] * 4
    assert lines[-1]["type"] == "result"
    text = run("trace", "palace", "--seed", "2", "--deal", "1").stdout
    assert "Swaps:" in text and "Result:" in text


def test_listings():
    assert "ten_on_anything" in run("games").stdout
    out = run("policies", "palace").stdout
    assert "spend_rank" in out and "max_pile" in out


@pytest.mark.parametrize("args,message", [
    (["simulate", "chess"], "unknown game 'chess'; valid: palace"),
    (["simulate", "palace", "--players", "5"], "palace is for 2 to 4 players, not 5; valid: 2, 3, 4"),
    (["simulate", "palace", "--policy", "genius"], "unknown policy 'genius'"),
    (["simulate", "palace", "--policy", "saver:speed=3"], "unknown parameter 'speed' for policy 'saver'"),
    (["simulate", "palace", "--rule", "jokers=on"], "unknown rule 'jokers' for palace"),
    (["simulate", "palace", "--rule", "short_game"], "a rule is written NAME=VALUE"),
    (["simulate", "palace", "--deals", "0"], "the number of games must be from 1"),
    (["trace", "palace", "--players", "1"], "palace is for 2 to 4 players, not 1"),
    (["policies", "chess"], "unknown game 'chess'"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    r = run(*args)
    assert r.exit_code == 2
    assert r.stderr.strip().count("\n") == 0 and message in r.stderr
    assert "Traceback" not in r.output


def test_corrupt_results_file_is_one_line(tmp_path):
    bad = tmp_path / "broken.parquet"
    bad.write_bytes(b"not a parquet file at all")
    r = run("show", str(bad))
    assert r.exit_code == 2 and "not a readable analyser results file" in r.stderr
    assert r.stderr.strip().count("\n") == 0


def test_usage_errors_through_the_real_entry_point_are_one_line():
    r = subprocess.run([sys.executable, "-m", "analyser.cli.main", "simulate", "palace", "--players", "many"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "--players" in r.stderr
