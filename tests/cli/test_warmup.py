"""``analyser warmup``: every game's code compiled into the cache once, with one line a game."""
from __future__ import annotations

from typer.testing import CliRunner

import analyser
from analyser.cli.main import app


def test_warmup_readies_a_game_and_says_what_and_where():
    r = CliRunner().invoke(app, ["warmup", "olenon", "--no-search"])
    assert r.exit_code == 0, r.output
    assert "olenon: ready in" in r.stdout and "(simulate, trace, replay, rollout)" in r.stdout
    assert f"compiled code cached in {analyser.CACHE_DIR}" in r.stdout


def test_warmup_with_the_search_players_and_from_python():
    (warmed,) = analyser.warmup(["palace"])
    assert warmed.game == "palace" and "search players" in warmed.parts


def test_an_unknown_game_is_one_line_and_exit_2():
    r = CliRunner().invoke(app, ["warmup", "palace", "nosuch"])
    assert r.exit_code == 2 and r.stderr.strip().startswith("error: unknown game 'nosuch'; valid: palace")
    assert "palace: ready" not in r.stdout


def test_games_warm_side_by_side_in_the_order_asked():
    """Two built-in games in two processes (each loads from the cache the suite filled): one result a
    game, in the order asked, each having run every part, and each game said as it starts."""
    started = []
    warmed = analyser.warmup(["olenon", "enemy_anemone"], search=False, progress=started.append, jobs=2)
    assert [w.game for w in warmed] == ["olenon", "enemy_anemone"] and sorted(started) == ["enemy_anemone", "olenon"]
    assert all(w.parts == ("simulate", "trace", "replay", "rollout") and w.seconds > 0 for w in warmed)


def test_jobs_below_one_is_one_line_and_exit_2():
    r = CliRunner().invoke(app, ["warmup", "olenon", "--jobs", "0"])
    assert r.exit_code == 2 and r.stderr.strip() == "error: --jobs is a number of processes, 1 or more, not 0"
