"""The game checks of analyser.testing over every registered game, one test per check and case.

A game gets all of this by registering a GameSpec with a ``kit`` (see
analyser.games.kit); tests/conftest.py registers the example game
(examples/highcard), so the kit always runs over games unlike each other.
"""
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import analyser.testing
from analyser.games.registry import game_names, get_game
from analyser.testing import SkipCheck, check_game, checks

GAMES = game_names()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def every_case():
    for name in GAMES:
        for check in checks.checks_of(get_game(name)):
            for case in check.cases:
                yield pytest.param(case, id=f"{name}-{check.name}" + (f"-{case.label}" if case.label else ""))


@pytest.mark.parametrize("case", list(every_case()))
def test_check(case, tmp_path):
    try:
        case.run(tmp_path)
    except SkipCheck as skip:
        pytest.skip(str(skip))


def test_the_registry_holds_palace_and_the_example_game():
    assert {"palace", "highcard"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_offers_a_kit(name):
    assert get_game(name).kit is not None, f"{name} has no test kit hooks (GameSpec.kit)"
    assert [c.name for c in checks.checks_of(get_game(name))][0] == "playouts"


def test_the_default_rules_are_random_played_for_every_game():
    for name in GAMES:
        playouts = checks.checks_of(get_game(name))[0]
        assert any(case.label.endswith("-default") for case in playouts.cases), name


def test_a_game_without_a_kit_fails_the_kit_check():
    report = check_game(replace(get_game("highcard"), name="no_kit", kit=None), raise_on_failure=False)
    assert report.failed == ["kit"] and "no test kit hooks" in report.results[0].detail
    with pytest.raises(AssertionError, match="kit: no_kit has no test kit hooks"):
        check_game(replace(get_game("highcard"), name="no_kit", kit=None))


def test_a_peeking_policy_fails_the_hidden_information_check():
    from highcard.policies import peek_policy

    game = get_game("highcard")
    with pytest.raises(AssertionError, match="hidden_information: 4p-default: peek_policy chose"):
        check_game(game, only=["hidden_information"], policies=[peek_policy, *game.policies])
    # the honest policies of the same game pass the same check
    assert check_game(game, only=["hidden_information"]).ok


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_its_cap_and_score_bounds(name):
    game = get_game(name)
    settings = game.default_settings()
    low, high = game.score_bounds(game.default_players, settings)
    assert low < high and game.cap(game.default_players, settings) > 0


def test_scores_outside_the_declared_bounds_and_a_spec_without_them_fail_the_checks():
    narrow = replace(get_game("highcard"), name="highcard_narrow", score_bounds=lambda players, settings: (0.0, 0.5))
    with pytest.raises(AssertionError, match=r"outside the declared 0.0..0.5"):
        checks.check_outcomes(narrow, 4, {}, 40)
    no_cap = replace(get_game("highcard"), name="highcard_no_cap", cap=None)
    with pytest.raises(AssertionError, match=r"declares no cap \(GameSpec.cap\)"):
        checks.check_playouts(no_cap, no_cap.kit(), 4, {}, units=1)


def test_a_playout_that_goes_on_without_a_legal_action_fails_the_playouts_check():
    kit = get_game("highcard").kit()

    class Stuck(type(kit)):
        def play(self, *args):
            for pos in kit.play(*args):
                pos.decision = lambda forced=False: None      # every position says no seat may act
                yield pos

    with pytest.raises(AssertionError, match="went on from a position with no legal action"):
        checks.check_playouts(get_game("highcard"), Stuck(), 4, {}, units=1)


def test_an_unregistered_game_is_checked_and_a_spec_no_module_holds_skips_the_uncompiled_run(tmp_path):
    game = replace(get_game("highcard"), name="highcard_unregistered")
    assert game.name not in game_names()
    report = check_game(game, only=["trace_is_record", "compiled_equals_uncompiled"], tmp=tmp_path)
    assert [r.status for r in report.results] == ["passed", "skipped"]
    assert "give source='module:attribute'" in report.results[1].detail
    assert game.name not in game_names()


def test_one_against_two_threads_is_skipped_on_a_one_thread_machine(monkeypatch):
    monkeypatch.setattr(checks, "available_threads", lambda: 1)
    report = check_game(get_game("highcard"), only=["threads", "chunks"])
    threads, chunks = report.results
    assert threads.status == "skipped" and "one thread" in threads.detail
    assert chunks.status == "passed" and report.ok
    with pytest.raises(SkipCheck, match="one thread"):
        checks.check_threads(get_game("highcard"), 4, {}, 20)


def test_an_unknown_check_name_is_an_error():
    with pytest.raises(ValueError, match="no check named"):
        check_game(get_game("highcard"), only=["conservation"])


def test_the_package_names_its_api():
    assert {"check_game", "CheckReport", "GameKit", "Position", "SkipCheck"} <= set(analyser.testing.__all__)


def test_the_example_script_checks_the_example_game(tmp_path):
    """examples/check_highcard.py from another folder, as a user runs it: one line per check, exit 0."""
    done = subprocess.run([sys.executable, str(EXAMPLES / "check_highcard.py")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    names = [c.name for c in checks.checks_of(get_game("highcard"))]
    for name in names:
        assert sum(line.split()[1:2] == [name] for line in lines) == 1, f"no one line for {name}:\n{done.stdout}"
    assert not any(line.startswith("failed") for line in lines)
    assert lines[-1].startswith("highcard: ") and " 0 failed" in lines[-1]
