"""Where numba caches the package's compiled functions.

numba's disk cache checks only the file that holds a cached function, so an
edit to a function it calls in another file would run stale code. Each file
of the package is therefore cached in a folder keyed by the sources it can
depend on (see ``analyser/__init__.py`` for the layout):

- a game's files (``analyser/games/<game>/...``): the core and that game;
- any other file of the package: the core.

Importing this module puts :class:`PackageCacheLocator` first in numba's list
of cache locators. ``analyser.core.jit`` imports it, so it is in place before
the kernels are decorated (numba picks a function's locator when it is
decorated). A package function decorated earlier, or with a
``NUMBA_CACHE_LOCATOR_CLASSES`` of the user's that leaves this locator out,
is cached by numba's own locators under ``NUMBA_CACHE_DIR``, which
``analyser/__init__.py`` keys by the whole package: never stale, only shared
less. Files outside the package are not claimed here: numba's own locators
handle them as usual.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

from numba.core import caching

import analyser
from analyser import _core_key, _tree_key


@functools.cache
def _key(package_dir: Path, part: str) -> str:
    """Memoised key of ``part`` (``"core"`` or ``"games/<game>"``) of a package tree."""
    return _core_key(package_dir) if part == "core" else _tree_key(package_dir, part)


def cache_subdir(py_file: str | os.PathLike, package_dir: str | os.PathLike | None = None) -> str | None:
    """The folder, relative to ``analyser.CACHE_DIR``, that caches the functions
    of ``py_file``; ``None`` when the file is not part of the package.

    >>> cache_subdir(".../analyser/games/palace/rules.py")   # doctest: +SKIP
    'numba/<core key>/palace-<palace key>'
    """
    package_dir = Path(package_dir or analyser._PACKAGE_DIR).resolve()
    try:
        rel = Path(os.path.realpath(py_file)).relative_to(package_dir)
    except ValueError:
        return None
    core = _key(package_dir, "core")
    parts = rel.parent.parts
    if len(parts) >= 2 and parts[0] == "games":
        game = parts[1]
        inner = parts[2:]  # sub-folders of the game keep their own folder
        return os.path.join("numba", core, f"{game}-{_key(package_dir, f'games/{game}')}", *inner)
    return os.path.join("numba", core, *(parts or ("package",)))


class PackageCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Caches a function of the package under :func:`cache_subdir`. Freshness of
    the function's own file is numba's usual content stamp."""

    def __init__(self, py_func, py_file, cache_path):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = cache_path

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if not os.path.exists(py_file):
            return None
        subdir = cache_subdir(py_file)
        if subdir is None:
            return None
        self = cls(py_func, py_file, os.path.join(analyser.CACHE_DIR, subdir))
        try:
            self.ensure_cache_path()
        except OSError:  # not writable: let numba's own locators try
            return None
        return self


def install() -> None:
    """Put the locator first in numba's list (once; numba's own stay after it)."""
    if PackageCacheLocator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, PackageCacheLocator)


install()
