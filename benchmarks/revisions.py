"""Running code from a git revision beside the working tree (for ab.py and same_records.py)."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def checkouts(rev: str):
    """Yield (scratch directory, {"base": worktree of rev, "tree": the working tree})."""
    with tempfile.TemporaryDirectory(prefix="analyser-rev-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), rev], check=True)
        try:
            yield tmp, {"base": base, "tree": ROOT}
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=True)


def run_with(src: Path, code: str, args: list[str], cwd: str) -> str:
    """Run ``code`` in a fresh interpreter with the package imported from ``src``
    (cwd is the scratch directory, so '' on sys.path finds nothing); its stdout."""
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env={**os.environ, "PYTHONPATH": str(src)},
                          check=True, capture_output=True, text=True).stdout
