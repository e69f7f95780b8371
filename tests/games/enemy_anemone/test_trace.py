"""Enemy Anemone traces: seeded matches checked into tests/data/ and diffed, the
events' own bookkeeping, one hand's cut, the text for people, and the CLI."""
import re
from itertools import accumulate

import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from tests.kit.golden import assert_golden, parse

# name -> (golden file, trace arguments, the CLI's arguments that print it)
GOLDEN = {
    "4p": ("enemy_anemone_seed7_deal3.jsonl",
           dict(seed=7, deal=3, players=4, policies=["timing", "greedy", "lowball", "random"]),
           "--seed 7 --deal 3 --players 4 --policy timing --policy greedy --policy lowball --policy random"),
    "2p": ("enemy_anemone_2p_seed7_deal3.jsonl",
           dict(seed=7, deal=3, players=2, policies=["timing", "lowball"], rules={"hands": 2}),
           "--seed 7 --deal 3 --players 2 --policy timing --policy lowball --rule hands=2"),
}


@pytest.fixture(scope="module")
def traces():
    return {name: analyser.trace("enemy_anemone", **args) for name, (_, args, _) in GOLDEN.items()}


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_trace(traces, name):
    file, _, cli = GOLDEN[name]
    assert_golden("enemy_anemone", file, traces[name].jsonl(), cli)


def by_hand(events: list[dict]) -> dict[int, list[dict]]:
    hands: dict[int, list[dict]] = {}
    for e in events[1:]:
        if "hand" in e:
            hands.setdefault(e["hand"], []).append(e)
    return hands


@pytest.mark.parametrize("name", GOLDEN)
def test_events_add_up(traces, name):
    events = traces[name].events
    setup, result = events[0], events[-1]
    players = setup["players"]
    assert setup["type"] == "setup" and result["type"] == "result"
    assert all("hand" in e for e in events[1:-1]) and "hand" not in result
    hands = by_hand(events)
    assert sorted(hands) == list(range(setup["settings"]["hands"]))
    first = hands[0][0]
    assert first["type"] == "deal" and (setup["hands"], setup["draw_pile"]) == (first["hands"], first["draw_pile"])
    for h, evs in hands.items():
        deal, start = evs[0], evs[1]
        assert (deal["type"], start["type"], evs[-1]["type"]) == ("deal", "start", "hand_end")
        dealt = sum(len(c) for c in deal["hands"]) + len(deal["draw_pile"])
        plays = [e for e in evs if e["type"] == "play"]
        discards = [e for e in evs if e["type"] == "discard"]
        assert len(plays) == dealt - len(discards), f"hand {h}"
        assert sum(len(e["cards"]) for e in evs if e["type"] == "trick") == len(plays)
        drawn = [c for e in evs if e["type"] == "draw" for c in e["cards"]]
        assert drawn == deal["draw_pile"]           # top first, every card of the pile
        for p in plays:
            assert p["value"] == int(p["card"][1:]) + sum(p["tokens"])
    ends = [evs[-1] for _, evs in sorted(hands.items())]
    running = list(accumulate(([e["scores"] for e in ends]), lambda a, b: [x + y for x, y in zip(a, b, strict=True)]))
    assert [e["totals"] for e in ends] == running
    assert ends[-1]["totals"] == result["totals"]
    assert [len(t) for t in ends[-1]["tokens"]] == result["tokens"]
    assert sum(len(t) for t in ends[-1]["tokens"]) <= 9 and len(result["totals"]) == players


def test_result_is_the_record(traces):
    """The trace's result is what simulate records for the same match."""
    _, args, _ = GOLDEN["4p"]
    args = {k: v for k, v in args.items() if k != "deal"}
    rec = analyser.simulate("enemy_anemone", n=1, first_deal=3, **args).records[0]
    result = traces["4p"].events[-1]
    players = args["players"]
    assert result["totals"] == [int(x) for x in rec["score"][:players]]
    assert result["rank"] == [int(x) for x in rec["rank"][:players]]
    assert result["win"] == [float(x) for x in rec["win"][:players]]
    assert result["tokens"] == [int(x) for x in rec["tokens_held"][:players]]
    assert (result["actions"], result["aborted"]) == (int(rec["length"]), bool(rec["aborted"]))


def test_one_hand(traces):
    _, args, _ = GOLDEN["4p"]
    whole = traces["4p"].events
    cut = analyser.trace("enemy_anemone", hand=2, **args).events
    assert cut == [whole[0]] + [e for e in whole[1:] if e.get("hand") == 2]
    text = analyser.trace("enemy_anemone", hand=2, **args).text()
    assert "Hand 2 — started by seat" in text and "Hand 1 " not in text and "Result" not in text


@pytest.mark.parametrize("name", GOLDEN)
def test_text(traces, name):
    events = traces[name].events
    text = traces[name].text()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    players = events[0]["players"]
    for s in range(players):
        assert f"s{s} " in text
    for h in range(events[0]["settings"]["hands"]):
        assert f"Hand {h} — started by seat" in text
    tricks = sum(e["type"] == "trick" for e in events)
    assert sum(bool(re.match(r"  t\d+ ", line)) for line in lines) == tricks
    assert lines[-players - 1].startswith("Result after")
    if players == 2:
        assert "draw pile (16, top first):" in text and "(0 left)" in text


def test_cli_prints_the_api_jsonl():
    r = CliRunner().invoke(app, ["trace", "enemy_anemone", "--seed", "7", "--deal", "3", "--format", "jsonl"])
    assert r.exit_code == 0, r.output
    assert parse(r.stdout) == parse(analyser.trace("enemy_anemone", seed=7, deal=3).jsonl())


@pytest.mark.parametrize("args, says", [
    (dict(seed=5, deal=1, players=6, policies=["timing", "greedy", "lowball", "random", "timing", "random"]),
     "Result after"),
    (dict(seed=5, deal=1, players=3, policies=["random"], rules={"max_actions": 45, "spent_tokens": "removed"}),
     "aborted at the action cap"),
    (dict(seed=5, deal=1, players=5, policies=["timing"], unit="hand"), "Result after"),
])
def test_text_other_tables(args, says):
    """Six players, an aborted match whose tokens run out, a single hand: still readable at 80 columns."""
    trace = analyser.trace("enemy_anemone", **args)
    text = trace.text()
    assert max(len(line) for line in text.splitlines()) <= 80 and says in text
    lines = text.splitlines()
    assert sum(bool(re.match(r"  t\d+ ", line)) for line in lines) == sum(e["type"] == "trick" for e in trace.events)
