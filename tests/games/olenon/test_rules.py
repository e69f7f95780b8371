"""Scenario tests of the Olenon rules, one rule of the rule book at a time
(docs/rules/olenon.md).

Each scenario opens with a picture of the table: each seat's hand, the cards on
the table (``table: 5 5 (s0)``: two 5s put there by seat 0) and the actions in
order. Positions are built by hand (positions.Table) and stepped by the engine's
own ``step_nb``; the kit's bookkeeping checks and a count of the 32 cards run
after every step. The last part checks the legal actions against the kit's
independent reading on random positions, and plays whole matches.
"""
from collections import Counter

import numpy as np
import pytest

import analyser
from analyser.games.olenon import GAME
from analyser.games.olenon.constants import ACTION, COPIES, DECK, ERROR, N_VALUES, PLAYERS, TABLE, put
from analyser.games.olenon.engine import record_nb
from analyser.games.olenon.kit import OlenonKit, legal_actions
from analyser.games.olenon.records import RECORD_DTYPE
from analyser.games.olenon.state import new_state_nb
from analyser.testing.checks import entry, same_records
from tests.games.olenon.positions import OPEN, POINTERS, STREAMS, Table, action, legal_mask, mask_actions, step

KIT = OlenonKit()


def trick_ends(t):
    return [(e["reason"], e["returned"], e["next"]) for e in t.events("trick_end")]


def record(t):
    out = np.zeros(1, RECORD_DTYPE)
    record_nb(out[0], 0, t.pub, t.hid)
    return out[0]


# --------------------------------------------------------------------------- adding to the table


def twos(on_table):
    """Seat 1's hand beside a table of ``on_table`` 2s: the other 2s of the deck (five in all) and a 5."""
    return "2 " * (5 - on_table) + "5"


@pytest.mark.parametrize("on_table,add", [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)])
def test_adding_cards_of_the_tables_value_up_to_four(on_table, add):
    # table: 2 x on_table (s0)
    #   seat 1  2 x (5 - on_table), 5    adds `add` 2s
    # below 4 cards the trick goes on with seat 2 to act; at 4 it ends ("four") and seat 1 leads
    t = Table(["5 6", twos(on_table), "3 4", "1 1"], seat=1, table="2 " * on_table, owner=0)
    discarded = int(t.pb["discarded"][2])
    legal = t.legal_actions()
    assert [put(2, m) for m in range(1, TABLE - on_table + 1)] == [a for a in legal if a >> 2 == 2]
    assert put(2, TABLE - on_table + 1) not in legal
    assert not t.play("2 " * add)
    assert t.moves() == [(1, "play", [2] * add)]
    if on_table + add < TABLE:
        assert t.table() == [2] * (on_table + add) and t.pb["owner"] == 1 and t.seat == 2
        assert trick_ends(t) == []
    else:
        assert trick_ends(t) == [("four", [None] * 4, 1)]
        assert t.table() == [] and t.seat == 1 and t.pb["leader"] == 1 and t.pb["trick"] == 1
        assert t.pb["discarded"][2] == discarded + 4             # the four 2s are discarded
    assert t.hd["plays"][1] == 1 and t.hd["cards_played"][1] == add and t.hd["replaces"][1] == 0


@pytest.mark.parametrize("on_table,add", [(1, 4), (2, 3), (3, 2)])
def test_adding_beyond_four_cards_is_illegal(on_table, add):
    # table: 2 x on_table (s0); seat 1 holds every other 2 and tries to make the table hold 5
    t = Table(["5 6", twos(on_table), "3 4", "1 1"], seat=1, table="2 " * on_table, owner=0)
    before = t.pub.copy(), t.priv.copy()
    assert t.play(raw=put(2, add))
    assert t.hd["error"] == ERROR.ILLEGAL_ACTION and t.hd["error_seat"] == 1
    assert t.hd["over"] and t.hd["aborted"] and t.hd["actions"] == 0
    assert same_records(t.pub, before[0]) and same_records(t.priv, before[1])      # nothing was played


def test_four_cards_on_an_empty_table_end_the_trick_and_the_same_player_leads():
    # empty table, seat 0 leads
    #   seat 0  2 2 2 2 5    plays 2 2 2 2   <- 4 cards: the trick ends at once, seat 0 leads the next
    t = Table([{2: 4, 5: 1}, "3 4", [3, 5], "1 1"])          # a hand as counts, as a string, as a list
    assert t.hands() == [[2, 2, 2, 2, 5], [3, 4], [3, 5], [1, 1]]
    assert not t.play("2 2 2 2")
    assert trick_ends(t) == [("four", [None] * 4, 0)]
    assert t.seat == 0 and t.pb["leader"] == 0 and t.table() == [] and t.hand(0) == [5]
    assert t.pb["discarded"][2] == COPIES[2]       # the 4 played plus the 1 the builder put in the discards
    assert t.legal_actions() == [put(5, 1)] and t.pb["owner"] == -1


def test_a_lead_is_one_to_four_cards_of_one_value():
    # empty table: seat 0 holding 0 0 0 0 0 3 3 may lead 1-4 0s or 1-2 3s, never 5 cards, never two values
    t = Table(["0 0 0 0 0 3 3", "1", "2", "4"])
    assert t.legal_actions() == [put(0, 1), put(0, 2), put(0, 3), put(0, 4), put(3, 1), put(3, 2)]
    assert ACTION.PASS not in t.legal_actions()


# --------------------------------------------------------------------------- replacing


def test_replace_with_the_same_count_of_a_higher_value():
    # table: 3 3 (s0)
    #   seat 1  2 2 4 4 4 5 5 6   replaces with 4 4: the 3 3 are discarded, seat 1 owns 4 4
    t = Table(["1 1", "2 2 4 4 4 5 5 6", "0 0", "6 6"], seat=1, table="3 3", owner=0)
    legal = t.legal_actions()
    assert legal == [put(4, 2), put(5, 2), ACTION.PASS]     # no 3 to add; 2 2 lower, 6 single
    discarded = t.pb["discarded"][3]
    assert not t.play("4 4")
    assert t.events("replace") == [{"type": "replace", "round": 0, "seat": 1, "cards": [4, 4],
                                    "discarded": [3, 3]}]
    assert t.table() == [4, 4] and t.pb["owner"] == 1 and t.pb["discarded"][3] == discarded + 2
    assert t.hand(1) == [2, 2, 4, 5, 5, 6] and t.seat == 2
    assert t.hd["replaces"][1] == 1 and t.hd["plays"][1] == 0 and t.hd["cards_played"][1] == 2


ILLEGAL_REPLACES = {
    # table: 3 3 (s0); seat 1 holds 2 2 4 4 4 5 5 6 3
    "a lower value": ("2 2", "3 3"),
    "a different count (fewer)": ("4", "3 3"),
    "a different count (more)": ("4 4 4", "3 3"),
    "a value not held twice": ("6 6", "3 3"),
    # table: 3 3 3 (s0); seat 1 holds a 3: "3 3 3" would be an equal value, i.e. an addition to 6 cards
    "an equal value": ("3 3 3", "3 3 3"),
    # table: 5 5 (s0): 0 beats only 6
    "0 over 5": ("0", "5"),
}


@pytest.mark.parametrize("move,table", ILLEGAL_REPLACES.values(), ids=ILLEGAL_REPLACES.keys())
def test_an_illegal_replace_stops_the_match(move, table):
    t = Table(["1 1", "0 0 2 2 3 4 4 4 6", "0 0", "6 6"], seat=1, table=table, owner=0)
    assert t.play(raw=action(move))
    assert t.hd["error"] == ERROR.ILLEGAL_ACTION and t.hd["error_seat"] == 1 and t.hd["aborted"]


def test_a_replace_matches_the_cards_on_the_table_now_after_passes():
    # table: 5 5 5 (s0)
    #   seat 1  takes 5           table 5 5
    #   seat 2  6 6 6 1           can replace with exactly two 6s now, not three
    t = Table(["1 1", "0 2", "6 6 6 1", "0 3"], leader=0, seat=1, table="5 5 5", owner=0)
    t.play("pass")
    assert t.seat == 2 and t.legal_actions() == [put(6, 2), ACTION.PASS]
    t.play("6 6")
    assert t.table() == [6, 6] and t.pb["discarded"][5] >= 2 and t.events("replace")[0]["discarded"] == [5, 5]


@pytest.mark.parametrize("count", [1, 2, 3])
def test_zero_beats_six(count):
    # table: 6 x count (s0)
    #   seat 1  0 0 0 1       replaces with count 0s
    t = Table(["1 1", "0 0 0 1", "2 2", "3 3"], seat=1, table="6 " * count, owner=0)
    assert put(0, count) in t.legal_actions()
    t.play("0 " * count)
    assert t.table() == [0] * count and t.pb["owner"] == 1
    assert t.events("replace")[0]["discarded"] == [6] * count


@pytest.mark.parametrize("value", [0, 1, 2, 3, 4, 5])
def test_zero_beats_nothing_but_six(value):
    # table: value (s0); seat 1 holds 0s and one card of every other value: a 0 never replaces
    hand = [0, 0] + [v for v in range(1, N_VALUES) if v != value]
    t = Table(["1" if value != 1 else "2", hand, "3" if value != 3 else "4", "5" if value != 5 else "6"],
              seat=1, table=str(value), owner=0)
    legal = t.legal_actions()
    assert (put(0, 1) in legal) == (value == 0)       # on a table of 0s it is an addition, not a replace
    assert [a >> 2 for a in legal if a != ACTION.PASS and a >> 2 != value] == [w for w in hand if w > value]
    if value != 0:
        assert t.play(raw=put(0, 1)) and t.hd["error"] == ERROR.ILLEGAL_ACTION


def test_anything_higher_beats_a_zero_so_the_values_go_round():
    # table: 6 (s0); seat 1 replaces with 0, seat 2 with 1, seat 3 with 2
    t = Table(["5 5", "0 3", "1 3", "2 4"], seat=1, table="6", owner=0)
    t.plays("0", "1", "2")
    assert [(e["seat"], e["cards"], e["discarded"]) for e in t.events("replace")] == \
        [(1, [0], [6]), (2, [1], [0]), (3, [2], [1])]


# --------------------------------------------------------------------------- passing


def test_a_pass_takes_one_card_face_up_and_the_passer_is_skipped():
    # table: 5 5 5 (s0)
    #   seat 1  0 1        takes 5 (its only action)   table 5 5
    #   seat 2  6 6 4      replaces with 6 6           table 6 6 (s2)
    #   seat 3  1 6        adds 6                      table 6 6 6 (s3)
    #   seat 0  6 3        takes 6                     table 6 6; seat 1 has passed: skipped, seat 2 acts
    #   seat 2  4          takes 6 (its only action)   seats 0 and 2 have passed: the trick ends, s3 leads
    t = Table(["6 3", "0 1", "6 6 4", "1 6"], seat=1, table="5 5 5", owner=0)
    t.play("pass")
    assert t.passed() == [None, 5, None, None] and t.table() == [5, 5] and t.hand(1) == [0, 1]
    assert t.pb["hand_len"][1] == 2 and t.seat == 2 and t.hd["decisions"] == 0
    assert t.events("pass") == [{"type": "pass", "round": 0, "seat": 1, "card": 5}]
    t.play("6 6")
    assert t.seat == 3
    t.play("6")
    assert t.seat == 0 and t.table() == [6, 6, 6] and t.pb["owner"] == 3
    t.play("pass")
    assert t.passed() == [6, 5, None, None] and t.seat == 2 and t.table() == [6, 6] and t.hd["decisions"] == 3
    t.play("pass")
    assert trick_ends(t) == [("team_passed", [6, 5, 6, None], 3)]
    assert t.hands() == [[3, 6, 6], [0, 1, 5], [4, 6], [1]] and t.hd["passes"][0] == t.hd["passes"][1] == 1
    assert [s for s, _, _ in t.moves()] == [1, 2, 3, 0, 2]


def test_no_pass_on_an_empty_table():
    # empty table, seat 0 leads: a pass is not among its actions and answering one is illegal
    t = Table(["1 2", "3", "4", "5"])
    assert ACTION.PASS not in t.legal_actions()
    assert t.play(raw=ACTION.PASS) and t.hd["error"] == ERROR.ILLEGAL_ACTION and t.hd["error_seat"] == 0


def test_a_pass_that_empties_the_table_the_trick_goes_on():
    # table: 6 (s0)
    #   seat 1  2 3        takes 6         table empty; seat 1 stays passed
    #   seat 2  1 1 5      must play onto the empty table (no pass): plays 1
    #   seat 3  1 4        adds 1          table 1 1 (s3)
    #   seat 0  3 3        takes 1         table 1; seat 1 is skipped
    #   seat 2  1 5        takes 1         seats 0 and 2 have passed: the trick ends, seat 3 leads
    t = Table(["3 3", "2 3", "1 1 5", "1 4"], seat=1, table="6", owner=0)
    t.play("pass")
    assert t.table() == [] and t.pb["table_value"] == -1 and t.passed() == [None, 6, None, None]
    assert t.seat == 2 and trick_ends(t) == []
    assert ACTION.PASS not in t.legal_actions() and put(1, 2) in t.legal_actions()
    t.play("1")
    assert t.seat == 3
    t.play("1")
    assert t.seat == 0 and t.table() == [1, 1] and t.pb["owner"] == 3
    t.play("pass")
    assert t.seat == 2 and t.passed() == [1, 6, None, None]
    t.play("pass")
    assert trick_ends(t) == [("team_passed", [1, 6, 1, None], 3)]
    assert t.hands() == [[1, 3, 3], [2, 3, 6], [1, 1, 5], [4]] and t.seat == 3 and t.passed() == [None] * 4


def test_a_pass_that_empties_the_table_and_completes_a_team_ends_the_trick():
    # table: 6 (s0)
    #   seat 1  2 3       takes 6    table empty, the trick goes on
    #   seat 2  1 5       plays 1    table 1 (s2)
    #   seat 3  4 4       takes 1    seats 1 and 3 have passed: the trick ends with the table empty, s2 leads
    t = Table(["3 3", "2 3", "1 5", "4 4"], seat=1, table="6", owner=0)
    t.plays("pass", "1", "pass")
    assert trick_ends(t) == [("team_passed", [None, 6, None, 1], 2)]
    assert t.hands() == [[3, 3], [2, 3, 6], [5], [1, 4, 4]] and t.seat == 2


PASS_ORDERS = {
    # table: 4 4 4 (s0); seat 1 takes 4, seat 2 takes 4, seat 3 takes 4: seats 1 and 3 (team 1), not
    # one after the other, end the trick with the table empty; seat 0 leads
    "team 1, s2 between": (0, ["pass", "pass", "pass"], "team_passed", [None, 4, 4, 4], 0, []),
    # table: 4 4 4 (s2); seat 3 takes 4, seat 0 takes 4 (one 4 left), seat 1 takes the last: seats 3 and 1
    # of team 1 end it, with seat 0 of the other team passing between them
    "team 1 across the table's turn": (2, ["pass", "pass", "pass"], "team_passed", [4, 4, None, 4], 2, []),
    # table: 4 4 4 (s1); seat 2 takes 4, seat 3 replaces with 5 5, seat 0 takes 5: team 0 ends it,
    # one 5 left on the table is discarded, seat 3 leads
    "team 0 after a replace": (1, ["pass", "5 5", "pass"], "team_passed", [5, None, 4, None], 3, [4, 4, 5]),
}


@pytest.mark.parametrize("owner,moves,reason,returned,leader,left", PASS_ORDERS.values(), ids=PASS_ORDERS.keys())
def test_a_teams_two_passes_in_any_order_end_the_trick(owner, moves, reason, returned, leader, left):
    hands = ["1 2 6", "1 3 6", "0 2 6", "0 5 5"]
    t = Table(hands, leader=owner, seat=(owner + 1) % 4, table="4 4 4", owner=owner)
    discarded = t.pb["discarded"].copy()
    t.plays(*moves)
    assert trick_ends(t) == [(reason, returned, leader)]
    assert t.seat == leader and t.pb["leader"] == leader and t.table() == [] and t.passed() == [None] * 4
    for s in range(PLAYERS):                # the passed cards went back into the hands
        if returned[s] is not None:
            assert returned[s] in t.hand(s) and len(t.hand(s)) == len(hands[s].split()) + 1
    new = t.pb["discarded"] - discarded
    assert [v for v in range(N_VALUES) for _ in range(int(new[v]))] == left       # replaced and left on the table


def test_three_passes_in_a_trick_always_include_a_team():
    # table: 4 4 4 (s0): seat 1 takes, seat 2 takes (one of each team, the trick goes on, table 4);
    # seat 3 takes: team 1 is complete. A trick never reaches a fourth pass.
    t = Table(["1 2", "1 3", "0 2", "0 5"], seat=1, table="4 4 4", owner=0)
    t.play("pass")
    t.play("pass")
    assert t.passed() == [None, 4, 4, None] and trick_ends(t) == [] and t.seat == 3
    t.play("pass")
    assert len(trick_ends(t)) == 1


def test_the_next_leader_is_the_last_player_to_put_cards_down_not_the_last_to_act():
    # table: 3 3 3 (s0)
    #   seat 1  4 4 4 1    replaces with 4 4 4 (s1)
    #   seat 2  0 2        takes 4
    #   seat 3  0 5        takes 4
    #   seat 0  1 2        takes 4      team 0 complete; the table is empty; seat 1 (the last to put down) leads
    t = Table(["1 2", "4 4 4 1", "0 2", "0 5"], seat=1, table="3 3 3", owner=0)
    t.plays("4 4 4", "pass", "pass", "pass")
    assert trick_ends(t) == [("team_passed", [4, None, 4, 4], 1)]
    assert t.seat == 1 and t.hands() == [[1, 2, 4], [1], [0, 2, 4], [0, 4, 5]]


# --------------------------------------------------------------------------- going out


def test_going_out_on_a_play_that_also_fills_the_table_ends_the_round_at_once():
    # table: 0 (s0), seat 1 has passed (took a 0)
    #   seat 2  0 0 0     adds 0 0 0: 4 cards on the table AND its last cards -> it goes out
    # the round ends at once: no trick_end, seat 1's passed 0 is not picked up; rounds=1: the match is over
    t = Table(["1 2", "1 3", "0 0 0", "2 4"], seat=2, table="0", owner=0, passed=[None, 0, None, None], rounds=1)
    assert t.play("0 0 0")
    assert trick_ends(t) == [] and t.events("round_end") == [{"type": "round_end", "round": 0, "winner_team": 0,
                                                              "seat": 2}]
    assert t.passed() == [None, 0, None, None] and t.hand(1) == [1, 3] and t.table() == [0, 0, 0, 0]
    assert t.hd["over"] and not t.hd["aborted"] and t.hd["winner"] == 0 and list(t.pb["team_rounds"]) == [1, 0]
    assert t.hd["goes_out"][2] == 1 and t.hd["rounds_played"] == 1


def test_going_out_with_rounds_to_go_the_next_round_is_dealt_fresh():
    # the position above with rounds=2: round 1 is dealt (7 cards each, 4 set aside) and the passed card is gone with
    # the old round; round 1's starter is the seat after round 0's (rotate)
    t = Table(["1 2", "1 3", "0 0 0", "2 4"], seat=2, table="0", owner=0, passed=[None, 0, None, None], starter=0)
    assert not t.play("0 0 0")
    kinds = [e["type"] for e in t.events()]
    assert kinds == ["play", "round_end", "deal"]
    assert t.pb["round"] == 1 and t.pb["starter"] == 1 and t.seat == 1 and t.pb["trick"] == 0
    assert list(t.pb["hand_len"]) == [7] * 4 and t.passed() == [None] * 4 and t.table() == []
    assert t.pb["discarded"].sum() == 0 and list(t.pb["team_rounds"]) == [1, 0]


def test_going_out_by_a_replace():
    # table: 4 4 (s0)
    #   seat 1  6 6       replaces with 6 6: its last cards, team 1 wins the round
    t = Table(["1 2", "6 6", "3 3 5", "0 4"], seat=1, table="4 4", owner=0, won=(0, 1))
    assert t.play("6 6")
    assert [e["type"] for e in t.events()] == ["replace", "round_end"]
    assert t.events("round_end")[0]["winner_team"] == 1 and t.hd["winner"] == 1 and list(t.pb["team_rounds"]) == [
        0, 2]
    assert t.hd["replaces"][1] == 1 and t.hd["goes_out"][1] == 1


def test_going_out_on_a_lead():
    # empty table, seat 3 leads its whole hand 2 2 2
    t = Table(["1 2", "6 6", "3 3 5", "2 2 2"], leader=3, rounds=1)
    assert t.play("2 2 2")
    assert t.hd["winner"] == 1


def test_a_pass_never_goes_out():
    # table: 6 (s0); seat 1 holds one card and passes: it still holds it (the taken 6 lies face up)
    t = Table(["1 2", "3", "3 3 5", "2 2"], seat=1, table="6", owner=0)
    assert not t.play("pass")
    assert t.hand(1) == [3] and t.events("round_end") == []


# --------------------------------------------------------------------------- rounds and the match


@pytest.mark.parametrize("round_starter,starter,out,next_starter",
                         [(0, 2, 1, 3), (0, 3, 1, 0), (1, 2, 1, 1), (1, 0, 3, 3)])
def test_the_next_rounds_starter_rotates_or_is_the_winner(round_starter, starter, out, next_starter):
    # seat `out` holds one 6 and leads it on an empty table: it goes out. rotate: the seat after this
    # round's starter starts the next round; winner: the seat that went out does
    hands = ["1 2"] * 4
    hands[out] = "6"
    t = Table(hands, leader=out, starter=starter, round_starter=round_starter)
    assert not t.play()
    deal = t.events("deal")
    assert len(deal) == 1 and deal[0]["starter"] == next_starter and deal[0]["round"] == 1
    assert t.pb["starter"] == next_starter and t.seat == next_starter and t.pb["leader"] == next_starter
    assert Counter(c for h in deal[0]["hands"] for c in h) + Counter(deal[0]["set_aside"]) == Counter(DECK.tolist())


@pytest.mark.parametrize("rounds,won,out,over", [(1, (0, 0), 0, True), (2, (1, 0), 0, True), (2, (1, 0), 1, False),
                                                 (3, (2, 2), 1, True), (3, (1, 2), 0, False), (9, (8, 0), 2, True)])
def test_the_match_ends_when_a_team_has_won_rounds_rounds(rounds, won, out, over):
    # empty table, rounds won `won` (team 0, team 1); seat `out` holds one 6 and leads it: it goes out
    #   seat out  6          the others  1 2
    # its team's rounds reach `rounds`: the match is over (both partners win), else the next round is dealt
    hands = ["1 2"] * 4
    hands[out] = "6"
    t = Table(hands, leader=out, rounds=rounds, won=won)
    assert t.play() == over
    team = out & 1
    want = list(won)
    want[team] += 1
    assert list(t.pb["team_rounds"]) == want and bool(t.hd["over"]) == over
    assert t.hd["winner"] == (team if over else -1) and not t.hd["aborted"]
    if over:
        rec = record(t)
        assert list(rec["win"][:4]) == [1.0 if s & 1 == team else 0.0 for s in range(4)]
        assert list(rec["rank"][:4]) == [1 if s & 1 == team else 2 for s in range(4)]
        assert list(rec["score"][:4]) == [want[s & 1] for s in range(4)]
        assert rec["rounds"] == sum(won) + 1 and not rec["aborted"]
    else:
        assert t.pb["round"] == sum(won) + 1


# --------------------------------------------------------------------------- the cap


LOOP = ["3 3 5", "3 4 4 5", "3 4 5", "4 5"]     # the rule book's example with a 5 added to every hand


def loop_trick(t):
    """The looping trick: the leader plays a pair, the next seat adds one, the other three pass."""
    pair = [v for v in range(N_VALUES) if t.priv[t.seat]["hand"][v] >= 2][0]
    t.plays(f"{pair} {pair}", str(pair), "pass", "pass", "pass")


def test_the_rule_books_looping_example_does_not_loop_its_leader_goes_out():
    # RULE BOOK ERROR (not a code bug): the Cap section's example, seat 0 leading
    #   seat 0  3 3      seat 1  3 4 4      seat 2  3 4      seat 3  4
    # "a two-card play, one addition and three passes discard nothing": but seat 0's two-card play is its
    # whole hand, so it goes out at once. No seat can lead a pair and keep a card here except seat 1, and
    # after seat 1's trick seat 2 leads holding a single 3. A loop of that shape needs hand sizes
    # (x, x+1, x, x-1) from the leader with x >= 3; see LOOP for the smallest one (12 cards).
    t = Table(["3 3", "3 4 4", "3 4", "4"], rounds=1)
    assert t.play("3 3")
    assert t.events("round_end")[0]["seat"] == 0 and not t.hd["aborted"]
    t = Table(["3 3", "3 4 4", "3 4", "4"], leader=1, rounds=1)
    t.plays("4 4", "4", "pass", None, None)          # seat 3 passes (it could add a 4), seats 0 and 1 must pass
    assert trick_ends(t) == [("team_passed", [4, 4, None, 4], 2)]
    assert t.hands() == [[3, 3, 4], [3, 4], [3], [4, 4]] and t.seat == 2
    assert t.play() and t.events("round_end")[0]["seat"] == 2      # its only action: lead the 3, going out


def test_a_looping_round_is_aborted_at_the_cap():
    # the loop: seat 0 3 3 5, seat 1 3 4 4 5, seat 2 3 4 5, seat 3 4 5, seat 0 leads
    #   s0 3 3, s1 3, s2 takes 3, s3 takes 3, s0 takes 3 | team 0 passed, nothing discarded; s1 leads
    #   s1 4 4, s2 4, s3 takes 4, s0 takes 4, s1 takes 4 | team 1 passed; s2 leads ... after four tricks
    # every hand is as before and seat 0 leads again. 5 actions a trick: with max_actions=200 (the default
    # 2,000 is the same count, ten times the steps) 40 tricks reach the cap, and the next step aborts the
    # round and the match (round 1 of a match that team 0 leads 1-0).
    t = Table(LOOP, won=(1, 0), max_actions=200)
    start, discarded = t.hands(), t.pb["discarded"].copy()
    for k in range(40):
        loop_trick(t)
        if k % 4 == 3:
            assert t.hands() == start and t.seat == 0
        assert not t.hd["over"]
    assert t.hd["round_actions"] == 200 and t.hd["actions"] == 200
    assert (t.pb["discarded"] == discarded).all()
    assert trick_ends(t)[0] == ("team_passed", [3, None, 3, 3], 1) and len(trick_ends(t)) == 40
    assert t.play(raw=put(3, 2))                    # the 201st action is not played
    assert t.hd["over"] and t.hd["aborted"] and t.hd["error"] == ERROR.NONE and t.hd["winner"] == -1
    assert t.hd["actions"] == 200 and t.hd["rounds_played"] == 2 and list(t.pb["team_rounds"]) == [1, 0]
    rec = record(t)
    assert rec["aborted"] and not rec["win"].any() and not rec["rank"].any() and not rec["score"].any()
    assert rec["length"] == 200 and rec["rounds"] == 2


def test_the_cap_counts_plays_replaces_passes_and_forced_moves_not_skipped_turns():
    # max_actions=4; table: 3 3 (s0)
    #   seat 1  2 6      takes 3 (forced: no 3, no pair above)    table 3
    #   seat 2  5 5 0    replaces with 5                          table 5 (s2)
    #   seat 3  5 6 6    adds 5                                   table 5 5 (s3)
    #   seat 0  0 1      takes 5 (forced)                         table 5; 4 actions
    #   seat 1  skipped (not an action); seat 2 is to act: the step aborts the round and the match
    t = Table(["0 1", "2 6", "5 5 0", "5 6 6"], seat=1, table="3 3", owner=0, max_actions=4)
    t.plays(None, "5", "5", None)
    assert t.hd["round_actions"] == 4 and t.seat == 2 and not t.hd["over"] and t.hd["decisions"] == 2
    assert t.play(raw=ACTION.PASS)
    assert t.hd["aborted"] and t.hd["actions"] == 4 and t.passed() == [5, 3, None, None] and t.table() == [5]


def test_going_out_on_the_last_action_under_the_cap_counts():
    # max_actions=1: seat 0 leads its whole hand (the round's only action) and goes out: the round is won,
    # not aborted; the next round starts with its own count of actions
    t = Table(["6 6", "1 2", "1 2", "1 2"], max_actions=1)
    assert not t.play("6 6")
    assert not t.hd["aborted"] and list(t.pb["team_rounds"]) == [1, 0] and t.hd["round_actions"] == 0
    assert not t.play(raw=t.legal_actions()[0])  # round 1's first action (a lead of 1-4 of its 7 cards)
    assert t.play(raw=t.legal_actions()[0]) and t.hd["aborted"] and t.hd["error"] == ERROR.NONE   # over the cap


# --------------------------------------------------------------------------- policies' answers


ILLEGAL = {
    "negative": -1,
    "past the last action": ACTION.COUNT,
    "padding": 31,
    "a card not held": put(6, 1),
    "a pass on an empty table": ACTION.PASS,
}


@pytest.mark.parametrize("raw", ILLEGAL.values(), ids=ILLEGAL.keys())
def test_an_illegal_action_stops_the_match_naming_the_seat(raw):
    # empty table, seat 2 leads holding 1 1 2: any of the five answers is illegal
    t = Table(["0 3", "0 4", "1 1 2", "5"], leader=2)
    before = t.pub.copy(), t.priv.copy()
    assert t.play(raw=raw)
    assert t.hd["error"] == ERROR.ILLEGAL_ACTION and t.hd["error_seat"] == 2
    assert t.hd["over"] and t.hd["aborted"] and t.hd["actions"] == 0 and t.hd["decisions"] == 1
    assert same_records(t.pub, before[0]) and same_records(t.priv, before[1])
    rec = record(t)
    assert rec["error"] == ERROR.ILLEGAL_ACTION and rec["error_seat"] == 2 and rec["aborted"]


def test_a_match_stopped_by_an_illegal_action_counts_the_round_it_stopped_in():
    # round 1 of a match team 0 leads 1-0; seat 2 answers -1
    t = Table(["0 3", "0 4", "1 1 2", "5"], leader=2, won=(1, 0))
    assert t.play(raw=-1)
    assert record(t)["rounds"] == 2          # the capped match in test_a_looping_round_is_aborted_at_the_cap: 2


def test_a_policy_is_asked_only_with_two_or_more_legal_actions():
    # table: 6 6 (s0); seat 1 holds 1 2: only a pass. Its policy would answer an illegal action, but it is
    # not asked: the engine passes for it and no decision is counted
    t = Table(["0 1", "1 2", "0 0 5", "3 4"], seat=1, table="6 6", owner=0)
    t.params[1, 0] = put(1, 1)
    step(1, 0, t.settings, STREAMS, t.policies, POINTERS, t.params, t.pub, t.priv, t.hid, t.legal, t.log)
    assert t.hd["error"] == ERROR.NONE and t.passed()[1] == 6 and t.hd["decisions"] == 0 and t.hd["actions"] == 1
    t.play("0")                                       # seat 2: replace the 6 left with a 0, or pass: a decision
    assert t.hd["decisions"] == 1


# --------------------------------------------------------------------------- what is public


def test_talk_open_shows_every_hand_and_keeps_it_up_to_date():
    # talk=open; table: 3 (s0); seat 1 replaces with 4, seat 2 takes 4, seat 3 adds 4, seat 0 takes 4
    # (team 0): the open hands follow every card, the passed cards back in too
    t = Table(["0 1", "4 5", "2 6", "4 4 6"], seat=1, table="3", owner=0, talk=OPEN)
    for move in ("4", "pass", "4", "pass"):
        t.play(move)
        for s in range(PLAYERS):
            assert list(t.pb["open"][s]) == list(t.priv[s]["hand"])
    assert trick_ends(t) == [("team_passed", [4, None, 4, None], 3)]
    assert list(t.pb["open"][0]) == [1, 1, 0, 0, 1, 0, 0]


def test_talk_open_shows_the_new_rounds_hands_but_never_the_set_aside_cards():
    # talk=open, empty table: seat 0 leads its only card, 6, and goes out; round 1 is dealt
    #   seat 0  6      seats 1-3  1 2
    t = Table(["6", "1 2", "1 2", "1 2"], talk=OPEN)
    t.play()
    assert t.pb["round"] == 1
    for s in range(PLAYERS):
        assert list(t.pb["open"][s]) == list(t.priv[s]["hand"]) and t.pb["open"][s].sum() == 7
    assert t.pb["open"].sum() == 28      # 32 cards less the 4 set aside, which are nowhere in pub


def test_talk_none_leaves_the_open_hands_zero():
    # the two positions above with talk=none: the same moves, a new deal, and pub["open"] stays zero
    t = Table(["0 1", "4 5", "2 6", "4 4 6"], seat=1, table="3", owner=0)
    t.plays("4", "pass", "4", "pass")
    assert not t.pb["open"].any()
    t = Table(["6", "1 2", "1 2", "1 2"])
    t.play()
    assert t.pb["round"] == 1 and not t.pb["open"].any()


# --------------------------------------------------------------------------- legal actions


def random_position(rng):
    """A random table (0-3 cards of a value) and a hand the deck can hold beside it."""
    pub, priv, _, _ = new_state_nb()
    pb = pub[0]
    k = int(rng.integers(0, TABLE))
    v = int(rng.integers(0, N_VALUES)) if k else -1
    if k and k > COPIES[v]:
        k = COPIES[v]
    pb["table_len"], pb["table_value"] = k, v
    left = np.array(COPIES) - (np.eye(N_VALUES, dtype=int)[v] * k if k else 0)
    hand = np.array([rng.integers(0, c + 1) if rng.random() < 0.6 else 0 for c in left], np.int8)
    if hand.sum() == 0:
        w = int(rng.integers(0, N_VALUES))
        hand[w] = min(left[w], 1 + int(rng.integers(0, 3)))
    return pub, hand


def test_the_legal_mask_is_the_rule_books_on_random_positions():
    rng = np.random.default_rng(17)
    kinds = Counter()
    for _ in range(3000):
        pub, hand = random_position(rng)
        got = mask_actions(legal_mask(pub, hand))
        assert got == legal_actions(pub[0], hand), (int(pub[0]["table_len"]), int(pub[0]["table_value"]), hand)
        k, v = int(pub[0]["table_len"]), int(pub[0]["table_value"])
        for a in got:
            kinds["pass" if a == ACTION.PASS else "lead" if k == 0 else "add" if a >> 2 == v else "replace"] += 1
        kinds["zero over six"] += k > 0 and v == 6 and put(0, k) in got
    assert all(kinds[x] > 50 for x in ("pass", "lead", "add", "replace", "zero over six")), kinds


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("talk", ["none", "open"])
def test_random_playouts_set_four_cards_aside_and_end_every_match(talk):
    """(That every card is somewhere at every action is the kit's playouts check.)"""
    runner = entry(GAME, 4, "random", {"talk": talk, "round_starter": "winner" if talk == "open" else "rotate"})
    seen = Counter()
    for unit in range(50):
        pos = None
        for pos in KIT.play(7, unit, 4, runner.settings, runner.fns, runner.params, runner.streams):
            places = pos.locations()
            assert len(places["set_aside"]) == 4 and sum(len(places[f"passed{s}"]) for s in range(4)) <= 3
            if talk == "none":
                assert not pos.pub[0]["open"].any()
        hd = pos.hid[0]
        assert hd["over"] and not hd["aborted"] and hd["error"] == ERROR.NONE
        seen["rounds"] += int(hd["rounds_played"])
        seen["passes"] += int(hd["passes"].sum())
        seen["replaces"] += int(hd["replaces"].sum())
        assert max(pos.pub[0]["team_rounds"]) == 2 and pos.decision() is None
    assert seen["passes"] > 0 and seen["replaces"] > 0 and seen["rounds"] >= 100


def test_first_starters_are_drawn_from_the_match_stream():
    rec = analyser.simulate("olenon", policies="shed", n=64, seed=5, threads=1).records
    assert set(rec["first"].tolist()) == {0, 1, 2, 3}
    other = analyser.simulate("olenon", policies="random", n=64, seed=5, threads=1).records
    assert (rec["first"] == other["first"]).all()     # the same stream, whatever the policies
    assert not rec["aborted"].any() and (rec["rounds"] >= 2).all() and (rec["rounds"] <= 3).all()
    assert (rec["goes_out"][:, :4].sum(axis=1) == rec["rounds"]).all()


def test_a_round_as_the_unit_is_a_match_of_one_round():
    rec = analyser.simulate("olenon", policies="shed", n=32, seed=5, threads=1, unit="round").records
    assert (rec["rounds"] == 1).all() and (rec["rounds_won"][:, :4].max(axis=1) == 1).all()
    assert (rec["win"][:, :4].sum(axis=1) == 2).all()
