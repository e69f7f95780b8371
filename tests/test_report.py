"""Balance reports (``analyser report`` / ``analyser.report``): verdicts, metadata, the written files."""
import json
import math

import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from analyser.core.errors import Interrupted
from analyser.reports import builder

SMALL = {"deals": 600, "tournament_deals": 60, "seed": 1}


@pytest.fixture(scope="module")
def palace(tmp_path_factory):
    """A whole Palace report at 3 players, written to a file."""
    path = tmp_path_factory.mktemp("report") / "palace.md"
    return analyser.report("palace", players=3, out=path, **SMALL), path


def test_planted_unfairness_is_found():
    """random in seat 0 against saver: seat 0 is below fair, its interval excludes fair, the test says unfair."""
    r = analyser.report("palace", policies=["random", "saver", "saver", "saver"], deals=1500, seed=2,
                        sections="seats")
    seat0 = r.seats.iloc[0]
    assert seat0["finding"] == "below fair" and seat0["ci_high"] < seat0["fair_share"] == 0.75
    assert seat0["excess_ci_high"] < 0
    assert r.seat_test["p_value"] < 1e-6 and r.seat_test["df"] == 3
    assert r.verdicts["seats"].startswith("Unfair") and "seat 0 (random)" in r.verdicts["seats"]
    assert list(r.verdicts) == ["seats"] and r.player_counts is None


def test_a_fair_line_up_covers_the_fair_share(palace):
    r, _ = palace
    seats = r.seats
    assert (seats["ci_low"] <= seats["fair_share"]).all() and (seats["fair_share"] <= seats["ci_high"]).all()
    assert seats["fair_share"].iloc[0] == pytest.approx(2 / 3)
    assert r.seat_test["p_value"] > 0.05 and r.verdicts["seats"].startswith("No seat is shown to be unfair")
    fm = r.first_mover
    assert fm["advantage_ci_low"] <= 0 <= fm["advantage_ci_high"]


def test_every_section_has_a_verdict_and_its_tables(palace):
    r, _ = palace
    assert list(r.verdicts) == ["seats", "players", "rules", "policies"]
    assert list(r.player_counts["players"]) == [2, 3, 4]
    assert set(r.player_seats["players"]) == {2, 3, 4} and len(r.player_seats) == 9
    rules = r.rules
    assert set(rules["setting"]) == {"short_game", "ten_on_anything"}          # max_actions is a cap: skipped
    assert "max_actions" in r.parts["rules"]["skipped"]
    changed = rules[~rules["baseline"]]
    assert (changed["length_change_ci_low"] <= changed["length_change"]).all()
    assert list(r.ratings["policy"].sort_values()) == ["lowest", "pickup", "random", "saver"]
    assert r.ratings.iloc[-1]["policy"] == "random"
    assert r.head_to_head.shape == (4, 4)


def test_rule_changes_are_vary_s_on_the_same_deals():
    """The per-seat change of a rule value is exactly what ``vary`` reports for it."""
    r = analyser.report("palace", players=2, deals=400, seed=3, sections="rules")
    v = analyser.vary("palace", "ten_on_anything", players=2, n=400, seed=3)
    mine = r.rule_groups[r.rule_groups["setting"] == "ten_on_anything"].reset_index(drop=True)
    theirs = v.table.reset_index(drop=True)
    for col in ("win_mean", "win_diff", "win_diff_ci_low", "win_diff_ci_high"):
        assert mine[col].to_numpy() == pytest.approx(theirs[col].to_numpy(), nan_ok=True)
    # at 2 players short_game deals fewer cards: not the same games
    short = r.rules[(r.rules["setting"] == "short_game") & ~r.rules["baseline"]].iloc[0]
    assert not short["identical"]


def test_metadata_in_the_report_and_its_json(palace):
    r, path = palace
    m = r.meta
    assert m["seed"] == 1 and m["deals"] == 600 and m["tournament_deals"] == 60 and m["players"] == 3
    assert m["settings"] == {"short_game": False, "ten_on_anything": False, "max_actions": 5000}
    assert m["policies"] == ["saver"] * 3 and m["params"][0] == {"swap": 1.0, "keep": 8.0, "burn_at": 5.0}
    assert {"analyser", "numba", "numpy", "python"} <= set(m["versions"])
    assert set(m["ran"]) == {"seats", "players", "rules", "policies"}
    data = json.loads(path.with_suffix(".json").read_text())
    assert data["meta"]["seed"] == 1 and data["meta"]["versions"] == m["versions"]
    assert data["verdicts"] == r.verdicts
    assert data["seats"]["table"][0]["group"] == "seat 0"
    assert not any(isinstance(x, float) and math.isnan(x) for x in _leaves(data))
    text = path.read_text()
    for needle in ("seed:** 1", f"numba {m['versions']['numba']}", "## 4. Policies", "(palace/seats.png)"):
        assert needle in text
    assert sorted(p.name for p in path.with_suffix("").iterdir()) == [
        "head_to_head.png", "players.png", "policies.png", "rules.png", "seats.png"]
    assert r._repr_markdown_().startswith("# Balance report: Palace")
    assert "<li><b>Seats:</b>" in r._repr_html_() and "BalanceReport palace" in repr(r)


def _leaves(x):
    if isinstance(x, dict):
        for v in x.values():
            yield from _leaves(v)
    elif isinstance(x, list):
        for v in x:
            yield from _leaves(v)
    else:
        yield x


def _snapshot(path):
    folder = path.with_suffix("")
    files = [path, path.with_suffix(".json")] + sorted(folder.iterdir())
    return {str(f): f.read_bytes() for f in files}


def test_an_interrupted_report_leaves_the_old_one_untouched(tmp_path, monkeypatch):
    path = tmp_path / "palace.md"
    analyser.report("palace", players=2, deals=200, seed=4, sections=["seats", "rules"], out=path)
    before = _snapshot(path)

    def interrupt(report, ctx):
        raise KeyboardInterrupt

    monkeypatch.setitem(builder.BUILDERS, "rules", interrupt)         # Ctrl-C in the middle of a section
    with pytest.raises(Interrupted, match=r"interrupted in the rule settings section; .*palace.md was left as it"):
        analyser.report("palace", players=2, deals=300, seed=5, sections=["seats", "rules"], out=path)
    assert _snapshot(path) == before
    monkeypatch.undo()

    import analyser.reports.template as template

    def broken(report):
        raise KeyboardInterrupt

    monkeypatch.setattr(template, "report_dict", broken)              # Ctrl-C while the files are written
    with pytest.raises(Interrupted, match="interrupted in the writing of the report"):
        analyser.report("palace", players=2, deals=300, seed=5, sections="seats", out=path)
    assert _snapshot(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["palace", "palace.json", "palace.md"]   # no partial


def test_no_file_until_the_report_is_done(tmp_path, monkeypatch):
    path = tmp_path / "new.md"

    def interrupt(report, ctx):
        raise KeyboardInterrupt

    monkeypatch.setitem(builder.BUILDERS, "seats", interrupt)
    with pytest.raises(Interrupted, match="no report was written"):
        analyser.report("palace", deals=100, sections="seats", out=path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "message"), [
    (["nosuchgame"], "unknown game 'nosuchgame'; valid: palace, enemy_anemone, olenon"),
    (["palace", "--policy", "clever"], "unknown policy 'clever'; valid: random, lowest, saver, pickup"),
    (["palace", "--players", "9"], "palace is for 2 to 4 players, not 9; valid: 2, 3, 4"),
    (["palace", "--rule", "bogus=1"], "unknown rule 'bogus' for palace; valid: short_game, ten_on_anything"),
    (["palace", "-n", "0"], "the number of deals must be from 1"),
    (["palace", "-n", "-5"], "the number of deals must be from 1"),
    (["palace", "--tournament-deals", "0"], "deals per pair must be from 1"),
    (["palace", "--section", "bogus"], "unknown report section bogus; valid: seats, players, rules, policies"),
    (["palace", "--out", "x.txt"], "name a .md file"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    result = CliRunner().invoke(app, ["report", *args, "--no-progress"] + ([] if "--out" in args else
                                                                         ["--out", str(tmp_path / "r.md")]))
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err, err
    assert message in err, err
    assert not list(tmp_path.iterdir())


def test_the_command_writes_the_report_and_prints_the_verdicts(tmp_path):
    out = tmp_path / "sub" / "p.md"
    result = CliRunner().invoke(app, ["report", "palace", "-p", "2", "-n", "300", "--tournament-deals", "40",
                                      "--section", "seats", "--section", "policies", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Seats:" in result.stdout and "Policies:" in result.stdout and "Rule settings:" not in result.stdout
    assert f"wrote {out}" in result.stderr
    text = out.read_text()
    assert f"analyser report palace --players 2 --deals 300 --tournament-deals 40 --seed 0 --section seats " \
           f"--section policies --out {out}" in text
    assert (tmp_path / "sub" / "p" / "seats.png").is_file() and not (tmp_path / "sub" / "p" / "rules.png").exists()


def test_the_toy_team_game(tmp_path):
    """High card (tests/toygame): one player count, teams, a whole-number setting, no first mover recorded."""
    r = analyser.report("highcard", deals=300, tournament_deals=40, seed=1, out=tmp_path / "hc.md")
    draws = r.parts["seats"]["draw_rate"]
    assert list(r.seats["group"]) == ["team 0", "team 1"] and 0 < draws < 0.5
    assert r.seats["fair_share"].iloc[0] == pytest.approx(0.5 * (1 - draws))     # a drawn match: no team wins
    assert r.seat_test["df"] == 1
    assert r.verdicts["players"].startswith("not applicable") and r.player_counts is None
    assert list(r.rules["value"]) == ["3", "2", "4"] and "max_actions" in r.parts["rules"]["skipped"]
    assert math.isnan(r.first_mover["first_mover_win_rate"])
    assert set(r.ratings["policy"]) == {"high", "random", "alternate"}
    assert "does not say who moved first" in (tmp_path / "hc.md").read_text()
    assert sorted(p.name for p in (tmp_path / "hc").iterdir()) == [
        "head_to_head.png", "policies.png", "rules.png", "seats.png"]
