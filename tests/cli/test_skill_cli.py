"""``analyser skill``: its tables, JSON, CSV and file, and bad input as one line with exit code 2."""
import json

import pytest
from typer.testing import CliRunner

from analyser.cli.main import app
from tests.cli.test_bad_input import assert_one_line

runner = CliRunner()
QUICK = ["skill", "palace", "-p", "2", "--policy", "pimc:worlds=2", "-n", "12", "--ladder", "1", "--replays", "2",
         "--no-progress"]


def test_tables_name_every_part_and_what_it_cost():
    r = runner.invoke(app, QUICK, env={"COLUMNS": "140"})
    assert r.exit_code == 0, r.output
    out = r.stdout
    for text in ("relative: relative skill RS = ", "luck share", "with saver (every replay alike", "Against the field",
                 "pimc:worlds=2,open=yes (cheating)", "Skill ladder", "pimc:worlds=1", "took relative"):
        assert text in out


def test_json_and_the_file_agree(tmp_path):
    path = tmp_path / "skill.json"
    r = runner.invoke(app, QUICK + ["--part", "relative", "--format", "json", "--out", str(path)])
    assert r.exit_code == 0, r.output
    printed, written = json.loads(r.stdout), json.loads(path.read_text())
    assert printed["relative"] == written["relative"] and printed["meta"]["parts"] == ["relative"]
    assert printed["luck"] is None and f"wrote {path}" in r.stderr


def test_csv_is_the_summary():
    r = runner.invoke(app, QUICK + ["--part", "luck", "--format", "csv"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "quantity,estimate,ci_low,ci_high"
    assert lines[1].startswith('"luck share, saver in every seat",1.0,') and len(lines) == 3


@pytest.mark.parametrize("args,message", [
    (["--policy", "saver"], "the strong player must be a search player, not 'saver'; valid: pimc, ismcts"),
    (["--policy", "pimc", "--policy", "ismcts"], "give the strong player once with --policy, not 2 times"),
    (["--part", "everything"], "unknown part of skill everything; valid: relative, luck, ladder"),
    (["--ladder", "1,two"], "--ladder takes whole numbers separated by commas"),
    (["--ladder", "0"], "the ladder's budgets must be whole numbers of at least 1"),
    (["--replays", "9", "-p", "2"], "replays must be from 2 to 7"),
    (["--out", "skill.parquet"], "--out writes a .json file, not 'skill.parquet'"),
    (["--field", "nobody"], "unknown policy 'nobody'"),
    (["--players", "5"], "palace is for 2 to 4 players, not 5"),
])
def test_bad_input(args, message):
    r = runner.invoke(app, ["skill", "palace", *args])
    assert r.exit_code == 2, r.output
    assert_one_line(r.stderr, message)
