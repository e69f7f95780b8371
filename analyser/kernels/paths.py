"""Where the analyser keeps its caches (no numba here: importing analyser reads this)."""
from __future__ import annotations

import os


def cache_root() -> str:
    """``ANALYSER_CACHE_DIR``, else ``$XDG_CACHE_HOME/analyser``, else ``~/.cache/analyser``."""
    return os.path.abspath(os.environ.get("ANALYSER_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "analyser"
    ))


#: Root of the analyser's caches, read once when the package is imported.
CACHE_DIR = cache_root()
