"""A seeded game, move by move, checked into the tests and diffed; and JIT == no-JIT."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

import analyser

GOLDEN = Path(__file__).parents[2] / "data" / "palace_seed7_deal3.jsonl"
GOLDEN_ARGS = dict(seed=7, deal=3, players=3, policies=["saver", "pickup", "random"])


def test_golden_trace():
    """Regenerate (after a deliberate rule change only) with:
    analyser trace palace --seed 7 --deal 3 --players 3 --policy saver --policy pickup --policy random --format jsonl
    """
    got = [json.loads(line) for line in analyser.trace("palace", **GOLDEN_ARGS).jsonl().splitlines()]
    want = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"event {i} differs"
    assert len(got) == len(want)


NO_JIT_SCRIPT = """
import warnings, numpy as np, analyser
warnings.simplefilter("ignore")
r = analyser.simulate("palace", players={players}, policies={policies!r}, deals=4, seed=13, threads=1)
np.save({path!r}, r.records)
"""


def test_jit_and_no_jit_give_identical_records(tmp_path):
    for players, policies in ((4, ["saver", "lowest", "pickup", "random"]), (2, ["random", "pickup"])):
        path = str(tmp_path / f"nojit{players}.npy")
        env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
        script = NO_JIT_SCRIPT.format(players=players, policies=policies, path=path)
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        jit = analyser.simulate("palace", players=players, policies=policies, deals=4, seed=13).records
        assert np.array_equal(np.load(path), jit)
