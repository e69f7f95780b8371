"""In Jupyter, ``result.plot()`` as a cell's last line shows the figure once, with or without pyplot."""
from tests.test_progress import run_notebook


def test_plot_shows_inline_once():
    nb, _ = run_notebook(
        # seed 2: of seed 1's 200 games 3 hit the action cap, and their warning is a stream output
        'import analyser\nr = analyser.simulate("palace", n=200, seed=2, progress=False)\nr.plot()',
        'import matplotlib.pyplot as plt\nr.plot()',          # the inline backend active: still once
    )
    for cell in nb.cells:
        outputs = cell.outputs
        assert not [o for o in outputs if o.output_type in ("error", "stream")], outputs
        images = [o for o in outputs if "image/png" in o.get("data", {})]
        assert len(outputs) == 1 and len(images) == 1, [o.get("data", {}).keys() for o in outputs]
