"""The replay page: one HTML file holding the data as JSON and a vanilla-JS viewer.

Nothing is fetched: the style and the script (replay_page.html, replay_page.js, shipped as
package data) are inlined, so the file opens from disk in any browser, offline.
"""
from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from analyser.errors import UserError
from analyser.io.results_file import check_folder, check_target

PAGE_SUFFIX = ".html"


def check_page_path(path) -> Path:
    """A replay page's path, checked before anything is played: an .html file in a directory that exists
    and can be written to."""
    path = Path(path)
    check_target(path, f"name a {PAGE_SUFFIX} file")
    if path.suffix.lower() != PAGE_SUFFIX:
        raise UserError(f"cannot write replay {path}: a replay is a web page, name a {PAGE_SUFFIX} file")
    check_folder(path, f"cannot write replay {path}")
    return path


def page_html(data: dict) -> str:
    """The page for ``data`` (analyser.analyses.replay): the template with the data and the script in it.
    ``</`` is escaped in both, so neither can close its script element early."""
    here = files("analyser.io")
    template = (here / "replay_page.html").read_text(encoding="utf-8")
    script = (here / "replay_page.js").read_text(encoding="utf-8")
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = data["title"].replace("&", "&amp;").replace("<", "&lt;")
    return (template.replace("{{TITLE}}", title).replace("{{DATA}}", payload)
            .replace("{{SCRIPT}}", script.replace("</", "<\\/")))
