"""The numba cache folders are keyed by the sources they depend on.

Layout under analyser.CACHE_DIR (see analyser.kernels.cache):

    numba/<kernels>/kernels/              analyser/kernels/*.py
    numba/<kernels>/<game>-<game key>/    analyser/games/<game>/*.py
    numba/<kernels>/external-<folder>/    files outside the package decorated through analyser.kernels.jit

Edits are simulated on a copy of the package tree with a second, made-up game.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core import caching

import analyser
from analyser.kernels import cache

PACKAGE = Path(analyser.__file__).resolve().parent


@pytest.fixture
def tree(tmp_path):
    """A copy of the package's kernels, engine, CLI and Palace, plus a game 'other' with a sub-folder."""
    pkg = tmp_path / "analyser"
    pkg.mkdir()
    shutil.copy(PACKAGE / "__init__.py", pkg / "__init__.py")
    ignore = shutil.ignore_patterns("__pycache__")
    for folder in ("kernels", "engine", "cli"):
        shutil.copytree(PACKAGE / folder, pkg / folder, ignore=ignore)
    shutil.copytree(PACKAGE / "games" / "palace", pkg / "games" / "palace", ignore=ignore)
    (pkg / "games" / "__init__.py").write_text("")
    other = pkg / "games" / "other"
    (other / "sub").mkdir(parents=True)
    (other / "__init__.py").write_text("")
    (other / "rules.py").write_text("def f():\n    return 1\n")
    (other / "sub" / "deep.py").write_text("def g():\n    return 2\n")
    cache.refresh()
    yield pkg
    cache.refresh()


def folders(pkg: Path) -> dict[str, str | None]:
    cache.refresh()  # a new process would hash the edited tree afresh
    files = {
        "core": pkg / "kernels" / "rng.py",
        "palace": pkg / "games" / "palace" / "rules.py",
        "palace2": pkg / "games" / "palace" / "state.py",
        "other": pkg / "games" / "other" / "rules.py",
        "other_sub": pkg / "games" / "other" / "sub" / "deep.py",
        "user": pkg.parent / "notebook.py",
    }
    return {name: cache.cache_subdir(path, pkg) for name, path in files.items()}


def edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n# edited\n")


def test_layout(tree):
    f = folders(tree)
    core = cache.kernels_key(tree)
    assert f["core"] == os.path.join("numba", core, "kernels")
    assert f["palace"] == f["palace2"]
    assert f["palace"].startswith(os.path.join("numba", core, "palace-"))
    assert f["other"].startswith(os.path.join("numba", core, "other-"))
    assert f["other_sub"] == os.path.join(f["other"], "sub")
    assert f["user"] is None  # not the package's: numba's own locators decide
    assert len({f["core"], f["palace"], f["other"]}) == 3


def test_editing_a_game_changes_only_that_games_folder(tree):
    before = folders(tree)
    edit(tree / "games" / "palace" / "constants.py")
    after = folders(tree)
    assert after["palace"] != before["palace"]
    assert after["palace2"] == after["palace"]
    for name in ("core", "other", "other_sub"):
        assert after[name] == before[name], name

    edit(tree / "games" / "other" / "sub" / "deep.py")
    again = folders(tree)
    assert again["other"] != after["other"] and again["other_sub"] != after["other_sub"]
    assert again["palace"] == after["palace"] and again["core"] == after["core"]


def test_adding_or_renaming_a_game_file_changes_its_key(tree):
    before = folders(tree)
    (tree / "games" / "other" / "extra.py").write_text("")
    assert folders(tree)["other"] != before["other"]
    (tree / "games" / "other" / "extra.py").rename(tree / "games" / "other" / "extra2.py")
    renamed = folders(tree)
    assert renamed["other"] != before["other"]
    assert renamed["palace"] == before["palace"]


def test_editing_the_kernels_changes_every_folder(tree):
    before = folders(tree)
    edit(tree / "kernels" / "rng.py")
    after = folders(tree)
    for name in ("core", "palace", "palace2", "other", "other_sub"):
        assert after[name] != before[name], name


@pytest.mark.parametrize("path", ["__init__.py", "engine/progress.py", "engine/pipeline.py", "cli/main.py",
                                  "games/palace/__init__.py", "games/palace/trace_text.py"])
def test_editing_code_that_is_not_compiled_recompiles_nothing(tree, path):
    before = folders(tree)
    edit(tree / path)
    assert folders(tree) == before


def test_a_games_plain_files_hold_no_compiled_code_and_feed_none():
    """What PLAIN_GAME_FILES leaves out of a game's key must not reach its compiled code:
    no kernel is defined there, and no other module of the game imports from them."""
    import ast

    for folder in sorted((PACKAGE / "games").iterdir()):
        if not (folder / "rules.py").exists():
            continue
        for plain in cache.PLAIN_GAME_FILES:
            text = (folder / plain).read_text()
            assert "@kernel" not in text and "@inline_kernel" not in text and "njit" not in text, (folder, plain)
        package = f"analyser.games.{folder.name}"
        plain = {package} | {f"{package}.{name.removesuffix('.py')}" for name in cache.PLAIN_GAME_FILES}
        for path in folder.rglob("*.py"):
            if path.name in cache.PLAIN_GAME_FILES:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module in plain:
                    submodules = all((folder / f"{alias.name}.py").exists() for alias in node.names)
                    assert node.module == package and submodules, (path, node.module)   # modules, not values


def test_non_python_files_and_pycache_do_not_count(tree):
    before = folders(tree)
    (tree / "games" / "palace" / "notes.txt").write_text("x")
    pyc = tree / "games" / "palace" / "__pycache__"
    pyc.mkdir(exist_ok=True)
    (pyc / "rules.cpython-311.pyc").write_bytes(b"\0")
    assert folders(tree) == before


def test_the_locator_comes_first_and_numbas_own_follow():
    import analyser.kernels.jit  # noqa: F401  (installs the locator, as every kernel module does)

    classes = caching.CacheImpl._locator_classes
    assert classes[0] is cache.PackageCacheLocator
    assert classes.count(cache.PackageCacheLocator) == 1
    assert caching.UserProvidedCacheLocator in classes[1:] and caching.InTreeCacheLocator in classes[1:]


_PROBE = r"""
import json, os, sys
import analyser
numba_on_import = "numba" in sys.modules
first = sys.argv[2]
__import__(first)
from analyser.kernels import rng
from analyser.games.palace import state    # not rules: its import compiles the policies (typed), seconds here
sys.path.insert(0, sys.argv[1])
import user_module

def where(fn):
    loc = fn._cache._impl.locator
    return [type(loc).__name__, loc.get_cache_path()]

from analyser.kernels.cache import cache_subdir, kernels_key
print(json.dumps({
    "numba_on_import": numba_on_import,
    "core_key": kernels_key(),
    "palace_dir": cache_subdir(state.__file__),
    "root": analyser.CACHE_DIR,
    "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR"),
    "core": where(rng.mix64_nb),
    "game": where(state.legal_words_nb),     # a game's kernel (analyser.kernels.jit), as rules.burn_nb
    "user": where(user_module.f),
    "claimed": where(user_module.g),
}))
"""


def probe(tmp_path, first):
    """Which locator and folder a fresh process gives a core, a game and a user
    function, after importing ``first``. Decorating is enough to pick the
    locator: nothing is compiled."""
    (tmp_path / "user_module.py").write_text(
        "from numba import njit\nfrom analyser.kernels.jit import jit\n\n@njit(cache=True)\ndef f(x):\n"
        "    return x + 1\n\n@jit()\ndef g(x):\n    return x + 2\n"
    )
    root = tmp_path / "cache"
    env = {**os.environ, "ANALYSER_CACHE_DIR": str(root)}
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tmp_path), first], env=env,
                         capture_output=True, text=True, check=True)
    return root, json.loads(out.stdout.strip().splitlines()[-1])


def test_a_fresh_process_caches_where_the_keys_say(tmp_path):
    # analyser.kernels.jit is what every kernel module imports (engine.py would
    # compile the engine on import with an empty cache: too slow for here)
    root, got = probe(tmp_path, "analyser.kernels.jit")
    core = got["core_key"]  # the child's own keys: the tree tests above check their content
    assert got["numba_on_import"] is False  # importing analyser stays cheap
    assert got["root"] == str(root)
    assert got["core"] == ["PackageCacheLocator", str(root / "numba" / core / "kernels")]
    assert got["palace_dir"].startswith(os.path.join("numba", core, "palace-"))
    assert got["game"] == ["PackageCacheLocator", str(root / got["palace_dir"])]
    assert got["numba_cache_dir"] is None                  # the user's numba cache is left alone
    assert got["user"][0] == "InTreeCacheLocator"          # numba's own choice, as without analyser
    assert got["claimed"][0] == "PackageCacheLocator"      # decorated through analyser.kernels.jit
    assert got["claimed"][1].startswith(str(root / "numba" / core / "external-"))


def test_a_package_function_decorated_before_the_locator_is_left_to_numba(tmp_path):
    # rng.py imports numba itself, but imports the cache module before decorating anything
    root, got = probe(tmp_path, "analyser.kernels.rng")
    assert got["game"][0] == "PackageCacheLocator"
    assert got["core"][0] == "PackageCacheLocator"


def test_importing_analyser_changes_no_environment_variable():
    code = ("import os, json; before = dict(os.environ); import analyser, analyser.cli.main; "
            "print(json.dumps([before == dict(os.environ), 'numba' in __import__('sys').modules]))")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [True, False]
