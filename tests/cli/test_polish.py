"""The small things a newcomer reads: ±, no -0.0, one colon, the game's title."""
import re

from typer.testing import CliRunner

from analyser.cli.main import app
from analyser.io.numbers import hundred, num

runner = CliRunner()


def run(*args):
    r = runner.invoke(app, list(args), env={"COLUMNS": "120"})
    assert r.exit_code in (0, 2), r.output
    return r


def test_plus_minus_is_one_sign():
    for command in ("simulate", "compare", "tournament"):
        assert "+-" not in run(command, "--help").stdout
    r = run("vary", "palace", "--setting", "ten_on_anything", "-n", "200", "--no-progress")
    assert "+-" not in r.stdout and "±" in r.stdout


def test_what_rounds_to_zero_has_no_sign():
    assert num(-0.0004, 3) == "0.000" and hundred(-0.00004, sign=True) == "0.00" and hundred(-0.0004) == "-0.04"
    r = run("sweep", "palace", "-p", "2", "--policy", "pickup:max_pile=0|1", "--policy", "saver", "-n", "200",
            "--no-progress")
    assert not re.search(r"-0\.0+\b", r.stdout), r.stdout


def test_a_bad_range_names_its_parameter_once():
    r = run("sweep", "palace", "-p", "2", "--policy", "pickup:max_pile=5..0", "--policy", "saver")
    assert r.exit_code == 2 and "error: pickup:max_pile: the range '5..0' ends below its start" in r.stderr
    assert ": :" not in r.stderr


def test_headings_name_the_games_title():
    r = run("vary", "spite_and_malice", "--setting", "refill_empty_hand", "-n", "20", "--no-progress")
    assert r.stdout.startswith("Spite & Malice: ") and "spite_and_malice" not in r.stdout


def test_an_interval_that_excludes_0_never_prints_a_bound_of_0():
    """"[-0.4, 0.0]" beside "below fair" read as a contradiction: a bound that is not 0 keeps the
    digits that show its sign, in the report's tables and its verdicts; an exact tie stays [0.0, 0.0]."""
    from analyser.analyses.report.template import interval, pc, pts
    from analyser.io.numbers import bound

    assert bound(-0.0003, 1, True, 100) == "-0.03" and bound(0.00004, 1, True, 100) == "+0.004"
    assert bound(0.0, 1, True, 100) == "0.0" and bound(-0.2, 1, True, 100) == "-20.0"
    assert interval(-0.004, -0.0003, pts) == "[-0.4, -0.03]" and interval(0.0, 0.0, pts) == "[0.0, 0.0]"
    assert interval(0.00001, 0.5, pc) == "[0.001%, 50.0%]"
