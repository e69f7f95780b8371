"""Monte Carlo strategy analyser for card games.

Importing the package only points numba's disk cache at a folder keyed by a
hash of the package sources, so an edit anywhere in the package can never run
stale compiled code (numba's own cache only notices edits to the file that
holds the cached function). Everything heavy is imported lazily.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"

_PACKAGE_DIR = Path(__file__).resolve().parent


def _source_hash() -> str:
    digest = hashlib.sha1()
    for path in sorted(_PACKAGE_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _configure_numba_cache() -> str:
    base = os.environ.get("ANALYSER_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "analyser"
    )
    folder = os.path.join(base, "numba", _source_hash())
    os.environ["NUMBA_CACHE_DIR"] = folder
    if "numba" in sys.modules:  # imported before us: tell the live config too
        sys.modules["numba"].config.CACHE_DIR = folder
    return folder


CACHE_DIR = _configure_numba_cache()


def simulate(*args, **kwargs):
    """Run a batch of games; see :func:`analyser.api.simulate`."""
    from analyser.api import simulate as _simulate

    return _simulate(*args, **kwargs)


def trace(*args, **kwargs):
    """Play one deal move by move; see :func:`analyser.api.trace`."""
    from analyser.api import trace as _trace

    return _trace(*args, **kwargs)


def load(path):
    """Read a results file written by ``simulate(..., out=...)``."""
    from analyser.results import load as _load

    return _load(path)


__all__ = ["__version__", "simulate", "trace", "load", "CACHE_DIR"]
