"""A seeded game, move by move, checked into the tests and diffed.
(Compiled == uncompiled is the shared kit's, analyser.testing, for every game.)"""
import json
from pathlib import Path

import analyser

GOLDEN = Path(__file__).parents[2] / "data" / "palace_seed7_deal3.jsonl"
GOLDEN_ARGS = dict(seed=7, deal=3, players=3, policies=["saver", "pickup", "random"])


def test_golden_trace():
    """Regenerate (after a deliberate rule change only) with:
    analyser trace palace --seed 7 --deal 3 --players 3 --policy saver --policy pickup --policy random --format jsonl
    """
    got = [json.loads(line) for line in analyser.trace("palace", **GOLDEN_ARGS).jsonl().splitlines()]
    want = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        assert g == w, f"event {i} differs"
    assert len(got) == len(want)
