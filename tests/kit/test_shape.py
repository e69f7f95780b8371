"""Every game laid out as the built-in ones are keeps one shape of compiled entry points
(analyser.games): what rollouts, the kit and search players are written once against.

Read from the sources (ast), so the test compiles nothing and names the game and the function
that left the shape.
"""
import ast
import importlib.util

import pytest

from analyser.games.kit import PLAY_WORLDS_ARGS, RecordsKit
from analyser.games.registry import game_names, get_game

UNIT_ARGS = ("seed", "unit", "players", "settings", "streams", "policies", "kinds", "params",
             "pub", "priv", "hid", "legal", "log")
STEP_ARGS = tuple(a for a in UNIT_ARGS if a != "players")
PLAYOUT_ARGS = ("seed", "unit", "players", "settings", "policies", "kinds", "params", "streams", "pubs", "privs",
                "hids")
SHAPE = {
    "rules": {"begin_unit_nb": UNIT_ARGS, "step_nb": STEP_ARGS, "play_unit_nb": UNIT_ARGS},
    "playouts": {"playout_nb": PLAYOUT_ARGS, "play_worlds_nb": PLAY_WORLDS_ARGS},
}
SIGNATURES = {"playout_nb": "playout_signature", "play_worlds_nb": "play_worlds_signature"}
GAMES = [name for name in game_names() if isinstance(get_game(name).kit(), RecordsKit)]


def functions(module: str) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(open(importlib.util.find_spec(module).origin).read())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_the_built_in_games_are_all_in_the_shape():
    assert {"palace", "olenon", "enemy_anemone", "spite_and_malice"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_a_games_entry_points_keep_the_shape(name):
    kit = get_game(name).kit()
    modules = {part: f"{kit.package}.{part}" for part in SHAPE}
    for part, expected in SHAPE.items():
        found = functions(modules[part])
        for fn, args in expected.items():
            assert fn in found, f"{name}: {modules[part]} has no {fn}"
            got = tuple(a.arg for a in found[fn].args.args)
            assert got == args, f"{name}: {fn}{got} left the shape {args}"


@pytest.mark.parametrize("name", GAMES)
def test_a_games_playouts_compile_with_the_shared_signatures(name):
    found = functions(get_game(name).kit().package + ".playouts")
    for fn, builder in SIGNATURES.items():
        calls = [d.args[0].func.id for d in found[fn].decorator_list
                 if isinstance(d, ast.Call) and d.args and isinstance(d.args[0], ast.Call)]
        assert calls == [builder], f"{name}: {fn} is not compiled with analyser.kernels.signatures.{builder}"
