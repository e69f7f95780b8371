"""Spite & Malice traces: seeded matches checked into tests/data/ and diffed,
every traced match replayed by an independent referee written from the rule
book, one round's cut, the text for people, and the CLI."""
from collections import Counter

import pytest
from typer.testing import CliRunner

import analyser
from analyser.cli.main import app
from tests.kit.golden import assert_golden, parse

# name -> (golden file, trace arguments, the CLI's arguments that print it)
GOLDEN = {
    "default": ("spite_and_malice_seed7_deal3.jsonl",
                dict(seed=7, deal=3, policies=["builder", "patient"], rules={"payoff_size": 6, "target": 10}),
                "--seed 7 --deal 3 --policy builder --policy patient --rule payoff_size=6 --rule target=10"),
    "house": ("spite_and_malice_house_seed7_deal9.jsonl",
              dict(seed=7, deal=9, policies=["patient:save_kings=0", "builder"],
                   rules={"payoff_size": 8, "centre_piles": 4, "refill_empty_hand": "on", "stock_out": "at_once",
                          "target": 8}),
              "--seed 7 --deal 9 --policy patient:save_kings=0 --policy builder --rule payoff_size=8 "
              "--rule centre_piles=4 --rule refill_empty_hand=on --rule stock_out=at_once --rule target=8"),
}


@pytest.fixture(scope="module")
def traces():
    return {name: analyser.trace("spite_and_malice", **args) for name, (_, args, _) in GOLDEN.items()}


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_trace(traces, name):
    file, _, cli = GOLDEN[name]
    assert_golden("spite_and_malice", file, traces[name].jsonl(), cli)


class Referee:
    """Replays a traced match by the rule book: every move legal, every forced
    consequence (draws, completed piles, wins, stock-outs, starters, the end of
    the match) the one the rules call for. ``abort`` in ``expect`` is the end of
    the trace: a cap was reached, and nothing may follow but the result."""

    def __init__(self, setup):
        self.s = setup["settings"]
        self.points = [0, 0]
        self.starter = None
        self.seen = Counter()
        self.expect = []           # event types that must come next, in order
        self.moves = self.turns = self.rounds = 0

    def deal(self, e):
        size = self.s["payoff_size"]
        assert [len(p) for p in e["payoffs"]] == [size, size] and [len(h) for h in e["hands"]] == [5, 5]
        dealt = Counter(c for p in e["payoffs"] + e["hands"] for c in p)
        assert all(n <= 8 for n in dealt.values()) and set(dealt) <= set(range(1, 14))
        self.payoff = [list(p) for p in e["payoffs"]]
        self.hand = [Counter(h) for h in e["hands"]]
        self.side = [[[] for _ in range(4)] for _ in range(2)]
        self.piles = [0] * self.s["centre_piles"]
        self.stock = 104 - 2 * size - 10
        self.seat = None
        self.turn = 0
        self.round_moves = 0

    def start(self, e, last):
        tops = [p[-1] for p in self.payoff]
        if self.starter is None:
            assert e["why"] == ("tie" if tops[0] == tops[1] else "higher_top")
            if tops[0] != tops[1]:
                assert e["seat"] == tops.index(max(tops))
        elif last["winner"] is None:
            assert e["why"] == "after_draw" and e["seat"] == 1 - self.starter
        else:
            assert e["why"] == "loser" and e["seat"] == 1 - last["winner"]
        self.starter = self.seat = e["seat"]

    def can_build(self, seat):
        tops = [self.payoff[seat][-1]] + [p[-1] for p in self.side[seat] if p]
        tops += [c for c, n in self.hand[seat].items() if n]
        return any(c == 13 or c == v + 1 for c in tops for v in self.piles)

    def draw(self, seat, drawn, need):
        assert len(drawn) == min(need, self.stock), f"drew {drawn} needing {need} from {self.stock}"
        self.hand[seat].update(drawn)
        self.stock -= len(drawn)
        if len(drawn) < need or (self.s["stock_out"] == "at_once" and self.stock == 0):
            self.expect = ["round_end:stock_out"]

    def event(self, e, last_end):
        t = e["type"]
        key = t + (":" + e["why"] if t == "round_end" else "")
        if self.expect:
            want = self.expect.pop(0)
            assert key == want, f"{key} where the rules call for {want}"
        elif t in ("complete", "refill", "round_end"):
            raise AssertionError(f"{key} where the rules call for none")
        self.seen[key] += 1
        if t == "deal":
            self.deal(e)
        elif t == "start":
            self.start(e, last_end)
        elif t == "turn":
            if self.turn:
                assert e["seat"] == 1 - self.seat and e["turn"] == self.turn + 1
            else:
                assert e["seat"] == self.starter and e["turn"] == 1 and e["drawn"] == []
            self.seat, self.turn = e["seat"], e["turn"]
            self.turns += 1
            self.draw(self.seat, e["drawn"], 5 - sum(self.hand[self.seat].values()))
        elif t in ("build", "discard", "stop"):
            assert e["seat"] == self.seat, f"seat {e['seat']} moves in seat {self.seat}'s turn"
            {"build": self.build, "discard": self.discard, "stop": self.stop}[t](e)
        elif t == "complete":
            assert e["pile"] == self.completed and e["stock"] == self.stock + 12
            self.stock += 12
            self.piles[e["pile"]] = 0
        elif t == "refill":
            self.draw(self.seat, e["drawn"], 5)
        elif t == "round_end":
            if e["why"] == "win":
                w = e["winner"]
                assert w == self.seat and not self.payoff[w] and e["scored"] == len(self.payoff[1 - w])
                self.points[w] += e["scored"]
            assert e["points"] == self.points
            self.rounds += 1
            self.turn = 0

    def build(self, e):
        seat, card, pile = self.seat, e["card"], e["pile"]
        src = e["source"]
        if src == "payoff":
            assert self.payoff[seat].pop() == card
        elif src == "hand":
            assert self.hand[seat][card] > 0
            self.hand[seat][card] -= 1
        else:
            assert self.side[seat][int(src[4:])].pop() == card
        v = self.piles[pile]
        assert card in (v + 1, 13) and e["value"] == v + 1, f"{card} onto a pile showing {v}"
        self.piles[pile] = (v + 1) % 12          # a completed pile is empty again before anything else is asked
        self.moved()
        self.expect = ["complete"] if v + 1 == 12 else []
        self.completed = pile
        if not self.payoff[seat]:
            self.expect.append("round_end:win")
        elif self.round_moves >= self.s["max_moves"]:
            self.expect.append("abort")
        elif not sum(self.hand[seat].values()):
            if self.s["refill_empty_hand"]:
                self.expect.append("refill")
            elif not self.can_build(seat):
                self.turn_ends()

    def moved(self):
        self.moves += 1
        self.round_moves += 1

    def turn_ends(self):
        """After the round's max_turns-th turn no turn begins."""
        self.expect.append("abort" if self.turn >= self.s["max_turns"] else "turn")

    def discard(self, e):
        assert self.hand[self.seat][e["card"]] > 0 and 0 <= e["side"] < 4
        self.hand[self.seat][e["card"]] -= 1
        self.side[self.seat][e["side"]].append(e["card"])
        self.moved()
        if self.round_moves >= self.s["max_moves"]:
            self.expect = ["abort"]
        else:
            self.turn_ends()

    def stop(self, e):
        assert not sum(self.hand[self.seat].values()) and self.can_build(self.seat)
        self.turn_ends()


def referee(events):
    ref = Referee(events[0])
    last_end = None
    for e in events[1:-1]:
        ref.event(e, last_end)
        if e["type"] == "round_end":
            last_end = e
    result = events[-1]
    capped = ref.expect == ["abort"]
    assert result["moves"] == ref.moves and result["turns"] == ref.turns
    assert result["rounds"] == ref.rounds + capped and result["points"] == ref.points
    if result["aborted"]:
        assert capped or (not ref.expect and ref.rounds == ref.s["max_games"]), ref.expect
        ref.seen["aborted"] += 1
    else:
        assert not ref.expect
        target, limit = ref.s["target"], ref.s["rounds"]
        if result["winner"] is not None and max(ref.points) >= target:
            assert ref.points[result["winner"]] >= target
        else:
            assert limit and ref.rounds == limit
    return ref.seen


@pytest.mark.parametrize("name", GOLDEN)
def test_the_referee_passes_the_golden_traces(traces, name):
    seen = referee(traces[name].events)
    assert seen["round_end:win"] >= 2 and seen["complete"] >= 1


@pytest.mark.parametrize("rules", [
    {},
    {"payoff_size": 10, "target": 20, "refill_empty_hand": "on", "centre_piles": 4},
    {"payoff_size": 10, "stock_out": "at_once", "rounds": 3},
    {"payoff_size": 3, "target": 4, "rounds": 2},
])
def test_the_referee_passes_random_and_built_in_matches(rules):
    seen = Counter()
    lineups = [["builder", "patient"], ["random", "builder"], ["patient:save_kings=0,side_runs=0", "random"]]
    for deal in range(6):
        trace = analyser.trace("spite_and_malice", seed=21, deal=deal, policies=lineups[deal % 3], rules=rules)
        seen += referee(trace.events)
    assert seen["build"] and seen["discard"] and seen["complete"] and seen["round_end:win"], seen


def test_a_discard_reaching_max_moves_aborts_the_match_at_once():
    # the 57th move of round 0 is a discard: the next turn's draw would have emptied the stock into a
    # stock-out draw (as it does without the cap), and the match gone on to round 1
    args = dict(seed=7, deal=50, policies=["random"])
    free = [e for e in analyser.trace("spite_and_malice", **args, rules={"max_games": 2}).events if e.get("round") == 0]
    assert free[-1]["why"] == "stock_out" and [e["type"] for e in free[-3:-1]] == ["discard", "turn"]
    assert sum(e["type"] in ("build", "discard") for e in free) == 57
    trace = analyser.trace("spite_and_malice", **args, rules={"max_moves": 57, "max_games": 2})
    events = trace.events
    result = events[-1]
    assert result["aborted"] and result["rounds"] == 1 and result["drawn_rounds"] == 0 and result["moves"] == 57
    assert events[-2]["type"] == "discard" and events[-2]["round"] == 0
    assert not [e for e in events if e["type"] == "round_end"]
    assert referee(events)["aborted"] == 1
    assert trace.text().endswith("Result after 57 moves, 42 turns in 1 round: aborted at a cap: no winner.")


@pytest.mark.parametrize("rules", [
    {"max_moves": 58, "max_games": 2},
    {"max_moves": 25, "refill_empty_hand": "on", "payoff_size": 8},
    {"max_moves": 30, "stock_out": "at_once", "payoff_size": 8},
    {"max_turns": 9, "payoff_size": 8},
    {"max_games": 1, "payoff_size": 4},
])
def test_the_referee_passes_capped_matches(rules):
    """A cap ends the round right after the move (or turn) that reaches it: nothing follows."""
    seen = Counter()
    for deal in range(6):
        policies = ["random"] if deal % 2 else ["builder", "random"]
        seen += referee(analyser.trace("spite_and_malice", seed=7, deal=deal, policies=policies, rules=rules).events)
    assert seen["aborted"] >= 3, seen


def test_the_referee_sees_every_kind_of_event():
    seen = Counter()
    for rules, policies, deals in [({"refill_empty_hand": "on", "payoff_size": 12, "rounds": 2}, ["builder"], (0, 1)),
                                   ({"rounds": 1}, ["builder"], (14,)),      # match 14 has a stop
                                   ({"payoff_size": 30, "rounds": 1, "stock_out": "at_once"}, ["random"], (2, 3))]:
        for deal in deals:
            seen += referee(analyser.trace("spite_and_malice", seed=5, deal=deal, policies=policies,
                                           rules=rules).events)
    assert all(seen[k] for k in ("build", "discard", "stop", "complete", "refill", "round_end:win",
                                 "round_end:stock_out")), seen


def test_one_round_cut():
    args = GOLDEN["default"][1]
    whole = analyser.trace("spite_and_malice", **args).events
    one = analyser.trace("spite_and_malice", **args, hand=1).events
    assert one[0] == whole[0]
    assert one[1:] == [e for e in whole if e.get("round") == 1]
    with pytest.raises(analyser.UserError, match=r"rounds 0\.\.3, not 5"):
        analyser.trace("spite_and_malice", **args, hand=5)


def test_text_trace_fits_80_columns_and_tells_the_match():
    text = analyser.trace("spite_and_malice", **GOLDEN["house"][1]).text()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0] == "Spite & Malice, seed 7, match 9"
    assert any(line.startswith("Round 1 — s") for line in lines)
    assert "plays out its payoff pile: wins round 0" in text and "done, stock" in text and "refill" in text
    assert "Result after 185 moves, 51 turns in 3 rounds: s0 (patient:save_kings=0) wins\n  8-7." in text
    assert "Key: t12 s0 +7 9: seat 0's turn 12, drawing 7 9. P:5>b1 its payoff top onto" in text


def test_cli_prints_the_same_trace():
    file, args, cli = GOLDEN["default"]
    out = CliRunner().invoke(app, ["trace", "spite_and_malice", *cli.split(), "--format", "jsonl"])
    assert out.exit_code == 0, out.output
    assert parse(out.output) == parse(analyser.trace("spite_and_malice", **args).jsonl())
    out = CliRunner().invoke(app, ["trace", "spite_and_malice", *cli.split(), "--round", "1"])
    assert out.exit_code == 0 and "Round 1 only." in out.output
    assert "Round 1 — s1 starts (lost the round before)\n" in out.output     # the points before it are unknown


def test_cli_refuses_a_bad_rule_in_one_line():
    out = CliRunner().invoke(app, ["simulate", "spite_and_malice", "-n", "10", "--rule", "centre_piles=5"])
    assert out.exit_code == 2 and "centre_piles=5 is out of range 3..4" in out.output
    assert len(out.output.strip().splitlines()) == 1
