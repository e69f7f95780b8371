"""Monte Carlo strategy analyser for card games.

Importing the package only points numba's disk cache at folders keyed by
hashes of the sources the compiled code depends on (numba's own cache only
notices edits to the file that holds the cached function, not to the files it
calls), so stale compiled code never runs. Under ``CACHE_DIR``:

- ``numba/<core>/core/``: the package's own files outside the games, keyed by
  ``<core>``, a hash of ``analyser/__init__.py`` and ``analyser/core/``;
- ``numba/<core>/<game>-<key>/``: one game's files, keyed also by a hash of
  that game's folder, so an edit to one game recompiles only that game;
- ``numba/<core>/user-<key>/`` (``NUMBA_CACHE_DIR``): cached functions of
  files outside the package (tests, scripts, notebooks), which numba places
  as usual, keyed by a hash of the whole package since they may call any of
  it. A package file decorated before the locator below is installed lands
  here too: safe, only shared less.

The first two are the work of :class:`analyser.core.cache.PackageCacheLocator`,
which ``analyser.core.jit`` installs when the first kernel module loads;
importing ``analyser`` itself never imports numba. Everything heavy is
imported lazily.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from analyser.core.errors import UserError

__version__ = "0.1.0"

_PACKAGE_DIR = Path(__file__).resolve().parent


def _tree_key(package_dir: Path, *parts: str) -> str:
    """A hash of the ``.py`` files at or under ``package_dir/part`` for each part
    (``""`` is the whole package): names relative to ``package_dir`` and contents."""
    package_dir = Path(package_dir)
    files = set()
    for part in parts:
        target = package_dir / part
        if target.is_file():
            files.add(target)
        elif target.is_dir():
            files.update(target.rglob("*.py"))
    digest = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(package_dir).as_posix()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(package_dir).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def _core_key(package_dir: Path = _PACKAGE_DIR) -> str:
    """Key of the shared part every game and every cached function depends on."""
    return _tree_key(package_dir, "__init__.py", "core")


def _cache_root() -> str:
    return os.path.abspath(os.environ.get("ANALYSER_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "analyser"
    ))


def _configure_numba_cache() -> str:
    root = _cache_root()
    user_dir = os.path.join(root, "numba", _core_key(), "user-" + _tree_key(_PACKAGE_DIR, ""))
    os.environ["NUMBA_CACHE_DIR"] = user_dir
    if "numba" in sys.modules:  # imported before us: tell the live config too
        sys.modules["numba"].config.CACHE_DIR = user_dir
    return root


#: Root of the analyser's caches (``ANALYSER_CACHE_DIR``, else ``~/.cache/analyser``).
CACHE_DIR = _configure_numba_cache()


def simulate(*args, **kwargs):
    """Run a batch of games; see :func:`analyser.api.simulate`."""
    from analyser.api import simulate as _simulate

    return _simulate(*args, **kwargs)


def trace(*args, **kwargs):
    """Play one deal move by move; see :func:`analyser.api.trace`."""
    from analyser.api import trace as _trace

    return _trace(*args, **kwargs)


def compare(*args, **kwargs):
    """Policy A against policy B on duplicate deals; see :func:`analyser.comparison.compare`."""
    from analyser.comparison import compare as _compare

    return _compare(*args, **kwargs)


def sweep(*args, **kwargs):
    """One policy's parameters over values, in every seat, on common deals; see :func:`analyser.sweeps.sweep`."""
    from analyser.sweeps import sweep as _sweep

    return _sweep(*args, **kwargs)


def tournament(*args, **kwargs):
    """Every pair of policies on common duplicate deals: head-to-head matrix and ratings;
    see :func:`analyser.tournaments.tournament`."""
    from analyser.tournaments import tournament as _tournament

    return _tournament(*args, **kwargs)


def vary(*args, **kwargs):
    """One line-up on the same deals under each value of one rule setting; see
    :func:`analyser.rule_effects.vary`."""
    from analyser.rule_effects import vary as _vary

    return _vary(*args, **kwargs)


def report(*args, **kwargs):
    """A balance report: seats, player counts, rule settings and policies, each with a verdict and
    95% intervals; see :func:`analyser.reports.builder.report`."""
    from analyser.reports.builder import report as _report

    return _report(*args, **kwargs)


def load(path):
    """Read a results file written by ``simulate(..., out=...)``."""
    from analyser.results import load as _load

    return _load(path)


def register_game(spec, replace: bool = False):
    """Add a game (a GameSpec) to the registry; see :func:`analyser.core.registry.register_game`."""
    from analyser.core.registry import register_game as _register

    return _register(spec, replace)


__all__ = ["__version__", "simulate", "trace", "compare", "tournament", "sweep", "vary", "report", "load",
           "register_game", "UserError", "CACHE_DIR"]

if "numba.core.caching" in sys.modules:  # numba is loaded already: install the locator at once
    import importlib

    importlib.import_module("analyser.core.cache")
