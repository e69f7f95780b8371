"""`simulate --unit hand`: single hands from fresh deals, said as hands everywhere; and choice settings listed."""
import json
from dataclasses import replace
from types import SimpleNamespace

from typer.testing import CliRunner

from analyser.cli.common import complete_unit
from analyser.cli.main import app
from analyser.games import registry
from analyser.games.registry import SettingSpec, get_game

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args), env={"COLUMNS": "120"})


def test_simulate_single_hands_says_hands_in_json_table_and_file(tmp_path):
    path = tmp_path / "hands.parquet"
    r = run("simulate", "highcard", "--unit", "hand", "-n", "30", "--out", str(path), "-f", "json", "--no-progress")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert (data["unit"], data["units"], data["settings"]["hands"]) == ("hand", 30, 1)
    assert "hands_won_per_hand" in data["seats"][0]
    shown = run("show", str(path))
    assert shown.exit_code == 0, shown.output
    flat = " ".join(shown.stdout.split())
    assert "30 hands" in flat and "hands completed / aborted" in flat and "match" not in flat.replace(
        "team won the match", "")
    plain = run("simulate", "highcard", "-n", "30", "-f", "json", "--no-progress")
    assert json.loads(plain.stdout)["unit"] == "match"


def test_simulate_help_names_the_unit_option():
    r = run("simulate", "--help")
    flat = " ".join(r.stdout.replace("│", " ").split())
    assert "--unit" in flat and "-u" in flat and "a single hand or round from a fresh deal" in flat


def test_unit_completion_offers_the_games_unit_and_sub_unit():
    def ctx(game):
        return SimpleNamespace(params={"game": game}, args=[])

    assert complete_unit(ctx("highcard"), "") == ["match", "hand"]
    assert complete_unit(ctx("highcard"), "h") == ["hand"]
    assert complete_unit(ctx("palace"), "") == ["game"]


def test_games_lists_a_choice_settings_options_and_single_hands(monkeypatch):
    game = get_game("highcard")
    leader = SettingSpec("next_leader", 0, "who leads the next trick", kind="choice", options=("winner", "lowest"))
    monkeypatch.setitem(registry._REGISTERED, "highcard", replace(game, settings=game.settings + (leader,)))
    flat = " ".join(run("games").stdout.replace("│", " ").split())
    assert "next_leader winner (winner/lowest)" in flat
    assert "unit match of hands (-n counts matches; --unit hand: single hands)" in flat


def test_single_spite_and_malice_rounds_say_a_rounds_win_and_no_match_columns():
    r = run("simulate", "spite_and_malice", "--unit", "round", "-n", "200", "--no-progress")
    assert r.exit_code == 0, r.output
    flat = " ".join(r.stdout.replace("│", " ").split())
    assert "Win = the first player to play out their payoff pile" in flat
    assert "target points" not in flat and "rounds per round" not in flat and "drawn rounds" not in flat
    assert flat.count("turns per round") == 1
    whole = run("simulate", "spite_and_malice", "-n", "20", "--no-progress")
    assert "target points" in " ".join(whole.stdout.split()) and "rounds per match" in whole.stdout


def test_games_prints_one_player_count_alone():
    flat = " ".join(run("games").stdout.replace("│", " ").split())
    assert "players 2 unit match of rounds" in flat and "2-2" not in flat and "players 2-4 (default 4)" in flat


def test_trace_unit_is_simulates_unit_and_deal_its_index():
    r = run("trace", "enemy_anemone", "--unit", "hand", "--deal", "3")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Enemy Anemone, 4 players, seed 0, hand 3") and "hands=1" in r.stdout
    help_flat = " ".join(run("simulate", "--help").stdout.replace("│", " ").split())
    assert "hands or rounds with --unit" in help_flat
