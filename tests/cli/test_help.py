"""Help, --version, shell completion and the listings: readable, and quick (no numba)."""
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from analyser.cli.main import app

runner = CliRunner()
COMMANDS = ["simulate", "show", "trace", "games", "policies"]


def cli(*args, env=None):
    """The real entry point (analyser.cli.main:main) in a fresh interpreter."""
    return subprocess.run([sys.executable, "-m", "analyser.cli.main", *args], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "100", **(env or {})}, timeout=120)


def help_text(*command):
    r = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_help_shows_no_python_types(command):
    text = help_text(*command)
    for noise in ("<list[str]>", "<int>", "<bool>", "<str>", "<path>", "INTEGER", "TEXT", "PATH"):
        assert noise not in text, (command, noise)


def test_simulate_help_names_the_metavars_and_every_default():
    text = help_text("simulate")
    for metavar in ("SPEC", "NAME:PARAM=VALUE,...", "MODULE:FUNCTION", "NAME=VALUE", " N ", "FILE", "GAME"):
        assert metavar in text
    flat = _flat(text)
    assert "--count" in flat and "-n" in flat and "--deals" in flat and "games (Palace) or matches" in flat
    assert "Default: the game's default policy (palace: saver" in flat   # other registered games follow
    for default in ("Default: 10,000;", "Default: 0.", "Default: all cores.", "Default: table.",
                    "usual count (palace: 4", "Default: no file."):
        assert default in flat, default


def test_trace_help_names_deal_and_hand():
    flat = _flat(help_text("trace"))
    assert "--deal" in flat and "-d" in flat and "--hand" in flat and "(palace: saver" in flat
    assert "Which unit of the run to play (its index: a game, a match, or with --unit a hand or round)" in flat
    # the games played in hands or rounds, from the registry (the example game among them)
    assert "hand or round K of the match (hand: enemy_anemone, highcard; round: olenon, spite_and_malice)" in flat
    assert "single hand or round from a fresh deal (hand: enemy_anemone, highcard; round:" in flat   # --unit
    assert "How to print the moves: text or jsonl" in flat and "gives each decision's step K" in flat


def test_format_choices_are_written_one_way():
    for command in ("simulate", "show", "compare", "tournament", "sweep", "tune", "vary", "merge"):
        flat = _flat(help_text(command))
        assert "<table|json|csv>" in flat and ": table, json or csv" in flat and "Default: table." in flat, command


def test_plot_help_names_every_kind_of_results_file():
    flat = _flat(help_text("plot"))
    assert "simulate, compare, tournament, sweep, tune, vary, rollout or review" in flat


def _flat(text: str) -> str:
    """The help text with rich's box and line breaks taken out, words joined by single spaces."""
    return " ".join(text.replace("│", " ").split())


def test_version():
    from importlib.metadata import version

    r = cli("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"analyser {version('analyser')}"


def test_completion_is_offered_and_works_through_the_entry_point():
    assert "--install-completion" in help_text() and "--show-completion" in help_text()
    # without shell detection the option takes the shell's name
    r = cli("--show-completion", "bash", env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert r.returncode == 0 and "_ANALYSER_COMPLETE" in r.stdout
    games = cli(env={"_ANALYSER_COMPLETE": "complete_bash", "COMP_WORDS": "analyser simulate pa", "COMP_CWORD": "2"})
    assert games.returncode == 0 and games.stdout.split() == ["palace"]
    policy = cli(env={"_ANALYSER_COMPLETE": "complete_bash", "COMP_WORDS": "analyser simulate palace --policy sa",
                      "COMP_CWORD": "4"})
    assert policy.stdout.split() == ["saver"]


NO_NUMBA = """
import sys
from analyser.cli.main import main
for args in {cases!r}:
    try:
        main(args)
    except SystemExit as exit:
        code = exit.code
    loaded = sorted(m for m in sys.modules if m == "numba" or m.startswith("numba."))
    print("after", repr((args, code, loaded[:2])), file=sys.stderr)
"""
LISTINGS = [["games"], ["policies", "palace"], ["--help"], ["simulate", "--help"], ["--version"]]


def test_listing_and_help_do_not_load_numba():
    """One fresh interpreter runs each in turn: numba is still not loaded after each one."""
    r = subprocess.run([sys.executable, "-c", NO_NUMBA.format(cases=LISTINGS)], capture_output=True, text=True,
                       timeout=120)
    after = [eval(line.removeprefix("after ")) for line in r.stderr.splitlines() if line.startswith("after ")]
    assert [args for args, _, _ in after] == LISTINGS, r.stderr
    for args, code, numba_modules in after:
        assert code == 0, (args, r.stderr)
        assert numba_modules == [], f"`analyser {' '.join(args)}` imported numba"


def test_games_lists_unit_outcome_players_and_settings():
    r = runner.invoke(app, ["games"], env={"COLUMNS": "120"})
    assert r.exit_code == 0
    flat = " ".join(r.stdout.split())
    for fact in ("palace", "players 2-4 (default 4)", "unit game", "win not being the loser",
                 "default policy saver", "short_game", "ten_on_anything", "max_actions"):
        assert fact in flat, fact


def test_policies_names_the_default():
    r = runner.invoke(app, ["policies", "palace"], env={"COLUMNS": "120"})
    assert r.exit_code == 0 and "default saver" in r.stdout


def test_policies_shows_each_parameter_s_range():
    """The README says `policies` lists ranges: it showed defaults only."""
    from analyser.games.registry import get_game

    r = runner.invoke(app, ["policies", "palace"], env={"COLUMNS": "160"})
    assert r.exit_code == 0 and "range" in r.stdout
    pickup = get_game("palace").policy_map["pickup"]
    for param in pickup.params:
        row = next(line for line in r.stdout.splitlines() if f" {param.name} " in line)
        assert f"{param.low:g}..{param.high:g}" in row, row


def test_count_aliases_are_one_option():
    r = runner.invoke(app, ["simulate", "palace", "--count", "5", "--deals", "6"])
    assert r.exit_code == 2 and "--deals and --count are one option" in r.stderr


def test_json_counts_with_every_alias():
    for flag in ("-n", "--count", "--deals", "--games"):
        r = runner.invoke(app, ["simulate", "palace", flag, "7", "--players", "2", "-f", "json", "--no-progress"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["deals"] == 7


def test_bare_command_prints_the_help_and_no_empty_error():
    r = cli()
    assert r.returncode == 2          # a usage error, as click has it
    assert "Usage: analyser" in r.stdout and "simulate" in r.stdout
    assert r.stderr.strip() == ""


def _commands():
    import typer

    group = typer.main.get_command(app)
    return group, sorted(group.commands)


@pytest.mark.parametrize("name", _commands()[1])
def test_every_command_s_help_ends_with_examples_that_parse(name):
    """The last lines of a command's --help are one or two examples of it, each of which the
    command's own parser accepts (an example that names an option the command lacks fails)."""
    import shlex

    group, _ = _commands()
    text = help_text(name).rstrip().splitlines()
    examples = [line.strip()[len("Example: "):] for line in text if line.strip().startswith("Example: ")]
    assert 1 <= len(examples) <= 2, name
    assert text[-1].strip() == f"Example: {examples[-1]}"
    for example in examples:
        words = shlex.split(example)
        assert words[:2] == ["analyser", name]
        group.commands[name].make_context(name, words[2:], resilient_parsing=False)


@pytest.mark.parametrize("name", _commands()[1])
def test_at_80_columns_option_descriptions_have_the_room(name):
    """No metavar so wide that an option's description is squeezed into the last third of the line."""
    r = runner.invoke(app, [name, "--help"], env={"COLUMNS": "80"})
    starts = []
    for line in r.stdout.splitlines():
        if line.startswith("│ -") or line.startswith("│ *  -"):
            body = line[2:]
            i = next((k for k in range(len(body) - 2) if body[k:k + 2] == "  " and body[k + 2].isupper()), None)
            if i is not None:
                starts.append(i + 2)
    assert starts and max(starts) <= 42, (name, max(starts))
