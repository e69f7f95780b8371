"""Units at the action cap, command by command: one clear line when every deal aborted (exit 2 where there
is nothing to estimate, never NaN without a word or a traceback), and the bounds over all deals ("all aborts
lost" / "all aborts won") in the table, the JSON and the summary when more than 1% of the deals aborted.

Every match of examples/highcard aborts with max_actions=7 (a match is 12 plays), whatever the policies, so
these do not depend on any game's policies; Palace's pickup:max_voluntary=5000 loops in about a quarter of
its 4-player games."""
import json

import pytest
from typer.testing import CliRunner

from analyser.cli.main import app

runner = CliRunner()
CAPPED = ["--rule", "max_actions=7", "--no-progress", "-n", "20"]
LOOPS = "pickup:max_voluntary=5000"


@pytest.mark.parametrize("command", [
    ["compare", "highcard", "--policy", "high", "--policy", "random"],
    ["vary", "highcard", "--setting", "hands=2,3", "--policy", "high"],
    ["sweep", "highcard", "--policy", "alternate:every=1..3"],
    ["tournament", "highcard", "--policy", "high", "--policy", "random"],
    ["tournament", "highcard", "--policy", "high", "--policy", "random", "--policy", "alternate", "--tables", "mixed"],
])
def test_every_deal_aborted_is_one_line(command):
    r = runner.invoke(app, [*command, *CAPPED])
    assert r.exit_code == 2, (r.output, r.exception)
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: all 20 matches aborted at the action cap"), r.stderr
    assert "at least two completed" in lines[0] and "nan" not in r.output.lower()


def test_report_with_every_unit_aborted_is_one_line(tmp_path):
    r = runner.invoke(app, ["report", "highcard", *CAPPED, "--out", str(tmp_path / "r.md")])
    assert r.exit_code == 2 and "Traceback" not in r.output, (r.output, r.exception)
    assert r.stderr.strip().count("\n") == 0 and "all 20 matches aborted at the action cap" in r.stderr


def test_simulate_with_every_unit_aborted_says_none_completed():
    r = runner.invoke(app, ["simulate", "highcard", *CAPPED, "-f", "json"])
    assert r.exit_code == 0, r.output
    assert r.stderr.strip() == ("warning: all 20 matches aborted at the action cap: none completed, so there is no "
                                "share or rate to show")
    seats = json.loads(r.stdout)["seats"]
    assert all(s["win_ci_low"] is None and s["win_ci_high"] is None for s in seats)   # no zero-width interval


def test_compare_with_many_aborts_prints_and_writes_the_bounds():
    args = ["compare", "palace", "--policy", LOOPS, "--policy", "pickup", "-n", "60", "--no-progress"]
    text = " ".join(runner.invoke(app, args).stdout.split())
    assert "with all aborts lost by A" in text and "with all aborts won by A" in text
    out = json.loads(runner.invoke(app, [*args, "-f", "json"]).stdout)
    win = out["summary"][0]
    assert win["aborted_share"] > 0.01 and out["aborts"].startswith(f"{win['aborted_deals']} of 60 games")
    assert win["aborts_lost_ci_low"] <= win["aborts_lost"] <= win["aborts_won"] <= win["aborts_won_ci_high"]
    assert win["aborts_lost"] < win["estimate"] < win["aborts_won"]
    csv = runner.invoke(app, [*args, "-f", "csv"]).stdout.splitlines()[0]
    assert "aborts_lost_ci_low" in csv and "aborts_won_ci_high" in csv


def test_tournament_sweep_and_vary_with_many_aborts_show_the_bounds():
    small = ["-n", "40", "--no-progress"]
    pairs = json.loads(runner.invoke(app, ["tournament", "palace", "--policy", LOOPS, "--policy", "pickup", *small,
                                           "-f", "json"]).stdout)
    assert pairs["pairs"][0]["aborts_lost"] is not None and "all aborts lost by " + LOOPS in pairs["aborts"][0]
    sweep = runner.invoke(app, ["sweep", "palace", "--policy", "pickup:max_voluntary=20|5000", *small])
    assert "settings have more than 1% of their games aborted" in " ".join(sweep.stdout.split()), sweep.output
    vary = json.loads(runner.invoke(app, ["vary", "palace", "--setting", "ten_on_anything", "--policy", LOOPS,
                                          *small, "-f", "json"]).stdout)
    later = [row for row in vary["table"] if row["value"] == "True"]
    assert all(row["aborts_lost"] <= row["aborts_won"] for row in later) and vary["aborts"]


@pytest.mark.parametrize("command", [["compare", "highcard", "--policy", "high", "--policy", "random"],
                                     ["tournament", "highcard", "--policy", "high", "--policy", "random"]])
def test_a_precision_target_with_every_deal_aborted_stops_after_the_first_batch(command):
    r = runner.invoke(app, [*command, "--precision", "0.05", "--rule", "max_actions=7", "--no-progress"])
    assert r.exit_code == 2 and r.stderr.startswith("error: all 1,000 matches aborted at the action cap"), r.stderr
