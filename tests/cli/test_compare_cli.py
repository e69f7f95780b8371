"""``analyser compare``: table, JSON and CSV output, results files, one-line errors with exit code 2."""
import json

import pytest
from typer.testing import CliRunner

from analyser.analyses.compare import load_compare
from analyser.cli.main import app

runner = CliRunner()
BASE = ["compare", "palace", "--policy", "saver", "--policy", "lowest", "--no-progress"]


def test_table_at_80_columns():
    r = runner.invoke(app, [*BASE, "-n", "300", "--players", "4"], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "A's advantage over B" in out and "rotations of ABBB and BAAA" in out and "fixed: 300 games" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out


def test_json_and_csv():
    r = runner.invoke(app, [*BASE, "-n", "200", "--seed", "2", "-f", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["policies"] == {"A": "saver", "B": "lowest"} and data["arrangements"]["count"] == 8
    win = data["summary"][0]
    assert win["quantity"] == "win share difference" and win["ci_low"] <= win["estimate"] <= win["ci_high"]
    r = runner.invoke(app, [*BASE, "-n", "200", "-f", "csv", "-p", "2"])
    lines = r.stdout.splitlines()
    assert lines[0].startswith("quantity,estimate,ci_low,ci_high,half_width") and len(lines) == 3


def test_precision_and_out(tmp_path):
    path = tmp_path / "c.parquet"
    r = runner.invoke(app, [*BASE, "-p", "2", "--precision", "0.2", "-n", "100", "--out", str(path), "-f", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["stop"]["reached"] and data["precision"]["target"] == 0.2
    assert load_compare(path).to_dict()["summary"] == data["summary"]


@pytest.mark.parametrize("args,message", [
    (["--policy", "saver"], "compare takes exactly two policies, A and B, not 1"),
    ([], "compare takes exactly two policies, A and B, not 0"),
    (["--policy", "saver", "--policy", "lowest", "--policy", "random"], "not 3"),
    (["--policy", "saver", "--policy", "clever"], "clever"),
    (["--policy", "saver", "--policy", "lowest", "--precision", "0"], "precision must be a half-width"),
    (["--policy", "saver", "--policy", "lowest", "--precision", "2"], "precision must be a half-width"),
    (["--policy", "saver", "--policy", "lowest", "--precision", "-1"], "precision must be a half-width"),
    (["--policy", "saver", "--policy", "lowest", "--precision", "0.01", "--max-deals", "0"], "--max-deals must"),
    (["--policy", "saver", "--policy", "lowest", "--precision", "0.01", "-n", "20", "--max-deals", "10"],
     "more than --max-deals"),
    (["--policy", "saver", "--policy", "lowest", "-n", "0"], "the number of games must be from 1"),
    (["--policy", "saver", "--policy", "lowest", "--players", "5"], "palace is for 2 to 4 players"),
    (["--policy", "saver", "--policy", "lowest", "--seed", "-1"], "seed must be from 0"),
    (["--policy", "saver", "--policy", "lowest", "--threads", "0"], "threads must be"),
    (["--policy", "saver", "--policy", "lowest", "--rule", "short_game=maybe"], "on or off"),
    (["--policy", "saver", "--policy", "lowest", "-n", "5", "--games", "6"], "are one option"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    r = runner.invoke(app, ["compare", "palace", *args, "--no-progress"])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
    assert message in r.stderr


def test_unknown_game_and_bad_out(tmp_path):
    r = runner.invoke(app, ["compare", "chess", "--policy", "a", "--policy", "b"])
    assert r.exit_code == 2 and "unknown game 'chess'" in r.stderr
    r = runner.invoke(app, [*BASE, "-n", "10", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "it is a directory" in r.stderr and list(tmp_path.iterdir()) == []


def test_plot_file_and_show(tmp_path):
    """--plot draws the paired difference; `show` and `plot` read a comparison file back."""
    out, png = tmp_path / "c.parquet", tmp_path / "c.png"
    r = runner.invoke(app, ["compare", "palace", "--policy", "saver", "--policy", "lowest", "-p", "2", "-n", "200",
                            "--no-progress", "--out", str(out), "--plot", str(png)])
    assert r.exit_code == 0, r.output
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"
    shown = runner.invoke(app, ["show", str(out)])
    assert shown.exit_code == 0 and "A's advantage over B" in shown.stdout
    again = runner.invoke(app, ["plot", str(out), "--out", str(tmp_path / "again.svg")])
    assert again.exit_code == 0 and (tmp_path / "again.svg").stat().st_size > 10_000


def test_an_exact_tie_and_one_policy_under_two_names_are_said():
    r = runner.invoke(app, ["compare", "palace", "--policy", "saver", "--policy", "saver", "-n", "50", "--no-progress"])
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    assert "one policy under two names" in out.split("A's advantage")[0]       # said up front
    assert "0 [0, 0]: exact tie" in out and "1e" not in out
    data = json.loads(runner.invoke(app, ["compare", "palace", "--policy", "saver", "--policy", "saver", "-n", "50",
                                          "--no-progress", "-f", "json"]).stdout)
    assert data["same_policy"] and data["summary"][0]["tie"] and data["summary"][0]["variance_reduction"] is None
    assert data["heterogeneity"]["tested"] and not data["heterogeneity"]["flag"]


def test_tables_that_disagree_are_said_in_the_table_and_json():
    args = ["compare", "enemy_anemone", "--policy", "timing", "--policy", "lowball", "-n", "40", "--no-progress"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    assert "the answer depends on the table: the arrangements disagree in sign" in out
    assert "A alone" in out and "B alone (A the majority)" in out
    data = json.loads(runner.invoke(app, [*args, "-f", "json"]).stdout)
    assert data["heterogeneity"]["flag"] and data["heterogeneity"]["opposite"]
    assert len(data["heterogeneity"]["effects"]) == 2


def test_simulate_rerun():
    r = runner.invoke(app, ["simulate", "palace", "-p", "2", "--precision", "0.05", "--rerun", "-n", "100",
                            "--no-progress", "-f", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["stop"]["rule"] == "rerun" and "fixed-count rerun" in data["stopped"] and "bias" in data["precision"]
    bad = runner.invoke(app, ["simulate", "palace", "--rerun", "-n", "10", "--no-progress"])
    assert bad.exit_code == 2 and "--rerun repeats a --precision run" in bad.stderr
    helped = " ".join(runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"}).stdout.split())
    assert "Chow-Robbins" in helped and "--rerun" in helped and "can bias it slightly" in helped
