"""Scenario tests of the Spite & Malice rules, one rule of the rule book at a
time (docs/rules/spite_and_malice.md).

Each scenario opens with a picture of the table: payoff piles (top last), hands,
side piles and build piles, then the decisions in order. Positions are built by
hand (positions.Table) and stepped by the engine's own ``step_nb``; the kit's
bookkeeping checks and a count of the cards run after every step.
"""
from collections import Counter

import numpy as np
import pytest

import analyser
from analyser.games.registry import get_game
from analyser.games.spite_and_malice.constants import ACTION, DECK, ERROR, N_CARDS, SIDE_END, build, discard
from analyser.games.spite_and_malice.engine import record_nb
from analyser.games.spite_and_malice.records import RECORD_DTYPE
from analyser.games.spite_and_malice.rules import begin_unit_nb
from analyser.games.spite_and_malice.state import new_state_nb
from analyser.kernels.rng import below_nb, shuffle_from_nb, stream_seed_nb
from analyser.testing.checks import entry
from tests.games.spite_and_malice.positions import (
    STREAMS,
    Table,
    action,
    cards,
    engine_legal,
    engine_legal_one_by_one,
    engine_tops_build,
    settings_row,
)

RUN = "A 2 3 4 5 6 7 8 9 10 J"      # a build pile showing J: the next card completes it


def record(t):
    out = np.zeros(1, RECORD_DTYPE)
    record_nb(out[0], 0, t.pub, t.hid)
    return out[0]


def builds_of(legal):
    return sorted(a for a in legal if a != ACTION.STOP and (a & 7) < 4)


# --------------------------------------------------------------------------- build piles


def test_an_empty_build_pile_takes_an_ace_or_a_king_as_an_ace():
    # payoffs: s0 .. 5, s1 .. 7; builds all empty
    #   s0 hand A 2 6 6 K: only the A and the K may start a pile; the K counts as an A
    t = Table(payoffs=["9 5", "7"], hands=["A 2 6 6 K", "3 4 5 6 7"])
    assert builds_of(t.legal_actions()) == sorted(action(f"{c}>b{b}") for c in "AK" for b in range(3))
    t.play("K>b1")
    assert t.events("build") == [{"type": "build", "round": 0, "seat": 0, "source": "hand", "pile": 1,
                                  "card": 13, "value": 1}]
    assert t.build(1) == [13] and t.pb["build_len"][1] == 1 and t.seat == 0
    assert action("2>b1") in t.legal_actions() and action("A>b1") not in t.legal_actions()
    assert t.hd["kings"][0] == 1 and t.hd["builds"][0] == 1


def test_a_king_takes_the_value_after_the_piles():
    # build 0 shows 5; s0 plays a King onto it: it counts as 6, so its payoff 7 fits next
    t = Table(payoffs=["3 7", "Q"], hands=["K 9 9 9 9", "2 2 2 2 2"], builds=["A 2 3 4 5"])
    assert builds_of(t.legal_actions()) == sorted([action("K>b0"), action("K>b1"), action("K>b2")])
    t.play("K>b0")
    assert t.events("build")[-1]["value"] == 6 and t.build(0) == [1, 2, 3, 4, 5, 13]
    assert action("P>b0") in t.legal_actions()
    t.play("P>b0")
    assert t.build(0) == [1, 2, 3, 4, 5, 13, 7] and t.pb["payoff_top"][0] == 3 and t.pb["payoff_len"][0] == 1


def test_a_card_goes_only_on_the_next_value():
    # builds: 3, 5, empty; s0's side tops 4 and 7, hand 6 6 Q, payoff 5
    t = Table(payoffs=["8 5", "Q"], hands=["6 6 Q", "2 2 2 2 2"], sides=[["4", "7", "", ""], []],
              builds=["A 2 3", "A 2 3 4 5"])
    assert builds_of(t.legal_actions()) == sorted([action("S0>b0"), action("6>b1")])


def test_a_completed_pile_is_shuffled_into_the_stock_from_the_rounds_stream():
    # build 0 shows J; s0 plays its Q: the pile's 12 cards join the stock, which is shuffled whole
    t = Table(payoffs=["8 5", "Q"], hands=["Q 3 3 3 3", "2 2 2 2 2"], builds=[RUN], stock="9 9 9 9")
    before = list(t.hd["stock"][: 4]) + cards(RUN) + [12]
    rng = t.hd["rng"].copy()
    t.play("Q>b0")
    assert t.events("complete") == [{"type": "complete", "round": 0, "seat": 0, "pile": 0, "stock": 16}]
    assert t.build(0) == [] and t.pb["stock_len"] == 16 and t.hd["completed"][0] == 1
    expect = np.array(before, np.int8)
    shuffle_from_nb(rng, expect, 1)
    assert list(t.hd["stock"][:16]) == list(expect) and t.hd["rng"][0] == rng[0]
    assert Counter(t.stock()) == Counter(cards(RUN) + [12, 9, 9, 9, 9])


def test_a_king_completing_a_pile_goes_back_as_a_king():
    t = Table(payoffs=["8 5", "Q"], hands=["K 3 3 3 3", "2 2 2 2 2"], builds=[RUN], stock="9 9 9 9")
    t.play("K>b0")
    assert t.events("build")[-1]["value"] == 12 and t.events("complete")
    assert Counter(t.stock())[13] == 1 and t.build(0) == []


def test_four_centre_piles():
    t3 = Table(payoffs=["8 5", "Q"], hands=["A 3 3 3 3", "2 2 2 2 2"])
    t4 = Table(payoffs=["8 5", "Q"], hands=["A 3 3 3 3", "2 2 2 2 2"], centre_piles=4)
    assert action("A>b3") not in t3.legal_actions() and action("A>b3") in t4.legal_actions()
    t4.play("A>b3")
    assert t4.build(3) == [1]


# --------------------------------------------------------------------------- a turn


def test_a_discard_ends_the_turn_and_the_next_player_draws_to_five():
    # s0 discards its 9 onto side pile 2; s1, holding 3 cards, draws the stock's top two
    t = Table(payoffs=["8 5", "Q"], hands=["9 3 3", "2 2 2"], stock="7 J 4 4 4", turn=5)
    t.play("9>s2")
    assert t.side(0, 2) == [9] and t.seat == 1 and t.pb["turn"] == 6
    assert t.events("turn") == [{"type": "turn", "round": 0, "seat": 1, "turn": 6, "drawn": [7, 11]}]
    assert t.hand(1) == [2, 2, 2, 7, 11] and t.stock() == [4, 4, 4] and t.pb["hand_len"][1] == 5
    assert t.hd["discards"][0] == 1 and t.hd["moves"] == 1


def test_any_card_may_be_discarded_onto_any_own_side_pile_kings_included():
    t = Table(payoffs=["8 5", "Q"], hands=["K 9 3", "2 2 2"], sides=[["10", "", "4", "Q Q"], ["5", "", "", ""]])
    legal = t.legal_actions()
    assert sorted(a for a in legal if (a & 7) >= 4) == sorted(discard(v, i) for v in (3, 9, 13) for i in range(4))
    t.play("K>s3")
    assert t.side(0, 3) == [12, 12, 13] and t.side(1, 0) == [5]


def test_payoff_cards_never_go_onto_a_side_pile_nor_side_cards_onto_side_piles():
    t = Table(payoffs=["8 5", "Q"], hands=["9 3", "2 2 2"], sides=[["10", "", "", ""], []])
    legal = t.legal_actions()
    assert not any(a >> 3 == 0 and (a & 7) >= 4 for a in legal)
    assert t.play(raw=build(0, 4 + 1))             # payoff top onto side pile 1: illegal, the match stops
    assert t.hd["error"] == ERROR.ILLEGAL_ACTION and t.hd["error_seat"] == 0 and t.hd["aborted"]
    t = Table(payoffs=["8 5", "Q"], hands=["9 3", "2 2 2"], sides=[["10", "", "", ""], []])
    assert t.play(raw=build(1, 4 + 2))             # side pile 0 onto side pile 2
    assert t.hd["error"] == ERROR.ILLEGAL_ACTION


def test_a_player_plays_from_its_own_piles_only():
    # s1's side top is an A and its payoff top an A; s0 cannot use them
    t = Table(payoffs=["8 5", "A"], hands=["9 3", "2 2 2"], sides=[[], ["A", "", "", ""]])
    assert builds_of(t.legal_actions()) == []


def test_an_empty_hand_may_stop_or_go_on_building():
    # s0 builds its last hand card (5 onto 4); its side top 6 still fits: build or stop
    t = Table(payoffs=["8 9", "Q"], hands=["5", "2 2 2"], sides=[["6", "", "", ""], []], builds=["A 2 3 4"],
              stock="7 7 7 7 7 8 8 8")
    t.play("5>b0")
    assert t.seat == 0 and t.pb["hand_len"][0] == 0
    assert t.legal_actions() == [action("S0>b0"), ACTION.STOP]
    t.play("stop")
    assert t.events("stop") == [{"type": "stop", "round": 0, "seat": 0}] and t.seat == 1
    assert t.hand(1) == [2, 2, 2, 7, 7]


def test_an_empty_hand_with_nothing_to_build_ends_the_turn_by_itself():
    t = Table(payoffs=["8 9", "Q"], hands=["5", "2 2 2"], builds=["A 2 3 4"], stock="7 7 7 7 7 8 8 8")
    t.play("5>b0")
    assert t.seat == 1 and t.events("stop") == [] and t.hd["decisions"] == 1
    assert [e["type"] for e in t.events()] == ["build", "turn"]


def test_stop_is_not_legal_with_cards_in_hand():
    t = Table(payoffs=["8 9", "Q"], hands=["5 9", "2 2 2"], builds=["A 2 3 4"])
    assert ACTION.STOP not in t.legal_actions()
    assert t.play(raw=ACTION.STOP) and t.hd["error"] == ERROR.ILLEGAL_ACTION


@pytest.mark.parametrize("refill", ["off", "on"])
def test_refill_empty_hand(refill):
    # s0 builds its last hand card; with refill on it draws 5 and goes on, with it off it does not
    t = Table(payoffs=["8 9", "Q"], hands=["5", "2 2 2"], sides=[["6", "", "", ""], []], builds=["A 2 3 4"],
              stock="J J J J 10 10 10 10", refill_empty_hand=refill)
    t.play("5>b0")
    assert t.seat == 0
    if refill == "on":
        assert t.events("refill") == [{"type": "refill", "round": 0, "seat": 0, "drawn": [11] * 4 + [10]}]
        assert t.pb["hand_len"][0] == 5 and ACTION.STOP not in t.legal_actions()
    else:
        assert t.events("refill") == [] and t.pb["hand_len"][0] == 0 and ACTION.STOP in t.legal_actions()


# --------------------------------------------------------------------------- the end of a round


def test_the_last_payoff_card_wins_at_once_and_scores_the_others_payoff_cards():
    # s0's payoff holds a single 4; build 0 shows 3: s0 plays it and wins round 0, scoring s1's 5 cards
    t = Table(payoffs=["4", "9 9 9 2 3"], hands=["7 7", "2 2 2"], builds=["A 2 3"], points=(10, 20))
    assert not t.play("P>b0")
    ends = t.events("round_end")
    assert ends == [{"type": "round_end", "round": 0, "winner": 0, "why": "win", "scored": 5, "points": [15, 20]}]
    assert t.hd["rounds_won"][0] == 1 and t.hd["payoff_left"].tolist() == [0, 5]
    # the next round is dealt, started by the loser
    assert t.pb["round"] == 1 and t.events("start")[-1] == {"type": "start", "round": 1, "seat": 1, "why": "loser"}
    assert t.seat == 1 and t.pb["payoff_len"].tolist() == [20, 20] and t.pb["stock_len"] == N_CARDS - 50


def test_reaching_the_target_wins_the_match():
    t = Table(payoffs=["4", "9 9 9 2 3"], hands=["7 7", "2 2 2"], builds=["A 2 3"], points=(45, 49))
    assert t.play("P>b0")
    rec = record(t)
    assert t.hd["over"] and t.hd["winner"] == 0 and not rec["aborted"]
    assert rec["points"].tolist() == [50, 49] and rec["score"].tolist() == [50.0, 49.0]
    assert rec["win"].tolist() == [1.0, 0.0] and rec["rank"].tolist() == [1, 2] and not rec["draw"]


def test_the_payoff_card_completing_a_pile_is_shuffled_in_before_the_win():
    t = Table(payoffs=["Q", "9 9 9 2 3"], hands=["7 7", "2 2 2"], builds=[RUN], stock="5 5", target=5)
    assert t.play("P>b0")
    assert [e["type"] for e in t.events()] == ["build", "complete", "round_end"]


def test_a_completed_pile_is_shuffled_in_before_an_empty_hand_is_refilled():
    # two cards in the stock: a refill of 5 would end the round in a draw, but the
    # Q completes build 0 first and its 12 cards join the stock
    t = Table(payoffs=["9 8", "9 9 9 2 3"], hands=["Q", "2 2 2"], builds=[RUN], stock="5 5",
              refill_empty_hand="on")
    assert not t.play("Q>b0")
    assert [e["type"] for e in t.events()] == ["build", "complete", "refill"]
    assert t.pb["hand_len"][0] == 5 and t.pb["stock_len"] == 14 - 5 and t.pb["round"] == 0


@pytest.mark.parametrize("stock_out", ["on_draw", "at_once"])
def test_stock_out_at_the_start_of_a_turn(stock_out):
    # s1 holds 3 cards and the stock 2: s1 draws both. at_once: the stock is empty, the round is drawn now;
    # on_draw: the round goes on until a player must draw from the empty stock
    t = Table(payoffs=["9 8", "9 9 9 2 3"], hands=["6 6", "2 2 2"], stock="7 7", stock_out=stock_out)
    t.play("6>s0")
    assert t.events("turn")[0] == {"type": "turn", "round": 0, "seat": 1, "turn": 2, "drawn": [7, 7]}
    if stock_out == "at_once":
        assert t.events("round_end")[0]["why"] == "stock_out" and t.pb["round"] == 1
        return
    assert t.events("round_end") == [] and t.pb["stock_len"] == 0 and t.seat == 1
    t.play("7>s0")
    assert t.events("round_end") == [{"type": "round_end", "round": 0, "winner": None, "why": "stock_out",
                                      "scored": 0, "points": [0, 0]}]
    assert t.hd["drawn_rounds"] == 1 and t.hd["payoff_left"].tolist() == [2, 5]


def test_a_short_stock_is_drawn_out_and_the_round_is_drawn():
    t = Table(payoffs=["9 8", "9 9 9 2 3"], hands=["6 6", "2 2 2"], stock="7")
    t.play("6>s0")
    assert t.events("turn")[-2]["drawn"] == [7]        # what was left, then round 1's first turn
    assert t.events("round_end")[0]["why"] == "stock_out"


@pytest.mark.parametrize("stock_out,stock,drawn", [("on_draw", "7 7 7", True), ("on_draw", "7 7 7 7 7", False),
                                                   ("at_once", "7 7 7 7 7", True), ("at_once", "7 7 7 7 7 8", False)])
def test_stock_out_on_a_mid_turn_refill(stock_out, stock, drawn):
    t = Table(payoffs=["9 8", "9 9 9 2 3"], hands=["5", "2 2 2"], builds=["A 2 3 4"], stock=stock,
              refill_empty_hand="on", stock_out=stock_out)
    t.play("5>b0")
    assert t.events("refill")[0]["drawn"] == cards(stock)[:5]
    assert bool(t.events("round_end")) == drawn
    if drawn:
        assert t.events("round_end")[0]["why"] == "stock_out" and t.events("start")[-1]["why"] == "after_draw"


def test_after_a_drawn_round_the_player_who_did_not_start_it_starts():
    t = Table(payoffs=["9 8", "9 9 9 2 3"], hands=["6 6", "2 2 2"], stock="7", seat=0, starter=1, turn=8)
    t.play("6>s0")
    assert t.events("start")[-1] == {"type": "start", "round": 1, "seat": 0, "why": "after_draw"}
    assert t.seat == 0 and t.pb["starter"] == 0


# --------------------------------------------------------------------------- the first starter


def begun(seed, unit, settings):
    """The state after rules.begin_unit_nb: the first round dealt (no policy is asked)."""
    pub, priv, hid, legal = new_state_nb()
    begin_unit_nb(seed, unit, 2, settings, STREAMS, (), np.zeros(2, np.int64), np.zeros((2, 1)), pub, priv, hid, legal,
                  np.zeros(0, np.int32))
    return pub, priv, hid


def test_the_higher_payoff_top_starts_the_first_round_and_a_tie_goes_to_the_rounds_stream():
    settings = settings_row()
    ties = Counter()
    for unit in range(300):
        pub, priv, hid = begun(3, unit, settings)
        tops = pub[0]["payoff_top"].tolist()
        # the round's stream: the shuffle, then (tied tops) one draw
        st = np.array([stream_seed_nb(3, unit, 0)], np.uint64)
        deck = DECK.copy()
        shuffle_from_nb(st, deck, 1)
        assert tops == [deck[-39], deck[-40]]      # the 20th card dealt to each seat: one at a time, s0 first
        if tops[0] != tops[1]:
            assert pub[0]["starter"] == (0 if tops[0] > tops[1] else 1), f"unit {unit}: tops {tops}"
        else:
            assert pub[0]["starter"] == below_nb(st, 2)
            ties[int(pub[0]["starter"])] += 1
        assert hid[0]["first"] == pub[0]["starter"] == pub[0]["seat"]
    assert ties[0] and ties[1], ties          # both seats win some ties


def test_the_deal_follows_the_rule_book():
    pub, priv, hid = begun(3, 5, settings_row(payoff_size=7))
    st = np.array([stream_seed_nb(3, 5, 0)], np.uint64)
    deck = DECK.copy()
    shuffle_from_nb(st, deck, 1)
    shoe = list(deck[::-1])                    # the top of the shoe is the last index
    assert list(hid[0]["payoff"][0, :7]) == shoe[0:14:2] and list(hid[0]["payoff"][1, :7]) == shoe[1:14:2]
    hands = [sorted(shoe[14:24:2]), sorted(shoe[15:24:2])]
    for s in range(2):
        assert [v for v in range(14) for _ in range(priv[s]["hand"][v])] == hands[s]
    assert list(hid[0]["stock"][:80]) == list(deck[:80]) and pub[0]["stock_len"] == 80


# --------------------------------------------------------------------------- caps


def test_max_turns_aborts_the_round_and_the_match():
    t = Table(payoffs=["9 8", "Q"], hands=["6 6", "2 2 2"], turn=30, max_turns=30)
    assert t.play("6>s0")
    rec = record(t)
    assert rec["aborted"] and rec["rounds"] == 1 and not rec["win"].any() and not rec["score"].any()
    assert not rec["rank"].any() and not rec["draw"]


def assert_capped_at_once(t, kinds, stock, hand1):
    """The match was aborted right after the capping move: the events are that move's
    own (``kinds``), no card was drawn, no turn begun, no round ended or dealt."""
    rec = record(t)
    assert t.hd["aborted"] and t.hd["error"] == 0 and rec["aborted"] and not rec["draw"]
    assert [e["type"] for e in t.events()] == kinds
    assert t.stock() == stock and t.hand(1) == hand1 and t.pb["round"] == 0
    assert rec["rounds"] == 1 and rec["drawn_rounds"] == 0 and rec["turns"] == 0
    assert not rec["win"].any() and not rec["score"].any() and not rec["rank"].any()


def test_max_moves_stops_the_round_right_after_a_building_move():
    # the 10th move of the round is a build and the turn could go on: no one is asked again
    t = Table(payoffs=["9 8", "Q"], hands=["A 6", "2 2 2"], stock="7 7 7 7 7", moves=9, max_moves=10)
    assert t.play("A>b0")
    assert t.hd["round_moves"] == 10 and t.hd["decisions"] == 1 and t.hand(0) == [6]
    assert_capped_at_once(t, ["build"], [7] * 5, [2, 2, 2])


@pytest.mark.parametrize("stock_out", ["on_draw", "at_once"])
def test_a_capping_discard_aborts_before_the_next_turn_draws(stock_out):
    # s0's discard is the round's 10th move; s1 would draw the stock's last 2 cards (3 short of 5 with
    # on_draw; the stock emptied with at_once): a stock-out draw that let the match go on
    t = Table(payoffs=["9 8", "Q"], hands=["6 6", "2 2"], stock="7 7", moves=9, max_moves=10, stock_out=stock_out)
    assert t.play("6>s0")
    assert t.side(0, 0) == [6] and t.seat == 0 and t.pb["turn"] == 1
    assert_capped_at_once(t, ["discard"], [7, 7], [2, 2])


@pytest.mark.parametrize("refill", ["off", "on"])
def test_a_capping_build_that_empties_the_hand_aborts_before_any_draw(refill):
    # s0 builds its last hand card as the round's 10th move with nothing left to build: the turn would end
    # silently (refill off) or the hand be refilled (on), either draw emptying a stock of 2 into a drawn round
    t = Table(payoffs=["9 8", "Q"], hands=["5", "2 2"], builds=["A 2 3 4"], stock="7 7", moves=9, max_moves=10,
              refill_empty_hand=refill)
    assert t.play("5>b0")
    assert t.hand(0) == [] and t.seat == 0
    assert_capped_at_once(t, ["build"], [7, 7], [2, 2])


def test_a_capping_move_that_plays_out_the_payoff_pile_still_wins():
    # the cap ends the round right after its last move; a win by that move has already ended it
    t = Table(payoffs=["4", "9 9 9 2 3"], hands=["7 7", "2 2 2"], builds=["A 2 3"], moves=9, max_moves=10,
              target=5)
    assert t.play("P>b0")
    rec = record(t)
    assert not rec["aborted"] and rec["win"].tolist() == [1.0, 0.0] and rec["points"].tolist() == [5, 0]


def test_a_capping_move_in_the_last_allowed_turn_aborts_without_a_draw():
    # both caps reached by one discard: the same stop, no next turn
    t = Table(payoffs=["9 8", "Q"], hands=["6 6", "2 2"], stock="7 7", turn=30, max_turns=30, moves=9,
              max_moves=10)
    assert t.play("6>s0")
    assert_capped_at_once(t, ["discard"], [7, 7], [2, 2])


def test_max_turns_stops_before_the_next_turn_draws():
    # the 30th turn ends by a discard; the 31st would draw the stock's last 2 cards into a stock-out draw
    t = Table(payoffs=["9 8", "Q"], hands=["6 6", "2 2"], stock="7 7", turn=30, max_turns=30)
    assert t.play("6>s0")
    assert_capped_at_once(t, ["discard"], [7, 7], [2, 2])


def test_max_games_aborts_an_undecided_match():
    t = Table(payoffs=["4", "9 9 9 2 3"], hands=["7 7", "2 2 2"], builds=["A 2 3"], round_=1, max_games=2)
    assert t.play("P>b0")
    rec = record(t)
    assert rec["aborted"] and rec["rounds"] == 2 and rec["points"].tolist() == [5, 0] and not rec["win"].any()


def test_rounds_are_counted_past_32767_so_a_high_max_games_is_reached():
    # max_games and rounds go up to 100,000: a round counter that wrapped at 32,767 would never reach them
    t = Table(payoffs=["4", "9 9 9 2 3"], hands=["7 7", "2 2 2"], builds=["A 2 3"], round_=32767, max_games=32769)
    assert not t.play("P>b0")
    assert t.pb["round"] == 32768 and t.hd["rounds_played"] == 32768 and record(t)["rounds"] == 32768
    assert t.events("start")[-1]["round"] == 32768


@pytest.mark.parametrize("points,winner", [((10, 20), 1), ((20, 10), 0), ((10, 15), None)])
def test_a_round_limit_ends_the_match_on_points(points, winner):
    t = Table(payoffs=["4", "9 9 9 2 3"], hands=["7 7", "2 2 2"], builds=["A 2 3"], round_=1, rounds=2,
              points=points)
    assert t.play("P>b0")
    rec = record(t)
    assert not rec["aborted"] and rec["draw"] == (winner is None)
    if winner is None:
        assert rec["win"].tolist() == [0.0, 0.0] and rec["rank"].tolist() == [1, 1]
    else:
        assert rec["win"][winner] == 1.0 and rec["rank"][winner] == 1 and rec["rank"][1 - winner] == 2


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize("rules,policies", [
    ({}, ["builder", "patient:block=1,side_runs=0"]),
    ({"centre_piles": 4, "refill_empty_hand": "on", "stock_out": "at_once", "payoff_size": 12, "target": 20},
     ["random", "patient:save_kings=0"]),
])
def test_in_whole_matches_the_engines_legal_moves_are_the_rule_books(rules, policies):
    """At every decision of whole matches the engine's legal_nb equals kit.legal_actions,
    an independent reading of the rule book (the cards at every action are the kit's playouts check),
    and so do legal_action_nb, asked action by action (how built-in policies' choices are checked),
    and tops_build_nb (whether a turn with an empty hand goes on)."""
    game = get_game("spite_and_malice")
    kit = game.kit()
    runner = entry(game, 2, policies, rules)
    decisions = 0
    for unit in range(2):
        for pos in kit.play(6, unit, 2, runner.settings, runner.fns, runner.params, runner.streams):
            found = pos.decision()
            if found is None:
                continue
            seat, (pb, pv, legal) = found
            mine = np.zeros(legal.size, np.bool_)
            assert engine_legal(pos.pub, pv["hand"], seat, mine) == legal.sum()
            assert np.array_equal(mine, legal)
            assert np.array_equal(engine_legal_one_by_one(pos.pub, pv["hand"], seat), legal[:ACTION.COUNT])
            assert engine_tops_build(pos.pub, seat) == legal[:ACTION.STOP].reshape(-1, 8)[: SIDE_END, :4].any()
            decisions += 1
    assert decisions > 100


def test_single_rounds_are_matches_of_one_round():
    rec = analyser.simulate("spite_and_malice", n=300, seed=4, unit="round", keep_records=True,
                            policies=["builder", "random"]).records
    assert (rec["rounds"] == 1).all() and not rec["aborted"].any()
    won = ~rec["draw"]
    assert (rec["win"][won].sum(axis=1) == 1).all() and not rec["win"][~won].any()
    winner = rec["win"][won].argmax(axis=1)
    loser_left = rec["payoff_left"][won][np.arange(won.sum()), 1 - winner]
    assert (rec["score"][won][np.arange(won.sum()), winner] == loser_left).all()
    assert (rec["drawn_rounds"] == rec["draw"]).all()
