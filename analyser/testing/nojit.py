"""``python -m analyser.testing.nojit SOURCE RUNS_JSON OUT.npz``: the records of
analyser.simulate(spec, **run) for each run, saved under "0", "1", ..., the spec
imported from SOURCE (``module:attribute``).

The kit runs it with NUMBA_DISABLE_JIT=1 to compare plain Python with the
compiled engine (analyser.testing.checks.check_jit_equals_no_jit).
"""
import importlib
import json
import sys
import warnings

import numpy as np

import analyser


def main(argv: list[str]) -> None:
    source, runs, out = argv
    warnings.simplefilter("ignore")
    module, _, attr = source.partition(":")
    spec = getattr(importlib.import_module(module), attr)
    np.savez(out, **{str(i): analyser.simulate(spec, **run).records for i, run in enumerate(json.loads(runs))})


if __name__ == "__main__":
    main(sys.argv[1:])
