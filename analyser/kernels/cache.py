"""Where numba caches compiled functions, keyed by the sources they are made of.

numba's disk cache checks only the file that holds a cached function, so an
edit to a function it calls in another file would run stale code. Each
function is therefore cached in a folder under ``analyser.CACHE_DIR`` keyed by
the sources it can depend on, and by nothing else:

- ``numba/<kernels>/kernels/``: this folder's functions, keyed by ``<kernels>``,
  a hash of ``analyser/kernels/`` (the only shared compiled code);
- ``numba/<kernels>/<game>-<game key>/``: a game's functions
  (``analyser/games/<game>/...``), keyed also by a hash of that game's folder
  but its GameSpec, trace text and replay view (PLAIN_GAME_FILES), so an edit to one game's
  rules or policies recompiles only that game;
- a loop written once in ``analyser/kernels/loops.py`` and bound to one game's functions
  is that game's: it is cached in the game's folder, as if written in the game's file that
  binds it (:func:`own`);
- ``numba/<kernels>/external-<folder key>/``: functions outside the package
  decorated with :func:`analyser.kernels.jit.jit` (or ``kernel``), such as a
  game written outside this repository: keyed also by the ``.py`` files beside
  the function's file and that folder's path.

Nothing else is in a key: an edit to the CLI, the engine, an analysis, a
report, a game's GameSpec, trace text or replay view, or a message recompiles
nothing. Functions outside the package that are not decorated through
``analyser.kernels.jit`` are left to numba's own locators, exactly as without
the analyser (``NUMBA_CACHE_DIR`` is the user's).

Importing this module puts :class:`PackageCacheLocator` first in numba's list
of cache locators (numba picks a function's locator when it is decorated);
``analyser.kernels.jit`` imports it before any kernel is decorated.
"""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from numba.core import caching

from analyser.kernels import paths

PACKAGE_DIR = Path(__file__).resolve().parent.parent
_claimed: set = set()     # code objects of functions outside the package decorated through analyser.kernels.jit
_owners: dict = {}        # a function bound from a template (analyser.kernels.loops) -> the file that bound it


def tree_key(root: Path, *parts: str, recursive: bool = True, skip: tuple[str, ...] = ()) -> str:
    """A hash of the ``.py`` files at or under ``root/part`` for each part (``""``: all of
    ``root``; ``recursive=False``: only the folder's own files; ``skip``: paths relative to
    ``root`` left out): names relative to ``root`` and contents, so adding, renaming or
    editing a file changes it."""
    root = Path(root)
    files = set()
    for part in parts:
        target = root / part
        if target.is_file():
            files.add(target)
        elif target.is_dir():
            files.update(target.rglob("*.py") if recursive else target.glob("*.py"))
    files = {p for p in files if p.relative_to(root).as_posix() not in skip}
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


@functools.cache
def _memo_key(root: Path, part: str, recursive: bool = True, skip: tuple[str, ...] = ()) -> str:
    return tree_key(root, part, recursive=recursive, skip=skip)


# A game's files that hold no compiled code and that no compiled code reads: its GameSpec
# (names, descriptions, defaults), the text of its traces and its replay view. Editing them
# recompiles nothing.
PLAIN_GAME_FILES = ("__init__.py", "trace_text.py", "view.py")


def game_key(package_dir: Path, game: str) -> str:
    """The key of one game's folder: its ``.py`` files but PLAIN_GAME_FILES."""
    return _memo_key(Path(package_dir), f"games/{game}", skip=tuple(f"games/{game}/{f}" for f in PLAIN_GAME_FILES))


def refresh() -> None:
    """Forget the memoised keys, so the next lookups hash the sources afresh (as a new process does)."""
    _memo_key.cache_clear()


def kernels_key(package_dir: Path = PACKAGE_DIR) -> str:
    """The key every cached function's folder starts with: a hash of ``analyser/kernels/``."""
    return _memo_key(Path(package_dir), "kernels")


def code_key(py_file: str | os.PathLike, package_dir: str | os.PathLike | None = None) -> str:
    """The key of the compiled code that the functions of ``py_file``'s folder run (the shared
    kernels' key, then the game's: the folder they are cached under), so that a run can name the
    code that made its records and a resumed run or a merge can refuse another's."""
    return Path(cache_subdir(py_file, package_dir, claimed=True)).relative_to("numba").as_posix()


def claim(fn) -> None:
    """Cache ``fn`` (a Python function about to be decorated) under CACHE_DIR even when
    its file is outside the package (see the module docstring)."""
    _claimed.add(fn.__code__)


def own(fn, py_file: str | os.PathLike) -> None:
    """Cache ``fn`` (a function about to be decorated) as a function of ``py_file``: in its
    folder, stamped by that file, so the game that binds a shared loop keys its compile."""
    _owners[fn] = os.fspath(py_file)
    claim(fn)


def cache_subdir(py_file: str | os.PathLike, package_dir: str | os.PathLike | None = None,
                 claimed: bool = False) -> str | None:
    """The folder, relative to ``analyser.CACHE_DIR``, that caches the functions of
    ``py_file``; ``None`` when numba's own locators decide (a file outside the
    package, unless ``claimed``).

    >>> cache_subdir(".../analyser/games/palace/rules.py")   # doctest: +SKIP
    'numba/<kernels key>/palace-<palace key>'
    """
    package_dir = Path(package_dir or PACKAGE_DIR).resolve()
    path = Path(os.path.realpath(py_file))
    kernels = kernels_key(package_dir)
    try:
        rel = path.relative_to(package_dir)
    except ValueError:
        if not claimed:
            return None
        folder = path.parent
        where = hashlib.sha256(str(folder).encode()).hexdigest()[:8]
        return os.path.join("numba", kernels, f"external-{where}-{_memo_key(folder, '', recursive=False)}")
    parts = rel.parent.parts
    if len(parts) >= 2 and parts[0] == "games":
        game = parts[1]
        inner = parts[2:]  # sub-folders of the game keep their own folder
        return os.path.join("numba", kernels, f"{game}-{game_key(package_dir, game)}", *inner)
    return os.path.join("numba", kernels, *(parts or ("package",)))


class PackageCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Caches a function of the package (or one claimed) under :func:`cache_subdir`.
    Freshness of the function's own file is numba's usual content stamp."""

    def __init__(self, py_func, py_file, cache_path):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = cache_path

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        py_file = _owners.get(py_func, py_file)
        if not os.path.exists(py_file):
            return None
        subdir = cache_subdir(py_file, claimed=py_func.__code__ in _claimed)
        if subdir is None:
            return None
        self = cls(py_func, py_file, os.path.join(paths.CACHE_DIR, subdir))
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
