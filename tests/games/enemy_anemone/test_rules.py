"""Scenario tests of the Enemy Anemone rules, one rule of the rule book at a time
(docs/rules/enemy_anemone.md).

Each scenario opens with a picture of the table: a seat's hand, the tokens it
holds (``[+2 +1]``), the cards played in order with their values. Positions are
built by hand (positions.Table) and stepped by the engine's own ``step_nb``; the
kit's bookkeeping checks (hand sizes, discard counts, won points, the played
mask, nine tokens) run after every step. The last part plays whole matches:
cards and tokens conserved, starters, the 2-player trick, reproducibility.
"""
from collections import Counter

import numpy as np
import pytest

import analyser
from analyser.games.enemy_anemone import GAME
from analyser.games.enemy_anemone.constants import ERROR, MAX_PLAYERS, N_CARDS, POINTS, card_name, card_of
from analyser.games.enemy_anemone.engine import record_nb
from analyser.games.enemy_anemone.kit import AnemoneKit
from analyser.games.enemy_anemone.records import RECORD_DTYPE
from analyser.games.enemy_anemone.rules import deck_nb
from analyser.games.enemy_anemone.state import new_state_nb
from analyser.testing.checks import entry, same_records
from tests.games.enemy_anemone.positions import Table, names

KIT = AnemoneKit()

SUPPLY, REMOVED = 0, 1
MIXES = ["timing", "random", "lowball", "greedy", "timing", "random"]   # policies around the table


def tokens_events(t):
    return [(e["seat"], e["from"], e["value"]) for e in t.events("token")]


def attached(play_event):
    """The value of the tokens a play event says were attached."""
    tokens = play_event["tokens"]
    return sum(tokens) if isinstance(tokens, list) else tokens


def trick_events(t):
    return [(e["winner"], e["low"], sorted(e["cards"])) for e in t.events("trick")]


# --------------------------------------------------------------------------- winning a trick: ties


def test_equal_values_the_later_card_is_the_higher_and_the_lower():
    # 4 players, seat 0 leads, trick 0 of 10
    #   seat 0  A5 B2   plays A5   5
    #   seat 1  B7 C2   plays B7   7
    #   seat 2  C7 D4   plays C7   7   <- the later 7: wins
    #   seat 3  D5 A1   plays D5   5   <- the later 5: lowest, takes the token
    t = Table(["A5 B2", "B7 C2", "C7 D4", "D5 A1"])
    t.plays("A5", "B7", "C7", None)
    assert trick_events(t) == [(2, 3, ["A5", "B7", "C7", "D5"])]
    assert sorted(t.won(2)) == ["A5", "B7", "C7", "D5"] and t.won(0) == t.won(1) == t.won(3) == []
    assert t.all_tokens() == [[], [], [], [1]] and t.pb["supply"] == 8
    assert t.seat == 2 and t.pb["trick"] == 1 and t.trick() == []


@pytest.mark.parametrize("leader", [0, 1, 2])
def test_all_equal_values_the_last_card_wins_and_takes_the_token(leader):
    # 3 players, every card a 4: the last one played (the seat before the leader) wins and takes the token
    #   seat 0  A4 A9     seat 1  B4 B9     seat 2  C4 C9      each plays its 4
    t = Table(["A4 A9", "B4 B9", "C4 C9"], leader=leader)
    order = [(leader + k) % 3 for k in range(3)]
    t.plays(*("ABC"[s] + "4" for s in order))
    last = order[-1]
    assert trick_events(t) == [(last, last, ["A4", "B4", "C4"])]
    assert t.tokens(last) == [1] and t.seat == last


def test_all_equal_values_with_tokens_attached():
    # 3 players, seat 1 leads
    #   seat 1  B4 B9          plays B4          4
    #   seat 2  C4 C9          plays C4          4
    #   seat 0  A2 B8  [+2]    plays A2 with +2  4   <- last of three equal values: wins and takes a token;
    #                                                   it spent its only token, so a new +1 from the supply
    t = Table(["A2 B8", "B4 B9", "C4 C9"], leader=1, twos=[1, 0, 0])
    t.plays("B4", "C4")
    assert t.legal_cards() == ["A2"] and t.hd["decisions"] == 2
    t.play("A2", twos=1)                     # one legal card, but whether to attach is a decision: it is asked
    assert t.hd["decisions"] == 3
    assert [(e["seat"], e["card"], attached(e), e["value"]) for e in t.events("play")][-1] == (0, "A2", 2, 4)
    assert trick_events(t) == [(0, 0, ["A2", "B4", "C4"])]
    assert tokens_events(t) == [(0, "supply", 1)]
    assert t.all_tokens() == [[1], [], []] and t.pb["supply"] == 8


def test_a_card_with_tokens_attached_can_be_the_lowest_and_its_player_takes_a_token():
    # 3 players, seat 0 leads
    #   seat 0  A2 A9  [+2 +1]  plays A2 with the +2: 4   <- lowest: takes a token, and flips the +1 it kept
    #   seat 1  B6 B9           plays B6           6   <- wins
    #   seat 2  C5 C9           plays C5           5
    t = Table(["A2 A9", "B6 B9", "C5 C9"], ones=[1, 0, 0], twos=[1, 0, 0])
    t.play("A2", twos=1)
    t.plays("B6", "C5")
    assert trick_events(t) == [(1, 0, ["A2", "B6", "C5"])]
    assert tokens_events(t) == [(0, "flip", 2)]
    assert t.all_tokens() == [[2], [], []] and t.pb["supply"] == 8    # 7 + the +2 spent; the flip takes none


def test_a_trick_with_a_single_played_card():
    # 3 players, seat 0 leads A6; seats 1 and 2 hold only suit A, so they discard (face down, not in the trick)
    #   seat 0  A6 B3   plays A6       <- the only card played: wins the trick and takes the token
    #   seat 1  A2 A9   discards A9
    #   seat 2  A4 A8   discards A4
    t = Table(["A6 B3", "A2 A9", "A4 A8"])
    t.play("A6")
    assert t.seat == 1 and t.pb["discard"] and t.legal_cards() == ["A2", "A9"]
    t.play("A9")
    assert t.trick() == [("A6", 0, 6)] and t.discarded(1) == ["A9"] and t.pb["discards"][1] == 1
    assert t.seat == 2 and t.pb["discard"]
    t.play("A4")
    assert trick_events(t) == [(0, 0, ["A6"])]
    assert t.won(0) == ["A6"] and t.tokens(0) == [1]
    assert t.discarded(2) == ["A4"] and t.won(1) == t.won(2) == []


@pytest.mark.parametrize("next_leader,leads", [(0, 1), (1, 2)])
def test_next_leader_is_the_winner_or_the_lowest(next_leader, leads):
    # 3 players: seat 0 A5, seat 1 B9 (wins), seat 2 C2 (lowest, takes the token)
    # next_leader=winner: seat 1 leads the next trick; next_leader=lowest: seat 2 does
    t = Table(["A5 A6", "B9 B8", "C2 C3"], next_leader=next_leader)
    t.plays("A5", "B9", "C2")
    assert trick_events(t) == [(1, 2, ["A5", "B9", "C2"])]
    assert t.seat == leads and t.pb["leader"] == leads and t.legal_cards() == t.hand(leads)


# --------------------------------------------------------------------------- discards


def test_a_seat_without_an_unplayed_suit_discards_and_the_discard_scores_for_it():
    # 4 players, the hand's last two tricks (8 and 9 of 10), seat 0 leads
    #   seat 0  A5 B9     trick 8: A5   5        trick 9: B9   9  <- wins trick 9
    #   seat 1  A3 A8              discards A8            A3   3
    #   seat 2  C4 D2              C4   4  <- lowest      D2   2  <- lowest again: flips its +1
    #   seat 3  D6 C7              D6   6  <- wins, leads C7   7
    # score piles: seat 0 C7 B9 A3 D2 = 5 (A3 counts 2); seat 1 its discard A8 = 2; seat 2 none = 0;
    # seat 3 A5 C4 D6 = 4 (A5 counts 2): seat 2 is lowest and takes a token, a new +1 beside its +2
    t = Table(["A5 B9", "A3 A8", "C4 D2", "D6 C7"], trick=8)
    t.play("A5")
    assert t.seat == 1 and t.pb["discard"] and t.legal_cards() == ["A3", "A8"]
    t.play("A8")
    assert t.discarded(1) == ["A8"] and t.hand(1) == ["A3"] and t.pb["hand_len"][1] == 1
    assert t.trick() == [("A5", 0, 5)] and t.pb["turn"] == 2
    assert t.events("discard") == [{"type": "discard", "hand": 0, "seat": 1, "card": "A8"}]
    assert not t.pb["discard"] and t.legal_cards() == ["D2", "C4"]     # lowest card first
    t.play("C4")
    over = t.play()
    assert trick_events(t) == [(3, 2, ["A5", "C4", "D6"])]
    assert not over and t.seat == 3
    over = t.plays(None, None, None, "D2")          # seat 2 holds a token now: playing D2 bare is a choice
    assert over and t.hd["over"] and not t.hd["aborted"]
    assert trick_events(t)[1] == (0, 2, ["A3", "B9", "C7", "D2"])
    assert t.scores(0) == [5, 2, 0, 4]
    assert t.events("hand_end")[0]["scores"] == [5, 2, 0, 4]
    assert tokens_events(t) == [(2, "supply", 1), (2, "flip", 2), (2, "supply", 1)]
    assert [e.get("for", r) for e, r in zip(t.events("token"), ["lowest", "lowest", "catchup"], strict=True)] \
        == ["lowest", "lowest", "catchup"]
    assert t.all_tokens() == [[], [], [2, 1], []] and t.pb["supply"] == 7
    assert t.hd["discards"][1] == 1 and list(t.hd["tricks"][:4]) == [1, 0, 0, 1]


ILLEGAL = {
    # seat 1 holds A3 A8 after A5 is led: it must discard, and a discard takes no tokens
    "discard with a +1": ("A3 A8", "A8", 1, 0),
    "discard with a +2": ("A3 A8", "A8", 0, 1),
    # seat 1 holds B3 A8: it must play B3 (suit A is in the trick)
    "a suit already in the trick": ("B3 A8", "A8", 0, 0),
    "more +1 tokens than held": ("B3 A8", "B3", 2, 0),
    "more +2 tokens than held": ("B3 A8", "B3", 0, 2),
    "a card not in hand": ("B3 A8", "C5", 0, 0),
}


@pytest.mark.parametrize("hand,card,k1,k2", ILLEGAL.values(), ids=ILLEGAL.keys())
def test_an_illegal_action_stops_the_match_naming_the_seat(hand, card, k1, k2):
    # 3 players, seat 0 leads A5; seat 1 [+2 +1] answers an illegal action
    t = Table(["A5 B2", hand, "C4 C9"], ones=[0, 1, 0], twos=[0, 1, 0])
    t.play("A5")
    before = t.pub.copy(), t.priv.copy()
    assert t.play(card, k1, k2)
    assert t.hd["error"] == ERROR.ILLEGAL_ACTION and t.hd["error_seat"] == 1
    assert t.hd["over"] and t.hd["aborted"] and t.hd["actions"] == 1
    assert same_records(t.pub, before[0]) and same_records(t.priv, before[1])     # nothing was played


def test_a_bare_discard_is_legal():
    t = Table(["A5 B2", "A3 A8", "C4 C9"], ones=[0, 1, 0], twos=[0, 1, 0])
    t.play("A5")
    assert not t.play("A8") and t.hd["error"] == ERROR.NONE
    assert t.all_tokens() == [[], [2, 1], []] and t.discarded(1) == ["A8"]


def test_a_negative_action_is_illegal():
    t = Table(["A5 B2", "B3 B8", "C4 C9"])
    assert t.play(raw=-1)
    assert t.hd["error"] == ERROR.ILLEGAL_ACTION and t.hd["error_seat"] == 0


# --------------------------------------------------------------------------- taking a token


def test_taking_flips_a_held_plus_one_and_the_supply_is_unchanged():
    # seat 1 holds [+2 +1]; supply 6: it takes a token by flipping its +1 to +2
    t = Table(["", "", ""], ones=[0, 1, 0], twos=[1, 1, 0])
    t.give_token(1)
    assert t.all_tokens() == [[2], [2, 2], []] and t.pb["supply"] == 6
    assert tokens_events(t) == [(1, "flip", 2)] and t.hd["tokens_taken"][1] == 1


@pytest.mark.parametrize("seat,held", [(0, [2, 1]), (2, [1])])
def test_taking_without_a_plus_one_takes_from_the_supply_plus_one_side_up(seat, held):
    # seat 0 holds [+2], seat 2 nothing; supply 8: either takes a new +1 from the supply
    t = Table(["", "", ""], twos=[1, 0, 0])
    t.give_token(seat)
    assert t.tokens(seat) == held and t.pb["supply"] == 7
    assert tokens_events(t) == [(seat, "supply", 1)] and t.hd["tokens_taken"][seat] == 1


EMPTY_SUPPLY = {
    # 5 players, supply empty (two tokens out of the match):
    #   seat 0 [+2 +2]   seat 1 [+2 +1]   seat 2 [+1]   seat 3 []   seat 4 [+2 +2]
    # seat 3 takes: clockwise from 3 come 4, 0, 1, 2; seats 4, 0 and 1 hold the most (2): seat 4 gives its
    # lowest-valued token, a +2, which seat 3 keeps showing +2
    "first of the most clockwise": (3, 4, [[2, 2], [2, 1], [1], [2], [2]]),
    # seat 4 takes (holding no +1, it cannot flip): clockwise 0, 1, 2, 3: seat 0 gives a +2
    "the taker itself does not count": (4, 0, [[2], [2, 1], [1], [], [2, 2, 2]]),
    # seat 0 takes: clockwise 1, 2, 3, 4: seat 1 gives its lowest-valued token, the +1, kept on its +1 side
    "the lowest-valued token": (0, 1, [[2, 2, 1], [2], [1], [], [2, 2]]),
    # seat 2 holds a +1: it flips it, supply or not
    "a flip needs no supply": (2, "flip", [[2, 2], [2, 1], [2], [], [2, 2]]),
}


@pytest.mark.parametrize("taker,source,after", EMPTY_SUPPLY.values(), ids=EMPTY_SUPPLY.keys())
def test_empty_supply_the_other_seat_with_most_tokens_gives_one(taker, source, after):
    t = Table([""] * 5, ones=[0, 1, 1, 0, 0], twos=[2, 1, 0, 0, 2], supply=0)
    assert t.pb["removed"] == 2
    t.give_token(taker)
    assert t.all_tokens() == after and t.pb["supply"] == 0
    value = after[taker][-1] if source != "flip" else 2
    assert tokens_events(t) == [(taker, source, value)] and t.hd["tokens_taken"][taker] == 1


def test_empty_supply_and_no_other_seat_holding_a_token_nothing_is_taken():
    # 3 players, supply empty, seat 0 holds [+2 +2 +2], nobody else holds any: seat 0 (no +1) takes nothing
    t = Table(["", "", ""], twos=[3, 0, 0], supply=0)
    t.give_token(0)
    assert t.all_tokens() == [[2, 2, 2], [], []] and t.pb["supply"] == 0
    assert tokens_events(t) == [] and not t.hd["tokens_taken"].any()
    # a seat holding a +1 still flips it
    t = Table(["", "", ""], ones=[1, 0, 0], twos=[0, 0, 0], supply=0)
    t.give_token(0)
    assert t.all_tokens() == [[2], [], []] and tokens_events(t) == [(0, "flip", 2)]


# --------------------------------------------------------------------------- attaching tokens


@pytest.mark.parametrize("spent_tokens", [SUPPLY, REMOVED])
def test_attached_tokens_return_to_the_supply_plus_one_side_up_or_leave_the_match(spent_tokens):
    # 3 players, supply empty
    #   seat 0  B4 B9  [+2 +2]             plays B4 with both +2s: 4 + 2 + 2 = 8   <- wins
    #   seat 1  C6 C9  [+2 +2 +2]          plays C6   6
    #   seat 2  A5 A9  [+2 +2 +2 +2]       plays A5   5   <- lowest: takes a token (no +1 to flip)
    # supply: the two spent tokens are back, +1 side up: seat 2 takes a +1 from the supply
    # removed: they are out of the match; the supply is still empty: seat 1 (most tokens) gives a +2
    t = Table(["B4 B9", "C6 C9", "A5 A9"], twos=[2, 3, 4], spent_tokens=spent_tokens)
    assert t.pb["supply"] == 0
    t.play("B4", twos=2)
    assert t.trick() == [("B4", 0, 8)]
    assert attached(t.events("play")[0]) == 4 and t.events("play")[0]["value"] == 8
    assert t.hd["tokens_spent"][0] == 2 and t.hd["value_spent"][0] == 4 and t.tokens(0) == []
    assert (t.pb["supply"], t.pb["removed"]) == ((2, 0) if spent_tokens == SUPPLY else (0, 2))
    t.plays("C6", "A5")
    assert trick_events(t) == [(0, 2, ["A5", "B4", "C6"])]
    if spent_tokens == SUPPLY:
        assert tokens_events(t) == [(2, "supply", 1)]
        assert t.all_tokens() == [[], [2, 2, 2], [2, 2, 2, 2, 1]] and t.pb["supply"] == 1
    else:
        assert tokens_events(t) == [(2, 1, 2)]
        assert t.all_tokens() == [[], [2, 2], [2, 2, 2, 2, 2]] and t.pb["supply"] == 0


def test_a_card_is_worth_its_rank_plus_the_attached_tokens():
    # 3 players: seat 0 [+2 +1 +1] leads B4 with a +1 and a +2 (4 + 1 + 2 = 7); seat 1 C6 (6); seat 2 A7 (7):
    # seat 2's 7 is later than seat 0's 7, so it wins; C6 is the lowest
    t = Table(["B4 B9", "C6 C9", "A7 A9"], ones=[2, 0, 0], twos=[1, 0, 0])
    t.play("B4", ones=1, twos=1)
    t.plays("C6", "A7")
    assert [e["value"] for e in t.events("play")] == [7, 6, 7]
    assert trick_events(t) == [(2, 1, ["A7", "B4", "C6"])]
    assert t.tokens(0) == [1] and t.hd["value_spent"][0] == 3 and t.hd["tokens_spent"][0] == 2


# --------------------------------------------------------------------------- end of a hand: scoring


def test_hand_score_is_one_per_card_and_one_more_per_3_5_8_discards_included():
    # 3 players, every card played; totals before the hand 3, 0, 7
    #   seat 0  won A3 B5 C8 A10 B1  discarded C3  -> 5 + 3 (A3 B5 C8) + 2 (C3) = 10
    #   seat 1  won A4 B6 C7 A9      discarded B8  -> 4 + 2 (B8)              = 6
    #   seat 2  won none             discarded A5 B3 -> 2 + 2                  = 4
    t = Table(["", "", ""], won=["A3 B5 C8 A10 B1", "A4 B6 C7 A9", ""], discarded=["C3", "B8", "A5 B3"],
              totals=[3, 0, 7], trick=10)
    t.end_hand()
    assert t.scores(0) == [10, 6, 4] and list(t.pb["totals"][:3]) == [13, 6, 11]
    end = t.events("hand_end")[0]
    assert end["scores"] == [10, 6, 4] and end["totals"] == [13, 6, 11]
    assert tokens_events(t) == [(2, "supply", 1)]          # the lowest hand score
    assert t.pb["starter"] == 0 and t.pb["hand"] == 1 and t.hd["hands_played"] == 1


# --------------------------------------------------------------------------- end of a hand: 2 to 5 players


def test_tied_lowest_each_take_one_clockwise_from_the_starter():
    # 4 players, starter seat 2; hand scores 1, 3, 1, 1: seats 0, 2 and 3 tie for the lowest
    # tokens: seat 0 []  seat 1 [+2 +2]  seat 2 []  seat 3 [+1]; supply 1 (five removed)
    # clockwise from seat 2: seat 2 takes the last supply token (+1); seat 3 flips its +1;
    # seat 0 finds the supply empty: seat 1 holds the most and gives a +2
    t = Table(["", "", "", ""], won=["A1", "A3 B1", "C1", "D1"], starter=2, trick=10,
              ones=[0, 0, 0, 1], twos=[0, 2, 0, 0], supply=1, spent_tokens=REMOVED)
    t.end_hand()
    assert t.scores(0) == [1, 3, 1, 1]
    assert tokens_events(t) == [(2, "supply", 1), (3, "flip", 2), (0, 1, 2)]
    assert t.all_tokens() == [[2], [2], [1], [2]] and t.pb["supply"] == 0


CATCHUP = {
    # 3 players: totals before 10, 2, 6; hand scores 1, 8, 3 -> totals 11, 10, 9
    # hand: seat 0 (hand score 1) takes the token; total: seat 2 (total 9) does
    "3p hand": (["A1", "A2 A4 A6 A7 A9 B2 B4 B6", "A3 B1"], [10, 2, 6], 0, 0, [0]),
    "3p total": (["A1", "A2 A4 A6 A7 A9 B2 B4 B6", "A3 B1"], [10, 2, 6], 0, 1, [2]),
    # 2 players: totals before 5, 0; hand scores 2, 5 -> totals 7, 5
    "2p hand": (["A2 B2", "A4 B4 C4 D4 A6"], [5, 0], 0, 0, [0]),
    "2p total": (["A2 B2", "A4 B4 C4 D4 A6"], [5, 0], 0, 1, [1]),
    # 2 players tied at 1 each, seat 1 started: both take one, seat 1 first
    "2p tie": (["A2", "B2"], [0, 0], 1, 0, [1, 0]),
    # 5 players: hand scores 2, 1, 1, 3, 1 and starter 3: seats 1, 2, 4 tie, clockwise from 3: 4, 1, 2
    "5p tie": (["A2 B2", "C2", "D2", "E2 E4 E6", "E7"], [0] * 5, 3, 0, [4, 1, 2]),
}


@pytest.mark.parametrize("won,totals,starter,catchup,takers", CATCHUP.values(), ids=CATCHUP.keys())
def test_the_lowest_takes_a_token_by_hand_score_or_by_match_total(won, totals, starter, catchup, takers):
    t = Table([""] * len(won), won=won, totals=totals, starter=starter, catchup=catchup, trick=10)
    t.end_hand()
    assert [s for s, _, _ in tokens_events(t)] == takers
    assert all(src == "supply" and v == 1 for _, src, v in tokens_events(t))


@pytest.mark.parametrize("starter,next_starter", [(3, 3), (2, 3), (0, 1), (1, 1)])
def test_the_next_hand_starts_with_the_highest_total_ties_clockwise_from_the_starter(starter, next_starter):
    # 4 players, match totals after the hand 12, 15, 9, 15: seats 1 and 3 share the highest
    # starter 3 -> 3 (itself first); 2 -> 3; 0 -> 1; 1 -> 1
    t = Table([""] * 4, won=["A1 A2", "A4 A6 A7", "A9", "B1 B2 B4"], totals=[10, 12, 8, 12], starter=starter,
              trick=10)
    t.end_hand()
    assert list(t.pb["totals"][:4]) == [12, 15, 9, 15]
    assert t.pb["starter"] == next_starter


def test_the_next_hand_is_dealt_and_led_by_its_starter():
    # 3 players, the first hand's last trick (9 of 10), seat 0 leads, seat 1 started the hand;
    # totals before 2, 6, 5
    #   seat 0  A10  wins A10 B2 C3 = 4 points  -> total 6
    #   seat 1  B2   lowest: a +1   0           -> total 6
    #   seat 2  C3                  0           -> total 5
    # seats 0 and 1 share the highest total: clockwise from seat 1 (the starter), seat 1 starts hand 1;
    # seats 1 and 2 share the lowest hand score (0): seat 1 flips its +1, then seat 2 takes a +1
    t = Table(["A10", "B2", "C3"], leader=0, starter=1, trick=9, totals=[2, 6, 5], hands_=2)
    assert not t.plays(None, None, None)
    assert t.scores(0) == [4, 0, 0]
    assert t.pb["hand"] == 1 and t.pb["starter"] == 1 and t.pb["leader"] == 1 and t.seat == 1
    assert t.events("start") == [{"type": "start", "hand": 1, "seat": 1}]
    assert [len(t.hand(s)) for s in range(3)] == [10, 10, 10] and t.pb["trick"] == 0
    assert sorted(c for s in range(3) for c in t.hand(s)) == sorted(f"{x}{r}" for x in "ABC" for r in range(1, 11))
    assert t.all_tokens() == [[], [2], [1]]
    assert tokens_events(t) == [(1, "supply", 1), (1, "flip", 2), (2, "supply", 1)]


# --------------------------------------------------------------------------- end of a hand: 6 players

SIX_SOLE = dict(
    won=["A2 B4 C6", "A3 B2 C4 D6", "A4", "D2", "A5 B5 E2 F2", "F4 F6 F7"],
    discarded=["", "", "", "B3", "", ""],
    ones=[0, 0, 1, 0, 2, 1], twos=[0, 3, 0, 1, 0, 0], supply=1, starter=4, trick=8,
)


def test_six_players_a_sole_lowest_takes_a_new_plus_two_then_the_second_lowest_take_one():
    # 6 players, starter seat 4; supply 1
    #   seat  hand score          tokens
    #   0     3  A2 B4 C6         []
    #   1     5  A3 B2 C4 D6      [+2 +2 +2]
    #   2     1  A4               [+1]         <- the sole lowest: a NEW +2 (no flip), the last supply token
    #   3     3  D2 + discard B3  [+2]
    #   4     6  A5 B5 E2 F2      [+1 +1]
    #   5     3  F4 F6 F7         [+1]
    # then the second-lowest (3: seats 0, 3, 5), clockwise from the starter: 5, 0, 3, the ordinary way:
    #   seat 5 flips its +1; seat 0 finds the supply empty: seat 1 (3 tokens) gives a +2;
    #   seat 3 (no +1): seats 4 and 1 hold 2, seat 4 comes first clockwise from 3 and gives its +1
    t = Table([""] * 6, **SIX_SOLE)
    t.end_hand()
    assert t.scores(0) == [3, 5, 1, 3, 6, 3]
    assert tokens_events(t) == [(2, "supply", 2), (5, "flip", 2), (0, 1, 2), (3, 4, 1)]
    assert t.all_tokens() == [[2], [2, 2], [2, 1], [2, 1], [1], [2]] and t.pb["supply"] == 0


@pytest.mark.parametrize("catchup", [0, 1])
def test_six_players_tied_lowest_each_take_a_new_plus_two_and_nobody_else(catchup):
    # 6 players, starter seat 3; supply 1 (one removed); catchup is ignored at 6 players: totals before
    # 0, 30, 30, 30, 30, 30 would make seat 0 the lowest by match total
    #   seat  hand score      tokens
    #   0     4  A2 B2 C2 D2  [+1 +1]
    #   1     2  A4 B4        [+1]         <- lowest: a new +2, no flip
    #   2     3  A3 C4        [+2]
    #   3     5  A5 B5 E2     []
    #   4     2  C6 D6        []           <- lowest
    #   5     3  F2 F3        [+1 +1 +1]
    # clockwise from 3: seat 4 takes the last supply token as a +2; seat 1 finds the supply empty: seat 5
    # (3 tokens) gives a +1, turned to +2. Two tied for the lowest: the second-lowest (3) get nothing.
    t = Table([""] * 6, won=["A2 B2 C2 D2", "A4 B4", "A3 C4", "A5 B5 E2", "C6 D6", "F2 F3"],
              ones=[2, 1, 0, 0, 0, 3], twos=[0, 0, 1, 0, 0, 0], supply=1, starter=3, trick=8,
              totals=[0, 30, 30, 30, 30, 30], catchup=catchup)
    t.end_hand()
    assert t.scores(0) == [4, 2, 3, 5, 2, 3]
    assert tokens_events(t) == [(4, "supply", 2), (1, 5, 2)]
    assert t.all_tokens() == [[1, 1], [2, 1], [2], [], [2], [1, 1]] and t.pb["supply"] == 0


def test_six_players_the_lowest_gets_a_plus_two_from_the_supply_even_holding_a_plus_one():
    # 6 players, supply 8: the sole lowest (seat 2, [+1]) takes a new +2 from the supply; the second-lowest
    # seat 0 [] takes a +1; seat 3 [+2] takes a +1; seat 5 [+1] flips
    t = Table([""] * 6, won=SIX_SOLE["won"], discarded=SIX_SOLE["discarded"], ones=[0, 0, 1, 0, 0, 1],
              twos=[0, 0, 0, 1, 0, 0], starter=4, trick=8)
    t.end_hand()
    assert tokens_events(t) == [(2, "supply", 2), (5, "flip", 2), (0, "supply", 1), (3, "supply", 1)]
    assert t.all_tokens() == [[1], [], [2, 1], [2, 1], [], [2]] and t.pb["supply"] == 3


# --------------------------------------------------------------------------- two players


def test_two_players_a_trick_is_four_turns_and_each_draws_two_the_leader_first():
    # 2 players, the hand's last two tricks (1 and 2 of 3), seat 0 leads; draw pile, top first: C7 D3 A9 B4
    #   trick 1: seat 0 A5, seat 1 C6, seat 0 B2, seat 1 D8 -> D8 wins, B2 lowest
    #   seat 1 leads next and draws first: C7 D3; seat 0 draws A9 B4; the pile is empty before the last trick
    #   trick 2: seat 1 C7, seat 0 B4, seat 1 D3, seat 0 A9 -> A9 wins, D3 lowest
    t = Table(["A5 B2", "C6 D8"], trick=1, tricks=3, draw="C7 D3 A9 B4")
    seats = []
    for card in ("A5", "C6", "B2", "D8"):
        seats.append(t.seat)
        t.play(card)
    assert seats == [0, 1, 0, 1]
    assert trick_events(t) == [(1, 0, ["A5", "B2", "C6", "D8"])]
    assert [(e["seat"], e["cards"]) for e in t.events("draw")] == [(1, ["C7", "D3"]), (0, ["A9", "B4"])]
    assert sorted(t.hand(1)) == ["C7", "D3"] and sorted(t.hand(0)) == ["A9", "B4"]
    assert t.pb["draw_len"] == 0 and t.pb["trick"] == 2 and list(t.pb["hand_len"][:2]) == [2, 2]
    seats = []
    for card in ("C7", "B4", "D3", "A9"):
        seats.append(t.seat)
        over = t.play(card)
    assert seats == [1, 0, 1, 0] and over
    assert trick_events(t)[1] == (0, 1, ["A9", "B4", "C7", "D3"])
    assert t.scores(0) == [5, 6]                     # A9 C7 B4 D3 (D3 counts 2); A5 C6 B2 D8 (A5, D8 count 2)
    assert t.all_tokens() == [[2], [1]]              # seat 0's +1 from trick 1, flipped at the hand's end


def test_two_players_a_seat_without_an_unplayed_suit_discards_on_either_of_its_turns():
    # 2 players, seat 0 leads A5; seat 1 B6; seat 0 holds only A2 (suit A is in the trick): it discards;
    # seat 1 C3 -> B6 wins, C3 is lowest
    t = Table(["A5 A2", "B6 C3"], trick=6, tricks=8)
    t.plays("A5", "B6")
    assert t.seat == 0 and t.pb["discard"] and t.legal_cards() == ["A2"]
    t.plays(None, None)
    assert t.discarded(0) == ["A2"] and trick_events(t) == [(1, 1, ["A5", "B6", "C3"])]


# --------------------------------------------------------------------------- the match's outcome


def outcome(totals, held):
    """record_nb on a finished match with these totals and tokens: (win, rank, tiebreak)."""
    pub, _, hid, _ = new_state_nb()
    pb = pub[0]
    pb["players"] = len(totals)
    for s, (tot, (ones, twos)) in enumerate(zip(totals, held, strict=True)):
        pb["totals"][s], pb["ones"][s], pb["twos"][s] = tot, ones, twos
    hid[0]["over"] = True
    out = np.zeros(1, RECORD_DTYPE)
    record_nb(out[0], 0, pub, hid)
    p = len(totals)
    return list(out[0]["win"][:p]), list(out[0]["rank"][:p]), bool(out[0]["tiebreak"]), list(out[0]["score"][:p])


OUTCOMES = {
    # (totals, tokens held as (+1s, +2s)) -> (win shares, ranks, tiebreak)
    "highest total": ([10, 12, 9, 11], [(0, 0), (0, 0), (3, 0), (0, 1)], ([0, 1, 0, 0], [3, 1, 4, 2], False)),
    "tie broken by tokens": ([12, 12, 9, 12], [(1, 0), (1, 2), (5, 0), (0, 2)], ([0, 1, 0, 0], [3, 1, 4, 2], True)),
    # tokens count by number, not value: 3 +1s beat 2 +2s
    "tokens by number": ([7, 7], [(0, 2), (3, 0)], ([0, 1], [2, 1], True)),
    # tokens narrow three tied totals to two: a shared win, and tokens broke a tie
    "narrowed then shared": ([12, 12, 9, 12], [(3, 0), (1, 2), (0, 0), (1, 0)], ([.5, .5, 0, 0], [1, 1, 4, 3], True)),
    "shared": ([12, 12, 9, 5], [(2, 0), (0, 2), (0, 0), (0, 0)], ([.5, .5, 0, 0], [1, 1, 3, 4], False)),
    "all level": ([6, 6, 6], [(1, 0), (0, 1), (1, 0)], ([1 / 3] * 3, [1, 1, 1], False)),
}


@pytest.mark.parametrize("totals,held,want", OUTCOMES.values(), ids=OUTCOMES.keys())
def test_the_match_winner_ties_to_more_tokens_then_shared(totals, held, want):
    win, rank, tiebreak, score = outcome(totals, held)
    assert np.allclose(win, want[0]) and rank == want[1] and tiebreak == want[2]
    assert score == totals


@pytest.mark.parametrize("players", [2, 3, 6])
def test_simulated_outcomes_follow_totals_then_tokens(players):
    rec = analyser.simulate("enemy_anemone", players=players, policies=MIXES[:players],
                            rules={"hands": 1}, n=300, seed=11).records
    assert not rec["aborted"].any()
    p = players
    key = rec["score"][:, :p] * 16 + rec["tokens_held"][:, :p]
    top = key.max(axis=1, keepdims=True)
    winners = (key == top).sum(axis=1)
    assert np.allclose(rec["win"][:, :p], (key == top) / winners[:, None])
    assert (rec["rank"][:, :p] == 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)).all()
    level = (rec["score"][:, :p] == rec["score"][:, :p].max(axis=1, keepdims=True)).sum(axis=1)
    assert (rec["tiebreak"] == (winners < level)).all()
    assert rec["tiebreak"].any() and (winners > 1).any()      # both happen in 300 one-hand matches


# --------------------------------------------------------------------------- the deck


DECKS = {2: ("ABCD", range(2, 10), 8, 16), 3: ("ABC", range(1, 11), 10, 0), 4: ("ABCD", range(1, 11), 10, 0),
         5: ("ABCDE", range(1, 11), 10, 0), 6: ("ABCDEF", range(2, 10), 8, 0)}


@pytest.mark.parametrize("players", DECKS)
def test_deck_composition_and_the_deal(players):
    suits, ranks, each, pile = DECKS[players]
    want = sorted(card_of(f"{s}{r}") for s in suits for r in ranks)
    deck = np.zeros(N_CARDS, np.int8)
    n = deck_nb(players, deck)
    assert sorted(deck[:n].tolist()) == want and n == {2: 32, 3: 30, 4: 40, 5: 50, 6: 48}[players]
    runner = entry(GAME, players, "greedy")
    pos = next(KIT.play(1, 0, players, runner.settings, runner.fns, runner.params, runner.streams))
    places = pos.locations()
    assert [len(places[f"hand{s}"]) for s in range(players)] == [each] * players
    assert len(places["draw"]) == pile and sorted(c for v in places.values() for c in v) == want
    assert pos.pub[0]["tricks"] == (8 if players in (2, 6) else 10)
    assert pos.pub[0]["supply"] == 9 and pos.pub[0]["seat"] == pos.pub[0]["starter"] == pos.hid[0]["first"]


# --------------------------------------------------------------------------- whole matches



@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("spent_tokens", ["supply", "removed"])
def test_tokens_and_hand_scores_add_up_in_playouts(players, spent_tokens):
    """(That every card is somewhere at every action is the kit's playouts check.)"""
    runner = entry(GAME, players, MIXES[:players], {"spent_tokens": spent_tokens})
    deck = Counter(next(KIT.play(1, 0, players, runner.settings, runner.fns, runner.params, runner.streams)).deck())
    spent_any = False
    for unit in range(4):
        removed = 0
        pos = None
        for pos in KIT.play(7, unit, players, runner.settings, runner.fns, runner.params, runner.streams):
            places = pos.locations()             # asserts the bookkeeping and nine tokens in all
            pb, hd = pos.pub[0], pos.hid[0]
            if spent_tokens == "supply":
                assert pb["removed"] == 0
            else:
                assert pb["removed"] >= removed and pb["removed"] == hd["tokens_spent"].sum()
                removed = pb["removed"]
            assert len(places["trick"]) <= (4 if players == 2 else players)
        pb, hd = pos.pub[0], pos.hid[0]
        assert hd["over"] and not hd["aborted"] and hd["hands_played"] == 4
        spent_any |= bool(hd["tokens_spent"].any())
        for h in range(4):
            assert pb["hand_score"][:players, h].sum() == sum(int(POINTS[c]) for c in deck.elements())
        assert list(pb["totals"][:players]) == list(pb["hand_score"][:players, :4].sum(axis=1))
    assert spent_any


def hand_events(events, h):
    """(trick turns: [(seat, kind)], winner, low) per trick, draws by the trick they precede, the starter."""
    tricks, turns, draws, start = [], [], {}, None
    for e in events:
        if e.get("hand") != h:
            continue
        if e["type"] == "start":
            start = e["seat"]
        elif e["type"] in ("play", "discard"):
            turns.append(e["seat"])
        elif e["type"] == "trick":
            tricks.append((turns, e["winner"], e["low"]))
            turns = []
        elif e["type"] == "draw":
            draws.setdefault(len(tricks), []).append((e["seat"], len(e["cards"])))
    return tricks, draws, start


@pytest.mark.parametrize("next_leader", ["winner", "lowest"])
def test_two_player_matches_alternate_turns_and_draw_before_tricks_1_to_4(next_leader):
    for seed in (1, 2):
        ev = analyser.trace("enemy_anemone", seed=seed, deal=0, players=2, policies=["timing", "random"],
                            rules={"next_leader": next_leader}).events
        for h in range(4):
            tricks, draws, start = hand_events(ev, h)
            assert len(tricks) == 8
            leader = start
            for k, (turns, winner, low) in enumerate(tricks):
                assert turns == [leader, 1 - leader, leader, 1 - leader]
                if 1 <= k <= 4:
                    assert draws[k] == [(leader, 2), (1 - leader, 2)]
                leader = winner if next_leader == "winner" else low
            assert sorted(draws) == [1, 2, 3, 4]         # 16 cards: the pile is empty from trick 5 on


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_starters_first_from_the_match_stream_then_the_highest_total(players):
    rec = analyser.simulate("enemy_anemone", players=players, policies="greedy", rules={"hands": 1}, n=64,
                            seed=5).records
    assert set(rec["first"].tolist()) == set(range(players))
    for deal in (0, 1):
        ev = analyser.trace("enemy_anemone", seed=5, deal=deal, players=players, policies="random").events
        assert ev[0]["first"] == rec["first"][deal]   # the same stream whatever the hands and policies
        starts = [e["seat"] for e in ev if e["type"] == "start"]
        ends = [e for e in ev if e["type"] == "hand_end"]
        assert starts[0] == ev[0]["first"] and len(starts) == len(ends) == 4
        for h in range(3):
            totals, prev = ends[h]["totals"], starts[h]
            order = [(prev + k) % players for k in range(players)]
            want = next(s for s in order if totals[s] == max(totals))
            assert starts[h + 1] == want


@pytest.mark.parametrize("players,per_hand", [(2, 32), (4, 40), (6, 48)])
def test_the_action_cap_counts_plays_and_discards(players, per_hand):
    # a match of 4 hands takes exactly 4 * (cards in the deck) actions (2 players: drawing is not an action);
    # a cap of exactly that lets it finish, one less aborts it
    args = dict(players=players, policies=MIXES[:players], n=20, seed=3)
    ok = analyser.simulate("enemy_anemone", rules={"max_actions": 4 * per_hand}, **args).records
    assert not ok["aborted"].any() and (ok["length"] == 4 * per_hand).all() and (ok["hands"] == 4).all()
    assert (ok["discards"][:, :players].sum(axis=1) > 0).any()
    cut = analyser.simulate("enemy_anemone", rules={"max_actions": 4 * per_hand - 1}, **args).records
    assert cut["aborted"].all() and (cut["hands"] == 3).all() and not cut["win"].any()
    assert (cut["length"] == 4 * per_hand - 1).all()


def test_hands_setting_and_each_hand_dealt_whatever_came_before():
    # 8 hands; hand k's deal depends on the seed, the match and k alone, not on the policies' play
    a = analyser.trace("enemy_anemone", seed=4, deal=2, players=3, policies="timing", rules={"hands": 8}).events
    b = analyser.trace("enemy_anemone", seed=4, deal=2, players=3, policies="random", rules={"hands": 8}).events
    deals_a = [e for e in a if e["type"] == "deal"]
    assert len(deals_a) == 8 and deals_a == [e for e in b if e["type"] == "deal"]
    assert len({str(e["hands"]) for e in deals_a}) == 8
    assert [e for e in a if e["type"] == "play"] != [e for e in b if e["type"] == "play"]


def test_card_names_round_trip():
    assert card_of("C10") == 9 * 6 + 2 and card_name(card_of("F7")) == "F7"
    assert names(np.uint64(1 << card_of("A1") | 1 << card_of("B2"))) == ["A1", "B2"]
    assert MAX_PLAYERS == 6
