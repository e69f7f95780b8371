"""The numba cache folders are keyed by the sources they depend on.

Layout under analyser.CACHE_DIR (see analyser/__init__.py):

    numba/<core>/core/              analyser/core/*.py            (core = __init__.py + core/)
    numba/<core>/<game>-<game key>/ analyser/games/<game>/*.py
    numba/<core>/user-<package>/    files outside the package (NUMBA_CACHE_DIR)

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
from analyser.core import cache

PACKAGE = Path(analyser.__file__).resolve().parent


@pytest.fixture
def tree(tmp_path):
    """A copy of the package's core and Palace, plus a game 'other' with a sub-folder."""
    pkg = tmp_path / "analyser"
    pkg.mkdir()
    shutil.copy(PACKAGE / "__init__.py", pkg / "__init__.py")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(PACKAGE / "core", pkg / "core", ignore=ignore)
    shutil.copytree(PACKAGE / "games" / "palace", pkg / "games" / "palace", ignore=ignore)
    (pkg / "games" / "__init__.py").write_text("")
    other = pkg / "games" / "other"
    (other / "sub").mkdir(parents=True)
    (other / "__init__.py").write_text("")
    (other / "rules.py").write_text("def f():\n    return 1\n")
    (other / "sub" / "deep.py").write_text("def g():\n    return 2\n")
    cache._key.cache_clear()
    yield pkg
    cache._key.cache_clear()


def folders(pkg: Path) -> dict[str, str | None]:
    cache._key.cache_clear()  # a new process would hash the edited tree afresh
    files = {
        "core": pkg / "core" / "rng.py",
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
    core = analyser._core_key(tree)
    assert f["core"] == os.path.join("numba", core, "core")
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


@pytest.mark.parametrize("path", ["core/rng.py", "__init__.py"])
def test_editing_the_core_changes_every_folder(tree, path):
    before = folders(tree)
    edit(tree / path)
    after = folders(tree)
    for name in ("core", "palace", "palace2", "other", "other_sub"):
        assert after[name] != before[name], name


def test_non_python_files_and_pycache_do_not_count(tree):
    before = folders(tree)
    (tree / "games" / "palace" / "notes.txt").write_text("x")
    pyc = tree / "games" / "palace" / "__pycache__"
    pyc.mkdir(exist_ok=True)
    (pyc / "rules.cpython-311.pyc").write_bytes(b"\0")
    assert folders(tree) == before


def test_the_locator_comes_first_and_numbas_own_follow():
    import analyser.core.jit  # noqa: F401  (installs the locator, as every kernel module does)

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
from analyser.core import rng
from analyser.games.palace import rules
sys.path.insert(0, sys.argv[1])
import user_module

def where(fn):
    loc = fn._cache._impl.locator
    return [type(loc).__name__, loc.get_cache_path()]

from analyser.core.cache import cache_subdir
print(json.dumps({
    "numba_on_import": numba_on_import,
    "core_key": analyser._core_key(),
    "package_key": analyser._tree_key(analyser._PACKAGE_DIR, ""),
    "palace_dir": cache_subdir(rules.__file__),
    "root": analyser.CACHE_DIR,
    "numba_cache_dir": os.environ["NUMBA_CACHE_DIR"],
    "core": where(rng.mix64_nb),
    "game": where(rules.burn_nb),
    "user": where(user_module.f),
}))
"""


def probe(tmp_path, first):
    """Which locator and folder a fresh process gives a core, a game and a user
    function, after importing ``first``. Decorating is enough to pick the
    locator: nothing is compiled."""
    (tmp_path / "user_module.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n"
    )
    root = tmp_path / "cache"
    env = {**os.environ, "ANALYSER_CACHE_DIR": str(root)}
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tmp_path), first], env=env,
                         capture_output=True, text=True, check=True)
    return root, json.loads(out.stdout.strip().splitlines()[-1])


def test_a_fresh_process_caches_where_the_keys_say(tmp_path):
    # analyser.core.jit is what every kernel module imports (engine.py would
    # compile the engine on import with an empty cache: too slow for here)
    root, got = probe(tmp_path, "analyser.core.jit")
    core = got["core_key"]  # the child's own keys: the tree tests above check their content
    assert got["numba_on_import"] is False  # importing analyser stays cheap
    assert got["root"] == str(root)
    assert got["core"] == ["PackageCacheLocator", str(root / "numba" / core / "core")]
    assert got["palace_dir"].startswith(os.path.join("numba", core, "palace-"))
    assert got["game"] == ["PackageCacheLocator", str(root / got["palace_dir"])]
    user_dir = Path(got["numba_cache_dir"])
    assert user_dir == root / "numba" / core / ("user-" + got["package_key"])
    assert got["user"][0] == "UserProvidedCacheLocator"  # numba's own choice, as without analyser
    assert Path(got["user"][1]).parent == user_dir


def test_a_package_function_decorated_before_the_locator_is_keyed_by_the_whole_package(tmp_path):
    # rng.py imports numba itself: imported first, its functions miss the locator
    # and fall back to NUMBA_CACHE_DIR, whose key covers every file of the package.
    root, got = probe(tmp_path, "analyser.core.rng")
    assert got["game"][0] == "PackageCacheLocator"
    if got["core"][0] != "PackageCacheLocator":
        assert Path(got["core"][1]).parent == Path(got["numba_cache_dir"])
