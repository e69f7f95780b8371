"""``vary``: one line-up on the same deals under each value of one rule setting."""
import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app


@pytest.fixture(scope="module")
def talk():
    return analyser.vary("olenon", "talk", policies=["partner", "shed"], n=1500, seed=3)


def test_teams_and_values_with_paired_differences(talk):
    t = talk.table
    assert list(t["group"]) == ["team 0", "team 1"] * 2 and list(t["value"]) == ["none"] * 2 + ["open"] * 2
    assert list(t["policies"][:2]) == ["partner + partner", "shed + shed"]
    first, second = t[t["value"] == "none"], t[t["value"] == "open"]
    assert first["win_diff"].isna().all()
    # one team's gain is the other's loss, deal by deal
    assert second["win_diff"].sum() == pytest.approx(0, abs=1e-12)
    assert second["win_mean"].sum() == pytest.approx(1)
    before = first.set_index("group")["win_mean"]
    for _, row in second.iterrows():
        assert row["win_diff_ci_low"] < row["win_diff"] < row["win_diff_ci_high"]
        assert row["win_diff"] == pytest.approx(row["win_mean"] - before[row["group"]])
    assert talk.meta["setting"] == "talk" and talk.meta["values"] == ["none", "open"]
    assert talk.meta["settings"]["talk"] == "varied" and talk.meta["deals"] == 1500


def test_the_differences_are_the_simulate_runs_paired():
    """Each value's shares are exactly what simulate reports for that setting on the same seed."""
    result = analyser.vary("olenon", "talk", policies=["partner", "shed"], n=400, seed=5)
    for value in ("none", "open"):
        run = analyser.simulate("olenon", policies=["partner", "shed"], n=400, seed=5, rules={"talk": value})
        win = run.records["win"][~run.records["aborted"]]
        row = result.table[(result.table["value"] == value) & (result.table["group"] == "team 0")].iloc[0]
        assert row["win_mean"] == pytest.approx(win[:, 0].mean())


def test_a_setting_no_policy_reads_changes_nothing():
    """shed never reads pub["open"]: talk=open plays every deal the same, difference exactly 0. Nothing in the
    code proves the value inert, so it is "played identically" with an interval for the deals not seen
    (z^2 / (n + z^2) of the range), never the exact tie [0, 0] it was printed as."""
    result = analyser.vary("olenon", "talk", policies=["shed"], n=300, seed=1)
    second = result.differences()
    bound = 1.959963984540054 ** 2 / (300 + 1.959963984540054 ** 2)
    assert (second["win_diff"] == 0).all() and second["win_diff_identical"].all()
    assert second["win_diff_ci_high"].to_numpy() == pytest.approx(bound)
    assert second["win_diff_ci_low"].to_numpy() == pytest.approx(-bound)
    assert second["win_variance_reduction"].isna().all() and (second["win_diff_p"] == 1).all()
    table = CliRunner().invoke(app, ["vary", "olenon", "--setting", "talk", "--policy", "shed", "-n", "300",
                                     "--seed", "1", "--no-progress"], env={"COLUMNS": "100"})
    assert table.exit_code == 0 and table.output.count("identical on all 300") == 2, table.output
    assert "exact tie" not in table.output.replace("never an exact tie", "")


def test_a_seat_game_and_reversed_values():
    a = analyser.vary("palace", "ten_on_anything", ["off", "on"], policies=["saver"], players=3, n=300, seed=2)
    b = analyser.vary("palace", "ten_on_anything", ["on", "off"], policies=["saver"], players=3, n=300, seed=2)
    assert list(a.table["group"][:3]) == ["seat 0", "seat 1", "seat 2"]
    np.testing.assert_allclose(a.differences()["win_diff"].to_numpy(), -b.differences()["win_diff"].to_numpy())


@pytest.mark.parametrize("args,message", [
    (dict(setting="chat"), "unknown rule 'chat' for olenon; valid: round_starter, talk, rounds, max_actions"),
    (dict(setting=None), "name the setting to vary"),
    (dict(setting="rounds"), "give two or more values, e.g. rounds=2,3"),
    (dict(setting="rounds", values="2"), "give two or more different values of rounds"),
    (dict(setting="rounds", values="2,2"), "give two or more different values of rounds"),
    (dict(setting="talk", values="none,loud"), "rule talk is one of none, open, not 'loud'"),
    (dict(setting="talk", rules={"talk": "open"}), "rule talk is the one varied"),
    (dict(setting="max_actions", values="1,2000"),
     "all 10 matches aborted at the action cap; at least two completed are needed for comparing the values of "
     "max_actions"),
])
def test_bad_input(args, message):
    with pytest.raises(analyser.UserError, match=message.replace("(", r"\(").replace(")", r"\)")):
        analyser.vary("olenon", n=10, **args)


def test_cli_table_file_show_plot_and_json(tmp_path):
    runner = CliRunner()
    out, png = tmp_path / "v.parquet", tmp_path / "v.png"
    res = runner.invoke(app, ["vary", "olenon", "--setting", "talk=none,open", "--policy", "partner", "--policy",
                              "shed", "-n", "300", "--out", str(out), "--plot", str(png), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "Win share under each value" in res.output and out.is_file() and png.stat().st_size > 10_000
    shown = runner.invoke(app, ["show", str(out), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.output)
    assert data["kind"] == "vary" and len(data["table"]) == 4
    assert math.isclose(sum(r["win_diff"] for r in data["table"][2:]), 0, abs_tol=1e-12)
    drawn = runner.invoke(app, ["plot", str(out), "--out", str(tmp_path / "again.svg")])
    assert drawn.exit_code == 0, drawn.output
    bad = runner.invoke(app, ["vary", "olenon", "--setting", "talk=none", "-n", "10"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "two or more different values" in bad.output


def test_differences_leave_out_the_first_value_of_on_off_and_number_settings():
    """The table's value column is text; the first value in meta is a bool or an int."""
    onoff = analyser.vary("palace", "ten_on_anything", ["off", "on"], policies=["saver"], players=2, n=50, seed=1)
    assert list(onoff.differences()["value"]) == ["True", "True"] and onoff.differences()["win_diff"].notna().all()
    number = analyser.vary("olenon", "rounds", "2,3", policies=["shed"], n=50, seed=1)
    assert list(number.differences()["value"]) == ["3", "3"] and number.differences()["win_diff"].notna().all()
    assert "nan" not in repr(number)


def test_a_constant_run_gets_an_honest_interval():
    """saver wins all 30 games against random: Wilson's interval, not [100%, 100%]; the setting changes no
    deal, so the change is 0 with p = 1 and the interval of the deals not seen (no zero width)."""
    v = analyser.vary("palace", "ten_on_anything", policies=["saver", "random"], players=2, n=30, seed=0)
    seat0 = v.table[v.table["group"] == "seat 0"]
    assert (seat0["win_mean"] == 1).all()
    assert seat0["win_ci_low"].max() == pytest.approx(0.8865, abs=1e-4)
    assert seat0["win_ci_high"].to_numpy() == pytest.approx(1)
    change = v.differences().iloc[0]
    assert change["win_diff_identical"] and change["win_diff_p"] == 1
    assert change["win_diff_ci_low"] == -change["win_diff_ci_high"] < 0


def test_changes_have_p_values_that_agree_with_their_intervals(talk):
    for _, row in talk.differences().iterrows():
        assert 0 <= row["win_diff_p"] <= 1
        assert (row["win_diff_p"] < 0.05) == (row["win_diff_ci_low"] > 0 or row["win_diff_ci_high"] < 0)
