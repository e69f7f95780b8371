"""Progress: a spinner and a rich bar on a terminal's stderr; in Jupyter one tidy display
per run, with the loading note in it, and no warnings (rich once filled
a notebook cell with 90 warnings about ipywidgets)."""
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_off_means_nothing():
    from analyser.engine import progress

    with progress.progress_bar(10, "x", False) as bar:
        assert bar is None
    with progress.preparing(False) as note:
        assert note is None


def test_no_bar_and_no_blank_line_when_stderr_is_not_a_terminal(capfd):
    from analyser.engine import progress

    with progress.preparing(True) as note, progress.progress_bar(10, "x", True) as bar:
        assert note is None and bar is None
    assert capfd.readouterr().err == ""


def test_terminal_bar_outside_a_notebook(monkeypatch):
    from analyser.engine import progress

    monkeypatch.setattr(progress, "_terminal", lambda: True)
    assert not progress.in_notebook()
    with progress.preparing(True):
        pass
    with progress.progress_bar(100, "palace x4", True) as bar:
        assert isinstance(bar, progress.Bar)
        bar.advance(40, "1,000 games/s")
        bar.advance(60)


def run_notebook(*cells: str):
    """Execute cells in a real Jupyter kernel; return the notebook and every display message seen."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")

    class Recorder(nbclient.NotebookClient):
        def process_message(self, msg, cell, cell_index):
            self.seen.append((cell_index, msg["msg_type"], msg["content"]))
            return super().process_message(msg, cell, cell_index)

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    client = Recorder(nb, timeout=1200, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}})
    client.seen = []
    client.execute()
    return nb, client.seen


def plain(content) -> str:
    data = content.get("data") or {}
    return data.get("text/plain") or ""


@pytest.fixture(scope="module")
def notebook():
    """One fresh kernel: the first run in it shows the loading note. Its last two cells are
    test_plot_shows_inline_once's (pyplot first imported in the last), run here not to start a kernel of their own."""
    return run_notebook(
        'import analyser\nr = analyser.simulate("palace", n=300_000, seed=1)\nprint(r.tally.units)',
        'a = analyser.simulate("palace", n=2_000, seed=2)\nb = analyser.simulate("palace", n=3_000, seed=3)',
        'c = analyser.simulate("palace", n=2_000, seed=4, progress=False)\nprint("quiet")',
        # seed 2: of seed 1's 200 games 3 hit the action cap, and their warning is a stream output
        'import sys\nassert "matplotlib.pyplot" not in sys.modules\n'
        'r = analyser.simulate("palace", n=200, seed=2, progress=False)\nr.plot()',
        'import matplotlib.pyplot as plt\nr.plot()',          # the inline backend active: still once
    )


def test_notebook_run_shows_one_tidy_display_and_no_warnings(notebook):
    nb, seen = notebook
    outputs = nb.cells[0].outputs
    text = json.dumps([dict(o) for o in outputs])
    assert not [o for o in outputs if o.output_type == "error"], text
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"], text
    assert "warn" not in text.lower() and "ipywidgets" not in text
    displays = [o for o in outputs if o.output_type == "display_data"]
    assert len(displays) == 1, text
    final = displays[0].data
    assert "<progress" in final["text/html"]
    assert "palace x4: 300,000/300,000" in final["text/plain"] and "done in" in final["text/plain"]
    assert [o.text for o in outputs if o.output_type == "stream"] == ["300000\n"]


def test_notebook_shows_the_loading_note_then_a_moving_bar(notebook):
    _, seen = notebook
    shown = [plain(c) for i, kind, c in seen if i == 0 and kind in ("display_data", "update_display_data")]
    loading = [k for k, t in enumerate(shown) if t.startswith("loading compiled code")]
    moving = [k for k, t in enumerate(shown) if "/300,000" in t and "%" in t and "done" not in t]
    assert loading and moving and loading[0] < moving[0], shown
    assert len({t for t in shown if "/300,000" in t}) >= 3, shown    # it moved
    # nothing reached the cell except through the display
    assert not [c for i, kind, c in seen if i == 0 and kind == "stream" and c.get("name") == "stderr"]


def test_notebook_two_runs_in_a_cell_get_a_display_each_and_off_means_none(notebook):
    nb, _ = notebook
    two = [o for o in nb.cells[1].outputs if o.output_type == "display_data"]
    assert len(two) == 2 and "2,000/2,000" in two[0].data["text/plain"] and "3,000/3,000" in two[1].data["text/plain"]
    assert [o.output_type for o in nb.cells[1].outputs] == ["display_data", "display_data"]
    assert [(o.output_type, getattr(o, "text", "")) for o in nb.cells[2].outputs] == [("stream", "quiet\n")]


def test_plot_shows_inline_once(notebook):
    """In Jupyter, ``result.plot()`` as a cell's last line shows the figure once, with or without pyplot."""
    nb, _ = notebook
    for cell in nb.cells[3:]:
        outputs = cell.outputs
        assert not [o for o in outputs if o.output_type in ("error", "stream")], outputs
        images = [o for o in outputs if "image/png" in o.get("data", {})]
        assert len(outputs) == 1 and len(images) == 1, [o.get("data", {}).keys() for o in outputs]
