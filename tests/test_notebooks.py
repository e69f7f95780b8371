"""The notebooks in notebooks/ run top to bottom in a real kernel with no error, no warning and nothing on stderr.

They are executed as stored (without outputs) with ANALYSER_NOTEBOOK_QUICK=1, which each notebook's
first cell reads to play a tenth of its deals: the same code, wider intervals. The seven share one kernel,
emptied before each.
"""
import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_there():
    assert [p.name for p in NOTEBOOKS] == ["01_palace_pickup.ipynb", "02_anemone_tokens.ipynb", "03_balance.ipynb",
                                           "04_olenon_open_talk.ipynb", "05_spite_king.ipynb",
                                           "06_strong_players.ipynb", "07_tuning.ipynb"]


def problems(nb) -> list[str]:
    """Every error output, stderr stream and mention of a warning, with the cell it came from."""
    found = []
    for index, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            text = json.dumps(dict(out))
            if out.output_type == "error":
                found.append(f"cell {index}: error {out.ename}: {out.evalue}")
            elif out.output_type == "stream" and out.name == "stderr":
                found.append(f"cell {index}: stderr: {out.text[:500]}")
            elif "warning" in text.lower():
                found.append(f"cell {index}: a warning in {out.output_type}: {text[:500]}")
    return found


# Before each notebook, in the shared kernel: an empty namespace (a notebook cannot lean on another's
# variables), the warnings' once-per-place memory invalidated (one notebook's warning shows again in the next).
RESET = "%reset -f\nimport warnings as _w\n_w._filters_mutated()\ndel _w"


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """One kernel for the seven notebooks: its start and the imports (scipy, statsmodels, pandas, matplotlib,
    the games' compiled code) once, not once a notebook; each notebook still runs top to bottom in it."""
    pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from jupyter_client import KernelManager

    with pytest.MonkeyPatch.context() as env:
        env.setenv("ANALYSER_NOTEBOOK_QUICK", "1")               # the kernel inherits the environment
        # IPC, not TCP: the kernel then has no "running over TCP without encryption" warning to print
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(tmp_path_factory.mktemp("nb") / "ipc"))
        km.start_kernel(cwd=str(NOTEBOOKS[0].parent))
    yield km
    km.shutdown_kernel(now=True)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_clean(path, kernel):
    import nbclient
    import nbformat

    reset = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(RESET)])
    nbclient.NotebookClient(reset, km=kernel, timeout=60).execute()
    assert reset.cells[0].outputs == []
    nb = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "store the notebook clean"
    client = nbclient.NotebookClient(nb, km=kernel, timeout=600, resources={"metadata": {"path": str(path.parent)}})
    client.execute()                                            # raises CellExecutionError on an error
    assert problems(nb) == []
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("outputs") for c in code[2:]), "every cell after the setup shows something"
    printed = "".join(o.get("text", "") for c in code for o in c.outputs if o.output_type == "stream")
    if path.stem != "03_balance":
        assert "points" in printed                              # the conclusion, computed from the numbers
