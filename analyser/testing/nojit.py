"""``python nojit_run.py RUNS_JSON OUT.npz``: the records of analyser.simulate(**run) for each run, saved
under "0", "1", ...

The kit runs it with NUMBA_DISABLE_JIT=1 to compare plain Python with the
compiled engine; it registers the toy game as tests/conftest.py does."""
import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
warnings.simplefilter("ignore")

import numpy as np  # noqa: E402

import analyser  # noqa: E402
from tests.toygame import register  # noqa: E402

register()
runs = json.loads(sys.argv[1])
np.savez(sys.argv[2], **{str(i): analyser.simulate(**run).records for i, run in enumerate(runs)})
