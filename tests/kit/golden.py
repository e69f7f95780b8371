"""Golden traces: a seeded unit's jsonl trace checked into tests/data/ and diffed event by event."""
import json
from pathlib import Path

DATA = Path(__file__).parents[1] / "data"


def parse(jsonl: str) -> list[dict]:
    lines = jsonl.splitlines()
    assert lines and all(line.strip() for line in lines)
    return [json.loads(line) for line in lines]


def assert_golden(game: str, file: str, jsonl: str, cli: str) -> None:
    """``jsonl`` (a trace) equals tests/data/``file``; the message says how to regenerate it
    with ``analyser trace GAME CLI --format jsonl`` after a deliberate change."""
    got, want = parse(jsonl), parse((DATA / file).read_text())
    again = (f"regenerate (after a deliberate change to the rules, the policies or the trace only) with:\n"
             f"analyser trace {game} {cli} --format jsonl > tests/data/{file}")
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        assert g == w, f"event {i} differs from tests/data/{file}: {g} != {w}; {again}"
    assert len(got) == len(want), f"{len(got)} events, tests/data/{file} has {len(want)}; {again}"
