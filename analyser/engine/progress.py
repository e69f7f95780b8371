"""What a run shows while it works: a note while compiled code loads, then a progress bar.

In a terminal both go to stderr through rich (a spinner, then a bar that goes away).

In Jupyter, rich's live display needs ipywidgets and warns on every refresh
without it, and tqdm's notebook bar needs ipywidgets too (without them it falls
back with a warning). So a notebook gets neither: one display in the running
cell, updated in place with IPython's ``update_display`` (an HTML ``<progress>``
bar and a text line for frontends without HTML). The loading note, the bar and
the closing line ("300,000/300,000 in 6.4 s; compiled code loaded in 21.3 s")
share it, so a run leaves exactly one output and nothing on stderr. It works in
any frontend, with or without ipywidgets, and needs no extra package.
"""
from __future__ import annotations

import html
import sys
import time
from contextlib import contextmanager, nullcontext

LOADING = "loading compiled code (after an install or an edit: compiling, 10-60 s)"
SHOW_LOAD_AFTER = 0.5     # seconds: a shorter load is not worth a line
UPDATE_EVERY = 0.2        # seconds between notebook display updates


def _shell():
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None) if ipython is not None else None
    return get() if get is not None else None


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython's ZMQ shell or a subclass, e.g. Colab's)."""
    shell = _shell()
    return shell is not None and any(c.__name__ == "ZMQInteractiveShell" for c in type(shell).__mro__)


def preparing(enabled: bool):
    """A note while compiled code is loaded: the first run after an install
    or an edit compiles it, which takes a while with nothing else to show."""
    if not enabled:
        return nullcontext(None)
    if in_notebook():
        return _notebook_note()
    from rich.console import Console

    return Console(stderr=True).status(LOADING) if _terminal() else nullcontext(None)


def progress_bar(total: int, label: str, enabled: bool):
    """A bar of ``total`` units with ``advance(n, rate_text)`` and ``retotal(total)``, or None when not
    enabled."""
    if not enabled:
        return nullcontext(None)
    if in_notebook():
        return NotebookBar(total, label)
    return Bar(total, label) if _terminal() else nullcontext(None)


def _terminal() -> bool:
    """Whether stderr is a terminal as rich sees it: elsewhere (a pipe, a log file) a rich bar or
    spinner shows nothing but leaves a blank line behind."""
    from rich.console import Console

    return Console(stderr=True).is_terminal


class Bar:
    """The terminal bar (rich, on stderr, gone when the run ends)."""

    def __init__(self, total: int, label: str):
        self.total, self.label = total, label

    def __enter__(self):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._rich = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                              TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                              console=Console(stderr=True), transient=True)
        self._rich.__enter__()
        self._task = self._rich.add_task(self.label, total=self.total, rate="")
        return self

    def advance(self, n: int, rate: str = ""):
        self._rich.update(self._task, advance=n, rate=rate)

    def retotal(self, total: int):
        """A new estimate of the total (a precision target's, revised as it goes)."""
        self._rich.update(self._task, total=total)

    def __exit__(self, *exc):
        self._rich.__exit__(*exc)
        return False


# --- notebooks -------------------------------------------------------------------------------

class _CellDisplay:
    """The one display a run keeps in the running cell (IPython display with a display id)."""

    def __init__(self, key):
        from IPython.display import display

        self.key = key
        self.loaded_seconds = 0.0
        self.handle = display(self._bundle("", ""), raw=True, display_id=True)

    @staticmethod
    def _bundle(text: str, markup: str) -> dict:
        return {"text/plain": text, "text/html": markup}

    def show(self, text: str, markup: str | None = None):
        from IPython.display import update_display

        if markup is None:
            markup = f"<pre style='margin:0'>{html.escape(text)}</pre>" if text else ""
        if self.handle is not None:
            update_display(self._bundle(text, markup), raw=True, display_id=self.handle.display_id)

    def loaded_note(self) -> str:
        if self.loaded_seconds < SHOW_LOAD_AFTER:
            return ""
        return f"compiled code loaded in {self.loaded_seconds:.1f} s"


_current: _CellDisplay | None = None


def _cell_key():
    """What identifies the running cell: its request's message id (else its execution count)."""
    shell = _shell()
    try:
        return shell.get_parent()["header"]["msg_id"]
    except Exception:
        return getattr(shell, "execution_count", None)


def _cell_display() -> _CellDisplay:
    """The running cell's display: one per cell, whatever number of notes and bars a run shows."""
    global _current
    key = _cell_key()
    if _current is None or _current.key != key or key is None:
        _current = _CellDisplay(key)
    return _current


@contextmanager
def _notebook_note():
    line = _cell_display()
    line.show(LOADING + " ...")
    start = time.perf_counter()
    try:
        yield None
    finally:
        line.loaded_seconds += time.perf_counter() - start
        line.show(line.loaded_note())


class NotebookBar:
    """The notebook bar: an HTML ``<progress>`` and a text line in the cell's one display."""

    def __init__(self, total: int, label: str):
        self.total, self.label = total, label
        self.done, self.rate = 0, ""

    def __enter__(self):
        self._line = _cell_display()
        self._start = self._shown = time.perf_counter()
        self._render()
        return self

    def advance(self, n: int, rate: str = ""):
        self.done += n
        self.rate = rate or self.rate
        now = time.perf_counter()
        if now - self._shown >= UPDATE_EVERY:
            self._shown = now
            self._render()

    def retotal(self, total: int):
        self.total = total

    def _render(self, closing: str | None = None):
        elapsed = time.perf_counter() - self._start
        share = self.done / self.total if self.total else 1.0
        counts = f"{self.done:,}/{self.total:,}"
        if closing is not None:
            status = closing
        else:
            left = elapsed * (1 - share) / share if share > 0 else None
            status = f"{100 * share:.0f}%" + (f", {left:,.0f} s left" if left is not None else "")
        parts = [p for p in (counts, self.rate, status) if p]
        text = f"{self.label}: " + ", ".join(parts)
        note = self._line.loaded_note()
        full = text + (f"; {note}" if note else "")
        markup = (f"<div style='font-family:monospace'><progress value='{self.done}' max='{max(self.total, 1)}' "
                  f"style='width:40%;vertical-align:middle'></progress> {html.escape(full)}</div>")
        self._line.show(full, markup)

    def __exit__(self, exc_type, exc, tb):
        global _current
        elapsed = time.perf_counter() - self._start
        self._render(f"done in {elapsed:,.1f} s" if exc_type is None else f"stopped after {elapsed:,.1f} s")
        if _current is self._line:   # the run is over: a next run in this cell gets its own display
            _current = None
        return False
