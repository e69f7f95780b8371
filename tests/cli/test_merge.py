"""``analyser merge``: the summary of several results files, exactly one run's; bad input in one line."""
import json

import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app

runner = CliRunner()
POLICIES = ["--policy", "saver", "--policy", "lowest", "--policy", "pickup", "--policy", "random"]
TIMING = ("seconds", "simulation_seconds", "units_per_second", "simulation_units_per_second")


def run(*args):
    return runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "150"})


def part(path, n, first, seed=3):
    analyser.simulate("palace", policies=POLICIES[1::2], n=n, seed=seed, first_deal=first, out=path, threads=1)
    return path


def comparable(text: str) -> dict:
    d = json.loads(text)
    d = {k: v for k, v in d.items() if k not in ("games_per_second", "covers", "ranges", "merged")}
    d["run"] = {k: v for k, v in d["run"].items() if k not in TIMING}
    return d


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("merge_cli")
    return (part(d / "a.parquet", 300, 0), part(d / "b.parquet", 500, 300), part(d / "late.parquet", 300, 500),
            part(d / "seed4.parquet", 500, 300, seed=4))


def test_merge_prints_what_one_run_prints(files):
    a, b, *_ = files
    single = run("simulate", "palace", *POLICIES, "-n", 800, "--seed", 3, "--threads", 1, "-f", "json",
                 "--no-progress")
    merged = run("merge", b, a, "-f", "json")
    assert single.exit_code == 0 and merged.exit_code == 0, merged.output
    assert comparable(merged.stdout) == comparable(single.stdout)
    assert json.loads(merged.stdout)["covers"] == "games 0-799 of seed 3"
    table = run("merge", a, b)
    assert table.exit_code == 0 and table.stdout.startswith("Merged 2 files: games 0-799 of seed 3.")
    assert "800 games, seed 3" in table.stdout and "Per seat" in table.stdout
    csv = run("merge", a, b, "-f", "csv")
    assert csv.stdout.splitlines()[0].startswith("seat,policy,games,win_rate")
    assert "merged 2 files: games 0-799 of seed 3" in csv.stderr


def test_merge_with_a_gap_and_out_then_show(files, tmp_path):
    a, _, late, _ = files
    out = tmp_path / "m.parquet"
    r = run("merge", a, late, "--out", out)
    assert r.exit_code == 0, r.output
    assert "Merged 2 files: games 0-299, 500-799 of seed 3." in r.stdout and "600 games" in r.stdout
    assert f"wrote {out}" in r.stderr
    shown = run("show", out, "-f", "json")
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert data["units"] == 600 and data["first_deal"] == 0
    assert comparable(shown.stdout) == comparable(run("merge", a, late, "-f", "json").stdout)


def test_help_explains():
    r = run("merge", "--help")
    assert r.exit_code == 0
    flat = " ".join(r.stdout.split())
    assert "as if one run had played all their units" in flat and "--out" in flat and "--format" in flat
    assert "disjoint" in flat
    assert "merge" in run("--help").stdout


@pytest.mark.parametrize("case,message", [
    ("seed", "differ in seed: 3 and 4"),
    ("overlap", "overlap in games 500-799"),
    ("twice", "is given twice"),
    ("none", "merge needs at least one results file"),
    ("missing", "no results file at "),
    ("text", "is not a readable analyser results file"),
])
def test_bad_input_is_one_line_and_exit_code_2(files, tmp_path, case, message):
    a, b, late, seed4 = files
    text = tmp_path / "notes.parquet"
    text.write_text("hello")
    args = {"seed": [a, seed4], "overlap": [a, b, late], "twice": [a, a], "none": [],
            "missing": [a, tmp_path / "nope.parquet"], "text": [a, text]}[case]
    r = run("merge", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and r.stderr.strip().count("\n") == 0 and message in r.stderr
    assert "Traceback" not in r.output
    if case == "seed":
        assert f"{a} and {seed4} differ in seed: 3 and 4" in r.stderr
