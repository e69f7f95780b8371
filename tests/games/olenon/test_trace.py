"""Olenon traces: seeded matches checked into tests/data/ and diffed, every
traced match replayed by an independent referee written from the rule book,
one round's cut, the text for people, and the CLI."""

import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from tests.kit.golden import assert_golden, parse

# name -> (golden file, trace arguments, the CLI's arguments that print it)
GOLDEN = {
    "none": ("olenon_seed7_deal3.jsonl",
             dict(seed=7, deal=3, policies=["partner", "tempo", "shed", "random"]),
             "--seed 7 --deal 3 --policy partner --policy tempo --policy shed --policy random"),
    "open": ("olenon_open_seed7_deal5.jsonl",
             dict(seed=7, deal=5, policies=["partner", "shed"], rules={"talk": "open", "round_starter": "winner"}),
             "--seed 7 --deal 5 --policy partner --policy shed --rule talk=open --rule round_starter=winner"),
}


@pytest.fixture(scope="module")
def traces():
    return {name: analyser.trace("olenon", **args) for name, (_, args, _) in GOLDEN.items()}


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_trace(traces, name):
    file, _, cli = GOLDEN[name]
    assert_golden("olenon", file, traces[name].jsonl(), cli)


def beats(w: int, v: int) -> bool:
    return w > v or (w == 0 and v == 6)


def referee(events: list[dict]) -> dict:
    """Replay a traced match by the rule book and assert every event is legal and
    every consequence (trick ends, returns, leaders, going out, the match's end)
    is the one the rules call for. Returns counts of what it saw."""
    setup, result = events[0], events[-1]
    settings = setup["settings"]
    seen = {"play": 0, "replace": 0, "pass": 0, "four": 0, "team_passed": 0, "rounds": 0, "empty_after_pass": 0}
    won = [0, 0]
    starter = last_out = None
    hands = table = passed = None
    seat = owner = None
    expect_end = None
    for e in events[1:-1]:
        t = e["type"]
        if t == "deal":
            assert expect_end is None
            cards = sorted(c for h in e["hands"] for c in h) + []
            assert sorted(cards + e["set_aside"]) == sorted([0] * 6 + [1] * 5 + [2] * 5 + [3, 4, 5, 6] * 4)
            assert all(len(h) == 7 for h in e["hands"])
            if starter is None:
                assert e["starter"] == setup["first"]
            elif settings["round_starter"] == "rotate":
                assert e["starter"] == (starter + 1) % 4
            else:
                assert e["starter"] == last_out
            starter = seat = e["starter"]
            hands = [list(h) for h in e["hands"]]
            table, passed, owner = [], [None] * 4, None
            continue
        assert expect_end is None or t == expect_end, f"{t} where the rules end the trick ({expect_end})"
        if t in ("play", "replace", "pass"):
            assert e["seat"] == seat and passed[seat] is None, f"seat {e['seat']} acts out of turn"
        if t == "play":
            cards = e["cards"]
            v = cards[0]
            assert cards == [v] * len(cards) and 1 <= len(cards)
            assert not table or table[0] == v, "an addition of another value"
            assert len(table) + len(cards) <= 4, "more than 4 cards on the table"
            for c in cards:
                hands[seat].remove(c)
            table += cards
            owner = seat
        elif t == "replace":
            cards, old = e["cards"], e["discarded"]
            assert table and old == table and len(cards) == len(table), "a replace of another count"
            assert cards == [cards[0]] * len(cards) and beats(cards[0], old[0]), f"{cards} does not beat {old}"
            for c in cards:
                hands[seat].remove(c)
            table = list(cards)
            owner = seat
        elif t == "pass":
            assert table, "a pass on an empty table"
            assert e["card"] == table[-1]
            table.pop()
            passed[seat] = e["card"]
            seen["empty_after_pass"] += not table
        if t in ("play", "replace", "pass"):
            seen[t] += 1
            if t != "pass" and not hands[seat]:
                expect_end = "round_end"
            elif len(table) == 4:
                expect_end = "trick_end"
            elif t == "pass" and passed[(seat + 2) % 4] is not None:
                expect_end = "trick_end"
            else:
                seat = (seat + 1) % 4
                while passed[seat] is not None:
                    seat = (seat + 1) % 4
            continue
        if t == "trick_end":
            assert e["reason"] == ("four" if len(table) == 4 else "team_passed")
            assert e["returned"] == passed and e["next"] == owner
            seen[e["reason"]] += 1
            for s, c in enumerate(passed):
                if c is not None:
                    hands[s].append(c)
            table, passed, seat, owner = [], [None] * 4, owner, None
            expect_end = None
        elif t == "round_end":
            assert expect_end == "round_end" and e["seat"] == seat and e["winner_team"] == seat % 2
            won[seat % 2] += 1
            last_out = seat
            seen["rounds"] += 1
            expect_end = None
    if result["aborted"]:
        return seen
    assert expect_end is None
    assert result["rounds_won"] == won and max(won) == settings["rounds"] and result["rounds"] == sum(won)
    assert result["winner_team"] == won.index(max(won))
    assert result["win"] == [1.0 if s % 2 == result["winner_team"] else 0.0 for s in range(4)]
    assert result["actions"] == seen["play"] + seen["replace"] + seen["pass"]
    return seen


@pytest.mark.parametrize("name", GOLDEN)
def test_the_referee_passes_the_golden_traces(traces, name):
    assert referee(traces[name].events)["rounds"] >= 2


@pytest.mark.parametrize("rules", [{}, {"round_starter": "winner", "talk": "open", "rounds": 3}])
def test_the_referee_passes_random_and_built_in_matches(rules):
    seen = {}
    lineups = [["random"], ["shed", "tempo", "partner", "random"], ["tempo:margin=6,spend=4,zeros=0"]]
    for deal in range(30):
        trace = analyser.trace("olenon", seed=21, deal=deal, policies=lineups[deal % 3], rules=rules)
        for k, v in referee(trace.events).items():
            seen[k] = seen.get(k, 0) + v
    # the replays went through every kind of event the rules have
    assert all(seen[k] > 0 for k in ("play", "replace", "pass", "four", "team_passed", "empty_after_pass")), seen


def test_one_round_cut():
    whole = analyser.trace("olenon", seed=7, deal=3).events
    one = analyser.trace("olenon", seed=7, deal=3, hand=1).events
    assert one[0] == whole[0]
    assert one[1:] == [e for e in whole if e.get("round") == 1]
    with pytest.raises(analyser.UserError, match=r"rounds 0\.\.2, not 5"):
        analyser.trace("olenon", seed=7, deal=3, hand=5)


def test_text_trace_fits_80_columns_and_tells_the_match():
    text = analyser.trace("olenon", **GOLDEN["none"][1]).text()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0].startswith("Olenon, teams s0+s2 (team 0) and s1+s3 (team 1), seed 7, match 3")
    assert any(line.startswith("Round 1 — started by seat") for line in lines)
    assert "goes out: team" in text and "Result after 33 actions in 2 rounds:" in text


def test_cli_prints_the_same_trace():
    file, args, cli = GOLDEN["open"]
    out = CliRunner().invoke(app, ["trace", "olenon", *cli.split(), "--format", "jsonl"])
    assert out.exit_code == 0, out.output
    assert parse(out.output) == parse(analyser.trace("olenon", **args).jsonl())
    out = CliRunner().invoke(app, ["trace", "olenon", *cli.split(), "--round", "1"])
    assert out.exit_code == 0 and "Round 1 only." in out.output and "Round 1 — started" in out.output
