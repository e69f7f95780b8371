"""Every command on a game registered from outside the package: examples/highcard, which
tests/conftest.py registers through the public API as a user would. Each command either works
or says in one line which hook the game lacks (exit code 2), never a traceback or a KeyError:
a fifth game needs its own folder and one registration line, nothing elsewhere."""
import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from analyser import replay
from analyser.cli.main import app
from analyser.games.registry import get_game, register_game

runner = CliRunner()
GAME = "highcard"
SMALL = ["--rule", "hands=2", "--no-progress"]


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def ok(*args):
    r = run(*args)
    assert r.exit_code == 0 and "Traceback" not in r.output, (args, r.output, r.stderr)
    return r.stdout


def lacks(hook: str, *args):
    r = run(*args)
    assert r.exit_code == 2, (args, r.output)
    assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
    assert hook in r.stderr, r.stderr


def test_the_game_is_registered_from_outside_the_package():
    spec = get_game(GAME)
    assert spec.package is None and not spec.simulate.__qualname__.startswith("analyser.")
    assert GAME in ok("games") and "alternate" in ok("policies", GAME)


def test_simulate_show_and_merge(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    assert "hands won" in ok("simulate", GAME, "-n", 20, "--out", a, *SMALL)
    ok("simulate", GAME, "-n", 20, "--first-deal", 20, "--out", b, *SMALL)
    assert "hands won" in ok("show", a)
    merged = json.loads(ok("merge", a, b, "-f", "json"))
    whole = json.loads(ok("simulate", GAME, "-n", 40, "-f", "json", *SMALL))
    assert merged["seats"] == whole["seats"] and merged["deals"] == 40


def test_simulate_single_hands_and_trace():
    assert "20 hands" in ok("simulate", GAME, "-n", 20, "--unit", "hand", "--no-progress")
    text = ok("trace", GAME, "--seed", 3, "--rule", "hands=2")
    assert text.count("type=play") == 8 and "type=result" in text
    assert "type=deal hand=1" in ok("trace", GAME, "--seed", 3, "--rule", "hands=2", "--hand", 1)


def test_compare_tournament_sweep_and_vary():
    assert "high" in ok("compare", GAME, "--policy", "high", "--policy", "random", "-n", 20, *SMALL)
    table = ok("tournament", GAME, "--policy", "high", "--policy", "random", "--policy", "alternate", "-n", 8,
                "--bootstrap", 20, *SMALL)
    assert "alternate" in table
    assert "every" in ok("sweep", GAME, "--policy", "alternate:every=1|3", "--policy", "high", "-n", 20, *SMALL)
    assert "hands" in ok("vary", GAME, "--setting", "hands=1,3", "-n", 20, "--no-progress")


def test_report(tmp_path, monkeypatch):
    """The report's tournament bootstraps 20 replicates, not 200 (its equilibrium's intervals are not
    what this test checks, and 200 solves of it are most of the report's time)."""
    import analyser.analyses.tournament as tournament_module

    real = tournament_module.tournament
    monkeypatch.setattr(tournament_module, "tournament", lambda *a, **kw: real(*a, **{"bootstrap": 20, **kw}))
    out = tmp_path / "highcard.md"
    ok("report", GAME, "-n", 100, "--tournament-deals", 8, "--out", out, *SMALL)
    assert out.exists() and "High card" in out.read_text()


def test_replay_and_the_list_of_decisions(tmp_path):
    page = tmp_path / "highcard.html"
    assert "wrote" in ok("replay", GAME, "--seed", 2, "--out", page, "--rule", "hands=2")
    assert page.stat().st_size > 10_000
    data = replay(GAME, seed=2, rules={"hands": 2}).data        # each action's trace line is its play
    assert [data["log"][k].split()[0] for k in data["lines"][1:]] == ["type=play"] * 8
    assert data["cards"]["19"] == "AS" and "hands won 0-0" in data["steps"][0]["s"]["info"]
    listing = ok("rollout", GAME, "--seed", 2, "--list", "--rule", "hands=2")
    assert "play the card in slot" in listing


def test_rollout_and_review_name_the_hook_the_kit_lacks():
    lacks("no play_worlds hook", "rollout", GAME, "--step", 1, "--rule", "hands=2")
    lacks("no play_worlds hook", "review", GAME, "--seat", 0, "--rule", "hands=2")


@pytest.fixture
def without(request):
    """highcard re-registered without one hook for the test (``without`` names it), then restored."""
    spec = get_game(GAME)
    register_game(replace(spec, **{request.param: None}), replace=True)
    yield
    register_game(spec, replace=True)


@pytest.mark.parametrize("without", ["view"], indirect=True)
def test_replay_of_a_game_without_a_view_names_the_hook(without, tmp_path):
    lacks("no replay view: its GameSpec names no view", "replay", GAME, "--out", tmp_path / "h.html")
    assert not (tmp_path / "h.html").exists()


@pytest.mark.parametrize("without", ["kit"], indirect=True)
def test_rollouts_of_a_game_without_a_kit_name_the_hook(without, tmp_path):
    for args in (["rollout", GAME, "--step", 1], ["rollout", GAME, "--list"], ["review", GAME, "--seat", 0],
                 ["replay", GAME, "--out", tmp_path / "h.html"]):
        lacks("its kit (GameSpec.kit) is no analyser.games.kit.RolloutKit", *args)
