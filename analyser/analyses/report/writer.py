"""Writing a report so that it is never half there.

A Markdown report is three things beside each other: ``NAME.md``, ``NAME.json``
and the figures in ``NAME/``; an HTML report is two, ``NAME.html`` (the figures
inside it) and ``NAME.json``. They are all written under temporary names in the
target's folder first (the figures into a temporary folder); only then are
they put in place, each by one rename, with Ctrl-C held back for those few
renames. An interrupted or failed write (a full disk: one line, analyser.io.atomic)
leaves the old report as it was and no temporary file behind.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
from pathlib import Path

from analyser.errors import UserError
from analyser.io.atomic import open_output
from analyser.io.jsonable import dumps
from analyser.io.results_file import check_target


@contextlib.contextmanager
def _no_interrupt():
    """Hold SIGINT back (POSIX, main thread) until the block ends; it is delivered then."""
    can = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if can:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if can:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def default_path(game: str) -> Path:
    """``GAME-report.md`` here: never one of the examples in the repository's reports/ (``make reports``
    names them)."""
    return Path(f"{game}-report.md")


SUFFIXES = {".md": "Markdown, with NAME.json and the figures in NAME/ beside it",
            ".html": "one self-contained page (figures inside), with NAME.json beside it"}


def check_out(path) -> Path:
    """The report file to write (.md or .html), checked before any run: its suffix, the folder its
    missing folders are made in (a folder, writable), nothing in the way of the files beside it."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise UserError(f"cannot write a report to {path}: name a .md or .html file (valid: {', '.join(SUFFIXES)})")
    check_target(path)
    made = next(p for p in path.absolute().parents if p.exists())     # the folder its missing ones are made in
    if not made.is_dir() or not os.access(made, os.W_OK):
        raise UserError(f"cannot write the report {path}: {made} is {'not writable' if made.is_dir() else 'a file'}")
    beside = (path.with_suffix(".json"),) if is_html(path) else (path.with_suffix(".json"), path.with_suffix(""))
    for other in beside:
        if other.is_symlink() or (other == path.with_suffix(".json") and other.is_dir()) or \
                (other == path.with_suffix("") and other.exists() and not other.is_dir()):
            raise UserError(f"cannot write the report beside {other}: it is in the way (a link, or a file where "
                            f"the figures' folder goes)")
    return path


def is_html(path: Path) -> bool:
    return path.suffix.lower() == ".html"


def write_report(report, path: Path) -> Path:
    """Write the report at ``path``: Markdown with the JSON and the figures beside it, or an HTML page with the
    JSON beside it (see the module docstring)."""
    path = check_out(path)
    if is_html(path):
        return _write_page(report, path)
    folder = path.parent
    figures_dir = path.with_suffix("")
    json_path = path.with_suffix(".json")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp_dir = Path(tempfile.mkdtemp(prefix=f".{figures_dir.name}.", suffix=".partial", dir=folder))
        mask = os.umask(0)
        os.umask(mask)
        tmp_dir.chmod(0o777 & ~mask)            # mkdtemp makes it private; the figures' folder is not
    except OSError as err:
        raise UserError(f"cannot write the report {path}: {err.strerror}") from None
    tmp_md = tmp_dir.with_name(tmp_dir.name + ".md")
    tmp_json = tmp_dir.with_name(tmp_dir.name + ".json")
    old_dir = tmp_dir.with_name(tmp_dir.name + ".old")
    try:
        links = {}
        for name, fig in report.figures().items():
            with open_output(tmp_dir / f"{name}.png", name=figures_dir / f"{name}.png") as f:
                fig.savefig(f, format="png")
            links[name] = f"{figures_dir.name}/{name}.png"
        _put(tmp_md, report.markdown(links), path)
        _put(tmp_json, dumps(report.to_dict(), indent=1) + "\n", json_path)
        with _no_interrupt():
            if figures_dir.exists():
                os.replace(figures_dir, old_dir)
            os.replace(tmp_dir, figures_dir)
            os.replace(tmp_json, json_path)
            os.replace(tmp_md, path)
    except OSError as err:
        raise UserError(f"cannot write the report {path}: {err.strerror or err}") from None
    finally:
        for leftover in (tmp_md, tmp_json):
            leftover.unlink(missing_ok=True)
        for leftover in (tmp_dir, old_dir):
            if leftover.exists():
                shutil.rmtree(leftover, ignore_errors=True)
    return path


def _put(tmp: Path, text: str, name: Path) -> None:
    """``text`` written to the temporary ``tmp``; a full disk names the file it was for, ``name``."""
    with open_output(tmp, name=name) as f:
        f.write(text.encode("utf-8"))


def _write_page(report, path: Path) -> Path:
    """The HTML page and its JSON, each written in a temporary folder beside them and renamed into place."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp_dir = Path(tempfile.mkdtemp(prefix=f".{path.stem}.", suffix=".partial", dir=path.parent))
    except OSError as err:
        raise UserError(f"cannot write the report {path}: {err.strerror}") from None
    try:
        page, data = tmp_dir / path.name, tmp_dir / f"{path.stem}.json"
        _put(page, report.html(), path)
        _put(data, dumps(report.to_dict(), indent=1) + "\n", path.with_suffix(".json"))
        with _no_interrupt():
            os.replace(data, path.with_suffix(".json"))
            os.replace(page, path)
    except OSError as err:
        raise UserError(f"cannot write the report {path}: {err.strerror or err}") from None
    finally:
        shutil.rmtree(tmp_dir, ignore_errors=True)
    return path
