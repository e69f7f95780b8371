"""Say once when the compile cache cannot be written, and where numba caches instead.

analyser.kernels.cache lets numba's own cache locators take a function whose folder under
``ANALYSER_CACHE_DIR`` cannot be made; they cache beside the package's files (``__pycache__``),
or in numba's own cache folder, without a word, keyed by the function's own file only. This
module says so once, before the first compiled code of a game or policy is loaded
(analyser.games.registry.lazy and PolicySpec.function call it). It lives outside
analyser/kernels, whose every file keys every compiled function: an edit there recompiles all.
"""
from __future__ import annotations

import functools
import os
import sys
import tempfile
from pathlib import Path

from analyser.kernels import paths

PACKAGE_DIR = Path(__file__).resolve().parent


def unwritable(folder: str | os.PathLike) -> str:
    """Why ``folder`` cannot hold a cache ("" when it can): numba's own test, a folder made and a file
    written in it."""
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as err:
        return (err.strerror or str(err)).lower()
    return ""


def numba_fallback() -> str:
    """Where numba's own locators cache the package's functions: NUMBA_CACHE_DIR, else ``__pycache__``
    beside the files when the package's folder can be written, else numba's user-wide folder."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return f"NUMBA_CACHE_DIR ({os.environ['NUMBA_CACHE_DIR']})"
    if not unwritable(PACKAGE_DIR / "__pycache__"):
        return f"__pycache__ beside the package's files in {PACKAGE_DIR}"
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return f"numba's own cache folder ({os.path.join(cache_home, 'numba')})"


@functools.cache
def check_cache_dir() -> None:
    """One line on stderr, once a process, when the compile cache cannot be written."""
    root = paths.CACHE_DIR
    why = unwritable(os.path.join(root, "numba"))
    if why:
        print(f"warning: the compile cache {root} cannot be written ({why}); compiled code is cached in "
              f"{numba_fallback()} instead (set ANALYSER_CACHE_DIR to a folder you can write)", file=sys.stderr)
