"""Parameter sweeps: values syntax, line-ups, a planted optimum, common deals on one compiled
engine, the re-check on a fresh seed, results files, and one-line errors with exit code 2."""
import numpy as np
import pandas as pd
import pytest
import typer
from numba import njit
from typer.testing import CliRunner

from analyser.cli import sweep as sweep_cli
from analyser.cli.common import Command, Group
from analyser.core.errors import UserError
from analyser.core.policy import ParamSpec, PolicySpec
from analyser.core.registry import get_game
from analyser.core.rng import below_nb
from analyser.sweeps import best_index, load_sweep, parse_values, plan_sweep, sweep
from tests.toygame.policies import extreme_nb
from tests.toygame.rules import POLICY_SIG

app = typer.Typer(cls=Group, pretty_exceptions_enable=False)
app.command(cls=Command)(sweep_cli.sweep)


@app.callback()
def _root():
    pass


cli = CliRunner()
PALACE = get_game("palace")


# ---------------------------------------------------------------- values and plans

@pytest.mark.parametrize("text,values", [
    ("0..4", [0, 1, 2, 3, 4]),
    ("3..3", [3]),
    ("0..1:0.25", [0, 0.25, 0.5, 0.75, 1]),
    ("0..1:0.1", [round(0.1 * i, 12) for i in range(11)]),
    ("2..9:3", [2, 5, 8]),
    ("1|5|2", [1, 5, 2]),
    ("7", None),
])
def test_parse_values(text, values):
    assert parse_values(text) == values


@pytest.mark.parametrize("text,message", [
    ("0..3:0", "step"), ("0..3:-1", "step"), ("5..1", "ends below"), ("a..3", "not a number"),
    ("1||2", "empty item"), ("1|1", "twice"), ("0..1000000", "at most"),
])
def test_parse_values_errors(text, message):
    with pytest.raises(UserError, match=message):
        parse_values(text)


def test_plans():
    plan = plan_sweep(PALACE, 2, ["saver:keep=0|4,burn_at=2..4,swap=0", "lowest"])
    assert plan.seat == 0 and plan.names == ("keep", "burn_at") and len(plan.settings) == 6
    assert [(s.values["keep"], s.values["burn_at"]) for s in plan.settings] == \
        [(0, 2), (0, 3), (0, 4), (4, 2), (4, 3), (4, 4)]
    assert all(s.values["swap"] == 0 for s in plan.settings)
    plan = plan_sweep(PALACE, 2, ["lowest", "pickup:max_pile=1..3"])       # one per seat: the marked seat
    assert plan.seat == 1 and [s.name for s in plan.seats] == ["lowest", "pickup"]
    plan = plan_sweep(PALACE, 4, ["pickup:max_pile=1..3,keep=2", "saver"])  # swept + one for the others
    assert plan.seat == 0 and [s.name for s in plan.seats] == ["pickup", "saver", "saver", "saver"]
    plan = plan_sweep(PALACE, 3, ["pickup:max_pile=1..3,keep=2"])           # alone: others at the defaults
    assert [s.label() for s in plan.seats] == ["pickup:keep=2,max_pile=1", "pickup:keep=2", "pickup:keep=2"]
    plan = plan_sweep(PALACE, 2, ["pickup", "saver"], values={"max_pile": range(3)})
    assert [s.values["max_pile"] for s in plan.settings] == [0, 1, 2]


@pytest.mark.parametrize("policies,message", [
    (["saver", "lowest"], "nothing to sweep"),
    (["saver:keep=0..2,burn_at=1..2,swap=0|1", "lowest"], "at most 2 parameters"),
    (["saver:keep=0..2", "pickup:max_pile=0..2"], "only one seat"),
    (["pickup:max_pile=-2..2", "saver"], "out of range"),
    (["saver:keep=0..2:0.5", "saver"], "whole number"),
    (["saver:color=0..2", "saver"], "unknown parameter 'color'"),
    (["chess:x=0..2", "saver"], "unknown policy 'chess'"),
    (["saver:keep=0..2", "saver", "saver"], "one policy per seat"),
])
def test_plan_errors(policies, message):
    with pytest.raises(UserError, match=message):
        plan_sweep(PALACE, 2, policies)


def test_best_is_the_argmax_first_among_equals():
    table = pd.DataFrame({"x": range(7), "win_rate": [0.1, 0.3, 0.2, 0.5, 0.5, np.nan, 0.4]})
    assert best_index(table) == 3
    with pytest.raises(UserError):
        best_index(pd.DataFrame({"x": [1], "win_rate": [np.nan]}))


# ---------------------------------------------------------------- a planted optimum on the real engine

@njit(POLICY_SIG, cache=True)
def planted_policy(table, seat, legal, params):
    """High card's best play is its highest card; this plays it with probability
    1 - |x - 4| / 4 (else its lowest), so its win share peaks at x = 4."""
    miss = abs(params[0] - 4.0)
    if below_nb(table["rng"][seat], 4) < miss:
        return extreme_nb(table, seat, legal, -1)
    return extreme_nb(table, seat, legal, 1)


PLANTED = PolicySpec("planted", planted_policy, "the test's planted optimum",
                     (ParamSpec("x", 0, "distance from 4 lowers the share", low=0, high=8, integer=True),))


def test_finds_a_planted_optimum():
    r = sweep("highcard", [PLANTED, "high"], values={"x": range(9)}, deals=3000, seed=5, threads=1)
    assert r.best["params"] == {"x": 4} and r.table["x"].iloc[best_index(r.table)] == 4
    w = r.table.set_index("x")["win_rate"]
    assert w[4] > w[3] > w[1] and w[4] > w[5] > w[7]


def test_common_deals_one_engine_and_recheck(monkeypatch):
    import analyser.core.runner as runner_module
    from analyser.api import simulate

    built = []

    class Counting(runner_module.ChunkRunner):
        def __init__(self, config):
            built.append(config)
            super().__init__(config)

    monkeypatch.setattr(runner_module, "ChunkRunner", Counting)
    r = sweep("palace", ["pickup:max_pile=1|3|5", "saver"], players=2, deals=400, seed=7, threads=2)
    assert len(built) == 1                              # one compiled engine for every setting and the re-check
    assert list(r.table["max_pile"]) == [1, 3, 5] and r.table["games"].sum() + r.table["aborted"].sum() == 1200
    k = best_index(r.table)
    assert r.best["row"] == k and r.table["best"].tolist() == [i == k for i in range(3)]
    assert r.best["win_rate"] == r.table["win_rate"].iloc[k]
    assert r.recheck["seed"] == 7 + 1_000_003 and r.recheck["deals"] == 400
    assert r.recheck["curse"] == pytest.approx(r.best["win_rate"] - r.recheck["win_rate"])
    assert r.recheck["curse_ci_low"] < r.recheck["curse"] < r.recheck["curse_ci_high"]
    # common deals: each setting is exactly what simulate plays with that policy and seed
    for row in r.table.itertuples():
        s = simulate("palace", players=2, policies=[f"pickup:max_pile={row.max_pile}", "saver"], deals=400,
                     seed=7, threads=2)
        assert s.summary["win_rate"].iloc[0] == pytest.approx(row.win_rate, abs=1e-12)
    best = r.best["params"]["max_pile"]
    again = simulate("palace", players=2, policies=[f"pickup:max_pile={best}", "saver"], deals=400,
                     seed=7 + 1_000_003, threads=2)
    assert again.summary["win_rate"].iloc[0] == pytest.approx(r.recheck["win_rate"], abs=1e-12)


def test_results_file_round_trip_and_plots(tmp_path):
    path = tmp_path / "s.parquet"
    r = sweep("palace", ["saver:keep=0|8,burn_at=3|5", "lowest"], players=2, deals=200, seed=1, threads=2,
              check_seed=99, out=path)
    back = load_sweep(path)
    assert back.to_dict() == r.to_dict() and back.meta["kind"] == "sweep" and r.recheck["seed"] == 99
    assert list(back.table.columns[:2]) == ["keep", "burn_at"] and len(back.table) == 4
    assert "SweepResult palace" in repr(back) and "<table" in back._repr_html_()
    assert r.plot() is not None
    one = sweep("palace", ["saver:keep=0..2", "lowest"], players=2, deals=100, threads=2)
    assert one.plot() is not None
    with pytest.raises(UserError, match="not a sweep|without analyser metadata|not a readable"):
        pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "x.parquet")
        load_sweep(tmp_path / "x.parquet")


# ---------------------------------------------------------------- the command

def test_cli_table_json_csv(tmp_path):
    base = ["sweep", "palace", "--policy", "pickup:max_pile=0..3", "--policy", "saver", "-p", "2", "-n", "200",
            "--no-progress", "--threads", "2"]
    r = cli.invoke(app, [*base, "--plot", str(tmp_path / "s.png")], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in r.stdout
    assert any(line.rstrip().endswith("* │") for line in lines) and "winner's curse" in r.stdout
    assert (tmp_path / "s.png").stat().st_size > 0
    r = cli.invoke(app, [*base, "-f", "csv"])
    assert r.stdout.splitlines()[0].startswith("max_pile,games,aborted,win_rate") and len(r.stdout.splitlines()) == 5
    r = cli.invoke(app, [*base, "-f", "json"])
    import json

    data = json.loads(r.stdout)
    assert data["kind"] == "sweep" and len(data["table"]) == 4 and data["recheck"]["deals"] == 200


@pytest.mark.parametrize("args,message", [
    (["--policy", "saver", "--policy", "lowest"], "nothing to sweep"),
    ([], "give the policy to sweep"),
    (["--policy", "saver:keep=0..2,burn_at=1..2,swap=0|1", "--policy", "lowest"], "at most 2 parameters"),
    (["--policy", "saver:keep=0..2", "--policy", "pickup:max_pile=1|2"], "only one seat"),
    (["--policy", "pickup:max_pile=-1..3", "--policy", "saver"], "out of range"),
    (["--policy", "pickup:max_pile=0..3:0", "--policy", "saver"], "step"),
    (["--policy", "pickup:max_pile=3..1", "--policy", "saver"], "ends below"),
    (["--policy", "pickup:depth=0..3", "--policy", "saver"], "unknown parameter 'depth'"),
    (["--policy", "pickup:max_pile=0..3", "--policy", "clever"], "unknown policy 'clever'"),
    (["--policy", "pickup:max_pile=0..3", "-n", "0"], "the number of games must be from 1"),
    (["--policy", "pickup:max_pile=0..3", "--players", "5"], "palace is for 2 to 4 players"),
    (["--policy", "pickup:max_pile=0..3", "--seed", "-1"], "seed must be from 0"),
    (["--policy", "pickup:max_pile=0..3", "--check-seed", "0"], "must differ"),
    (["--policy", "pickup:max_pile=0..3", "--threads", "0"], "threads must be"),
    (["--policy", "pickup:max_pile=0..3", "--rule", "short_game=maybe"], "on or off"),
    (["--policy", "pickup:max_pile=0..3", "--plot", "x.gif"], "gif"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    r = cli.invoke(app, ["sweep", "palace", *args, "--no-progress"])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
    assert message in r.stderr


def test_unknown_game():
    r = cli.invoke(app, ["sweep", "chess", "--policy", "a:b=0..2"])
    assert r.exit_code == 2 and "unknown game 'chess'" in r.stderr
