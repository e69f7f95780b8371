"""Parameter sweeps: values syntax, line-ups, a planted optimum, every value in every seat on common
deals, the paired difference from a baseline (exactly 0 for a value that plays as it), Holm's
family-wise control over seeds, the re-check on a fresh seed, results files, and one-line errors."""
from collections import Counter

import numpy as np
import pandas as pd
import pytest
import typer
from highcard.policies import extreme_nb
from highcard.rules import POLICY_SIG
from highcard.toys import SHIFTED
from numba import njit
from typer.testing import CliRunner

from analyser.analyses.sweep import sweep
from analyser.analyses.sweep_lineup import swept_lineup
from analyser.analyses.sweep_plays import best_index, sweep_arrangements
from analyser.analyses.sweep_result import load_sweep
from analyser.cli import sweep as sweep_cli
from analyser.cli.common import Command, Group
from analyser.errors import UserError
from analyser.games.policy_specs import ParamSpec, PolicySpec
from analyser.games.registry import get_game
from analyser.games.sweep_values import parse_values
from analyser.kernels.rng import below_nb

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
    lineup = swept_lineup(PALACE, 2, ["saver:keep=0|4,burn_at=2..4,swap=0", "lowest"])
    assert lineup.seat == 0 and lineup.names == ("keep", "burn_at") and len(lineup.policies) == 6
    assert [(s.values["keep"], s.values["burn_at"]) for s in lineup.policies] == \
        [(0, 2), (0, 3), (0, 4), (4, 2), (4, 3), (4, 4)]
    assert all(s.values["swap"] == 0 for s in lineup.policies)
    lineup = swept_lineup(PALACE, 2, ["lowest", "pickup:max_pile=1..3"])       # one per seat: the marked seat
    assert lineup.seat == 1 and [s.name for s in lineup.seats] == ["lowest", "pickup"]
    lineup = swept_lineup(PALACE, 4, ["pickup:max_pile=1..3,keep=2", "saver"])  # swept + one for the others
    assert lineup.seat == 0 and [s.name for s in lineup.seats] == ["pickup", "saver", "saver", "saver"]
    lineup = swept_lineup(PALACE, 3, ["pickup:max_pile=1..3,keep=2"])           # alone: others at the defaults
    assert [s.label() for s in lineup.seats] == ["pickup:keep=2,max_pile=1", "pickup:keep=2", "pickup:keep=2"]
    lineup = swept_lineup(PALACE, 2, ["pickup", "saver"], values={"max_pile": range(3)})
    assert [s.values["max_pile"] for s in lineup.policies] == [0, 1, 2]


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
        swept_lineup(PALACE, 2, policies)


def test_best_is_the_argmax_first_among_equals():
    table = pd.DataFrame({"x": range(7), "win_diff": [0.1, 0.3, 0.2, 0.5, 0.5, np.nan, 0.4]})
    assert best_index(table) == 3
    with pytest.raises(UserError):
        best_index(pd.DataFrame({"x": [1], "win_diff": [np.nan]}))


def test_arrangements_rotate_seats_and_keep_partners_together():
    assert sweep_arrangements((0, 1, 2)) == ([[0, 1, 2], [2, 0, 1], [1, 2, 0]], "rotations of the line-up")
    homes, name = sweep_arrangements((0, 1, 0, 1))
    assert homes == [[0, 1, 2, 3], [1, 0, 3, 2]] and "teams" in name


def test_arrangements_balance_neighbours_when_the_other_seats_differ():
    """[swept, saver, lowest, random]: who sits after whom matters in a shedding game, so every line-up seat
    sits in every seat and directly after every other line-up seat equally often."""
    homes, name = sweep_arrangements((0, 1, 2, 3), ["swept", "saver", "lowest", "random"])
    assert "neighbour-balanced" in name and len(homes) == 24
    seats = Counter((seat, home) for ids in homes for seat, home in enumerate(ids))
    after = Counter((ids[k], ids[(k + 1) % 4]) for ids in homes for k in range(4))
    assert set(seats.values()) == {6} and len(seats) == 16
    assert set(after.values()) == {8} and len(after) == 12
    assert sweep_arrangements((0, 1, 2, 3), ["swept", "saver", "saver", "saver"])[0] == \
        sweep_arrangements((0, 1, 2, 3))[0]                         # one other policy: rotations suffice


def test_baseline_plans():
    lineup = swept_lineup(PALACE, 2, ["pickup:max_pile=0..4", "saver"])
    assert lineup.baseline.values["max_pile"] == 3 and lineup.baseline_row == 3      # the defaults, among the values
    lineup = swept_lineup(PALACE, 2, ["pickup:max_pile=5|6", "saver"], baseline="max_pile=0")
    assert lineup.baseline.values["max_pile"] == 0 and lineup.baseline_row is None
    with pytest.raises(UserError, match="not swept"):
        swept_lineup(PALACE, 2, ["pickup:max_pile=5|6", "saver"], baseline={"keep": 1})
    with pytest.raises(UserError, match="out of range"):
        swept_lineup(PALACE, 2, ["pickup:max_pile=5|6", "saver"], baseline={"max_pile": -1})


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


@njit(POLICY_SIG, cache=True)
def ignores_policy(table, seat, legal, params):
    """Plays high card's ``high`` whatever its parameter: every value plays as the baseline."""
    return extreme_nb(table, seat, legal, 1)


IGNORES = PolicySpec("ignores", ignores_policy, "high, whatever x",
                     (ParamSpec("x", 0, "changes nothing", low=0, high=8, integer=True),))


def test_seat_advantage_is_not_a_strategy():
    """max_pile=0 plays as saver: at 2 players seat 0 wins 50.9%, but in both seats its share is the fair
    50% exactly (deterministic policies: each deal is won once in each seat), and its difference from a
    saver-equivalent baseline is an exact tie; the defaults (max_pile=3) are far worse."""
    r = sweep("palace", ["pickup:max_pile=0|3|6", "saver"], players=2, deals=300, seed=3,
              baseline={"max_pile": 0})
    row = r.table.set_index("max_pile").loc[0]
    assert row["win_rate"] == 0.5 and row["win_ci_low"] < 0.5 < row["win_ci_high"] and r.meta["fair_share"] == 0.5
    assert (row["win_diff"], row["win_diff_ci_low"], row["win_diff_ci_high"]) == (0, 0, 0) and row["baseline"]
    assert r.meta["baseline"]["row"] == 0 and r.meta["family"]["tests"] == 2
    assert r.table["significant"].tolist() == [False, True, True]
    extra = sweep("palace", ["pickup:max_pile=3|6", "saver"], players=2, deals=300, seed=3,
                  baseline="max_pile=0")                                 # the baseline is played besides
    assert extra.meta["baseline"]["row"] is None and extra.meta["baseline"]["win_rate"] == 0.5
    assert np.array_equal(extra.table["win_diff"], r.table["win_diff"].iloc[1:])
    assert "not among the values" in repr(extra)


def test_a_value_that_plays_as_the_baseline_differs_by_exactly_zero():
    """The policy ignores x: every value plays as the baseline. Only the baseline itself is the exact tie
    [0, 0]; the other values played identically on these deals and keep the interval of the deals not seen."""
    r = sweep("highcard", [IGNORES, "high"], values={"x": range(4)}, deals=200, seed=2, threads=1)
    base, other = r.table[r.table["baseline"]], r.table[~r.table["baseline"]]
    assert (r.table["win_diff"] == 0).all() and (base["win_diff_ci_high"] == 0).all() and len(base) == 1
    assert other["identical"].all() and (other["win_diff_ci_high"] > 0).all() and not base["identical"].any()
    assert (other["win_diff_ci_low"] == -other["win_diff_ci_high"]).all()
    assert (r.table["p_value"] == 1).all() and not r.table["significant"].any()
    assert r.meta["arrangements"]["count"] == 2 and r.meta["arrangements"]["teams"]


def test_values_that_change_nothing_flag_nothing_over_seeds():
    """A small null: four equally strong values over 20 seeds; Holm flags some value in at most 5% of
    runs (so 0-3 of 20 here), and each value's rotated share covers an average seat's about 95% of the time."""
    flagged, covered = 0, []
    for seed in range(20):
        r = sweep("highcard", [SHIFTED], values={"k": range(4)}, deals=150, seed=seed, threads=1)
        flagged += bool(r.table["significant"].any())
        fair = r.table["seat_share"]                 # high card has draws: an equal seat wins about 40%
        covered += ((r.table["win_ci_low"] <= fair) & (fair <= r.table["win_ci_high"])).tolist()
        assert not r.table["identical"].iloc[1:].any()      # not exact ties: each plays other cards
    assert flagged <= 3 and np.mean(covered) >= 0.85


def test_common_deals_rotations_and_recheck(monkeypatch):
    import analyser.engine.local as runner_module
    from analyser.analyses.simulate import simulate

    built = []

    class Counting(runner_module.ChunkRunner):
        def __init__(self, config):
            built.append(config)
            super().__init__(config)

    monkeypatch.setattr(runner_module, "ChunkRunner", Counting)
    r = sweep("palace", ["pickup:max_pile=1|3|5", "saver"], players=2, deals=400, seed=7)
    assert len(built) == 2                          # one compiled engine per arrangement for every setting
    assert [c.streams for c in built] == [(0, 1), (1, 0)]             # each instance keeps its stream id
    assert list(r.table["max_pile"]) == [1, 3, 5] and (r.table["games"] + r.table["aborted"] == 400).all()
    k = best_index(r.table)
    assert r.best["row"] == k and r.table["best"].tolist() == [i == k for i in range(3)]
    assert r.best["win_diff"] == r.table["win_diff"].iloc[k]
    assert r.recheck["seed"] == 7 + 1_000_003 and r.recheck["deals"] == 400
    assert r.recheck["curse"] == pytest.approx(r.best["win_diff"] - r.recheck["win_diff"])
    assert r.recheck["curse_ci_low"] < r.recheck["curse"] < r.recheck["curse_ci_high"]

    def rotated(pile, seed):       # the swept seat in seat 0 then seat 1, each instance on its own stream
        ab = simulate("palace", players=2, policies=[f"pickup:max_pile={pile}", "saver"], deals=400,
                      seed=seed).records
        ba = simulate("palace", players=2, policies=["saver", f"pickup:max_pile={pile}"], deals=400, seed=seed,
                      streams=[1, 0]).records
        keep = ~(ab["aborted"].astype(bool) | ba["aborted"].astype(bool))
        return ((ab["win"][:, 0] + ba["win"][:, 1]) / 2)[keep].mean()

    for row in r.table.itertuples():
        assert rotated(row.max_pile, 7) == pytest.approx(row.win_rate, abs=1e-12)
    assert rotated(r.best["params"]["max_pile"], 7 + 1_000_003) == pytest.approx(r.recheck["win_rate"], abs=1e-12)


def test_results_file_round_trip_and_plots(tmp_path):
    path = tmp_path / "s.parquet"
    r = sweep("palace", ["saver:keep=0|8,burn_at=3|5", "lowest"], players=2, deals=200, seed=1,
              check_seed=99, out=path)
    back = load_sweep(path)
    assert back.to_dict() == r.to_dict() and back.meta["kind"] == "sweep" and r.recheck["seed"] == 99
    assert list(back.table.columns[:2]) == ["keep", "burn_at"] and len(back.table) == 4
    assert "SweepResult palace" in repr(back) and "<table" in back._repr_html_()
    assert r.plot() is not None
    one = sweep("palace", ["saver:keep=0..2", "lowest"], players=2, deals=100)
    assert one.plot() is not None
    with pytest.raises(UserError, match="not a sweep|without analyser metadata|not a readable"):
        pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "x.parquet")
        load_sweep(tmp_path / "x.parquet")


# ---------------------------------------------------------------- the command

def test_cli_table_json_csv(tmp_path):
    base = ["sweep", "palace", "--policy", "pickup:max_pile=0..3", "--policy", "saver", "-p", "2", "-n", "200",
            "--no-progress"]
    r = cli.invoke(app, [*base, "--plot", str(tmp_path / "s.png")], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in r.stdout
    assert any("* │" in line or "*! │" in line for line in lines) and "winner's curse" in r.stdout
    assert "differ from the baseline (Holm" in r.stdout and "baseline max_pile=3 (the defaults" in r.stdout
    assert (tmp_path / "s.png").stat().st_size > 0
    r = cli.invoke(app, [*base, "-f", "csv"])
    assert r.stdout.splitlines()[0].startswith("max_pile,games,aborted,win_rate") and len(r.stdout.splitlines()) == 5
    r = cli.invoke(app, [*base, "-f", "json"])
    import json

    data = json.loads(r.stdout)
    assert data["kind"] == "sweep" and len(data["table"]) == 4 and data["recheck"]["deals"] == 200
    assert data["arrangements"]["count"] == 2 and data["family"]["method"] == "Holm"
    assert {"win_diff", "p_holm", "significant"} <= set(data["table"][0]) and "Holm" in data["method"]


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
    (["--policy", "pickup:max_pile=0..3", "--baseline", "keep=1"], "not swept"),
    (["--policy", "pickup:max_pile=0..3", "--baseline", "max_pile=x"], "must be a number"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    r = cli.invoke(app, ["sweep", "palace", *args, "--no-progress"])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
    assert message in r.stderr


def test_unknown_game():
    r = cli.invoke(app, ["sweep", "chess", "--policy", "a:b=0..2"])
    assert r.exit_code == 2 and "unknown game 'chess'" in r.stderr
