"""Every game laid out as the built-in ones are keeps one shape of compiled entry points
(analyser.games): what rollouts, the kit and search players are written once against.

Read from the game's modules: each entry point is a compiled function (written in the game, or
a loop of analyser.kernels.loops bound to the game's), with the shared argument names and, for
the play-outs, compiled with the shared signatures; a failure names the game and the function.
"""
import importlib
import inspect

import pytest
from numba.core.registry import CPUDispatcher

from analyser.games.kit import PLAY_WORLDS_ARGS, RecordsKit
from analyser.games.registry import game_names, get_game
from analyser.kernels import signatures
from analyser.kernels.jit import PointerEntry

UNIT_ARGS = ("seed", "unit", "players", "settings", "streams", "policies", "kinds", "params",
             "pub", "priv", "hid", "legal", "log")
STEP_ARGS = tuple(a for a in UNIT_ARGS if a != "players")
PLAYOUT_ARGS = ("seed", "unit", "players", "settings", "policies", "kinds", "params", "streams", "pubs", "privs",
                "hids")
SHAPE = {
    "rules": {"begin_unit_nb": UNIT_ARGS, "step_nb": STEP_ARGS, "play_unit_nb": UNIT_ARGS},
    "playouts": {"playout_nb": PLAYOUT_ARGS, "play_worlds_nb": PLAY_WORLDS_ARGS},
}
GAMES = [name for name in game_names() if isinstance(get_game(name).kit(), RecordsKit)]


def functions(module: str) -> dict[str, CPUDispatcher | PointerEntry]:
    return {name: fn for name, fn in vars(importlib.import_module(module)).items()
            if isinstance(fn, CPUDispatcher | PointerEntry)}


def arguments(fn) -> tuple[str, ...]:
    return fn.arguments if isinstance(fn, PointerEntry) else tuple(inspect.signature(fn.py_func).parameters)


def test_the_built_in_games_are_all_in_the_shape():
    assert {"palace", "olenon", "enemy_anemone", "spite_and_malice"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_a_games_entry_points_keep_the_shape(name):
    kit = get_game(name).kit()
    modules = {part: f"{kit.package}.{part}" for part in SHAPE}
    for part, expected in SHAPE.items():
        found = functions(modules[part])
        for fn, args in expected.items():
            assert fn in found, f"{name}: {modules[part]} has no compiled {fn}"
            got = arguments(found[fn])
            assert got == args, f"{name}: {fn}{got} left the shape {args}"


@pytest.mark.parametrize("name", GAMES)
def test_a_games_playouts_compile_with_the_shared_signatures(name):
    package = get_game(name).kit().package
    found = functions(package + ".playouts")
    state = importlib.import_module(package + ".state")
    record_t = importlib.import_module(package + ".engine").RECORD_T
    expected = {"playout_nb": signatures.playout_signature(state.POLICIES_T),
                "play_worlds_nb": signatures.play_worlds_signature(state.POLICIES_T, state.PUBLIC_T, state.PRIVATE_T,
                                                                   state.HIDDEN_T, record_t)}
    for fn, signature in expected.items():
        assert found[fn].signature.args == signature.args, \
            f"{name}: {fn} is not compiled with analyser.kernels.signatures' signature alone"
