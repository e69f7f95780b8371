"""Scenario tests of the Palace rules, one rule of docs/rules/palace.md at a time.

Each test opens with a picture of the table. In the pictures, ``hand`` and
``up``/``down`` are a seat's hand, face-up and face-down cards, ``pile`` is
written bottom first (the top card is last) and ``draw`` top first.
"""
import numpy as np
import pytest
from numba import njit

from analyser.games.dispatch import policy_kinds
from analyser.games.palace import stepwise
from analyser.games.palace.constants import ACTION, DRAW_PILE, MAX_PLAYERS, MAX_SLOTS, N_CARDS, PHASE, SOURCE
from analyser.games.palace.dispatch import BUILT_IN
from analyser.games.palace.policies import lowest_policy
from analyser.games.palace.rules import apply_swap_nb, deal_nb, fill_swap_legal_nb, start_nb
from analyser.games.palace.state import POLICY_SIG, new_state_nb
from analyser.games.palace.trace import decode_log
from analyser.kernels.cards import card_names, rank_value
from tests.games.palace.table import FACE_DOWN, PICKUP, PLAY, Table

STREAMS = np.arange(MAX_PLAYERS, dtype=np.int64)   # policy stream id per seat: the seat number
POINTERS = np.zeros(MAX_PLAYERS, np.int64)        # every seat's policy through its pointer (dispatch.POINTER)


def legal(t):
    return set(t.legal_actions())


def burns(t):
    return [t.counter("burns", s) for s in range(t.players)]


# --------------------------------------------------------------------------- 2s


def test_two_goes_on_anything_and_anything_follows_a_two():
    # seat 0  hand: 2C 5D          pile: AS          (5 is illegal on an ace)
    # seat 1  hand: 3H 4H KH
    t = Table(hands=["2C 5D", "3H 4H KH"], pile="AS")
    assert legal(t) == {PLAY("2"), PICKUP}
    t.play(PLAY("2"))
    assert t.pile() == ["AS", "2C"]
    assert t.seat == 1
    # anything may follow a 2, even a 3 on what was an ace
    assert legal(t) == {PLAY("3"), PLAY("4"), PLAY("K"), PICKUP}
    t.play(PLAY("3"))
    assert t.pile() == ["AS", "2C", "3H"]


def test_two_goes_on_a_nine_and_a_ten_follows_a_two():
    # seat 0  hand: 2C JD          pile: 9S          (J is illegal on a 9)
    # seat 1  hand: 10H KH
    t = Table(hands=["2C JD", "10H KH"], pile="9S")
    assert legal(t) == {PLAY("2"), PICKUP}
    t.play(PLAY("2"))
    # after the 2 the 9 rule no longer applies: K and 10 are both legal
    assert legal(t) == {PLAY("10"), PLAY("K"), PICKUP}


def test_two_on_two():
    # seat 0  hand: 2C 3C          pile: 2S
    t = Table(hands=["2C 3C", "4H"], pile="2S")
    assert legal(t) == {PLAY("2"), PLAY("3"), PICKUP}


# --------------------------------------------------------------------------- ordinary rule and the 9


def test_ordinary_rule_equal_or_higher():
    # seat 0  hand: 3D 7D 8D QD AD     pile: 4C 8C
    t = Table(hands=["3D 7D 8D QD AD", "4H"], pile="4C 8C")
    assert legal(t) == {PLAY("8"), PLAY("Q"), PLAY("A"), PICKUP}
    t.play(PLAY("8"))                  # equal rank is legal
    assert t.pile() == ["4C", "8C", "8D"]


def test_nine_rule_only_nine_or_lower():
    # seat 0  hand: 2D 3D 8D 9D 10D JD AD     pile: 9C
    t = Table(hands=["2D 3D 8D 9D 10D JD AD", "4H"], pile="9C")
    assert legal(t) == {PLAY("2"), PLAY("3"), PLAY("8"), PLAY("9"), PICKUP}
    assert PLAY("10") not in legal(t)   # 10 illegal on a 9 by default
    t.play(PLAY("3"))
    # and after the 3 the ordinary rule applies again
    assert t.pile() == ["9C", "3D"]


def test_nine_rule_on_a_nine_from_the_face_up_cards():
    # seat 0  hand: -   up: 4D KD    pile: 5C 9C
    t = Table(hands=["", "4H"], face_up=["4D KD", ""], pile="5C 9C")
    assert legal(t) == {PLAY("4"), PICKUP}


def test_ten_follows_ordinary_rule_by_default():
    # seat 0  hand: 10D            pile: JC          (10 < J: no legal play)
    t = Table(hands=["10D 3S", "4H"], pile="JC")
    assert legal(t) == {PICKUP}
    # ... while on a lower card it is legal
    t2 = Table(hands=["10D", "4H"], pile="6C")
    assert legal(t2) == {PLAY("10"), PICKUP}


# --------------------------------------------------------------------------- ten_on_anything


def test_ten_on_anything_allows_ten_on_nine_and_still_burns():
    # ten_on_anything on
    # seat 0  hand: 10D JD         pile: 4C 9C
    # seat 1  hand: 4H
    t = Table(hands=["10D JD", "4H"], pile="4C 9C", ten_on_anything=True)
    assert legal(t) == {PLAY("10"), PICKUP}            # J still illegal on the 9
    t.play(PLAY("10"))
    assert t.pile() == []
    assert burns(t) == [1, 0]
    assert t.seat == 0                                 # the burn's extra turn
    assert legal(t) == {PLAY("J")}                     # empty pile: no pickup


def test_ten_on_anything_allows_ten_on_an_ace():
    # seat 0  hand: 10D 3D         pile: AC
    on = Table(hands=["10D 3D", "4H"], pile="AC", ten_on_anything=True)
    off = Table(hands=["10D 3D", "4H"], pile="AC")
    assert legal(on) == {PLAY("10"), PICKUP}
    assert legal(off) == {PICKUP}


# --------------------------------------------------------------------------- burns


def test_ten_burns_the_pile_and_same_player_plays_again():
    # seat 0  hand: 10H 3C 4C      pile: 5C 6D
    # seat 1  hand: 7H
    t = Table(hands=["10H 3C 4C", "7H"], pile="5C 6D")
    t.play(PLAY("10"))
    assert t.pile() == []
    assert t.seat == 0
    assert burns(t) == [1, 0]
    assert [t.pb["gone"][rank_value(r)] for r in ("5", "6", "10")] == [1, 1, 1]   # left the game
    assert legal(t) == {PLAY("3"), PLAY("4")}
    t.play(PLAY("3"))
    assert t.pile() == ["3C"]
    assert t.seat == 1


def test_two_tens_in_one_play_burn_once():
    # seat 0  hand: 10H 10S 3C     pile: 5C
    t = Table(hands=["10H 10S 3C", "7H"], pile="5C")
    assert PLAY("10", 2) in legal(t)
    t.play(PLAY("10", 2))
    assert t.pile() == [] and t.seat == 0 and burns(t) == [1, 0]


def test_four_of_a_kind_in_one_play_burns():
    # seat 0  hand: 7C 7D 7H 7S 3C     pile: 6C
    t = Table(hands=["7C 7D 7H 7S 3C", "8H"], pile="6C")
    assert {PLAY("7", k) for k in (1, 2, 3, 4)} <= legal(t)
    t.play(PLAY("7", 4))
    assert t.pile() == []
    assert burns(t) == [1, 0]
    assert t.seat == 0
    assert legal(t) == {PLAY("3")}


def test_four_of_a_kind_across_plays_burns():
    # seat 0  hand: 7H 7S 3C       pile: 5C 7C 7D     (two 7s already on top)
    t = Table(hands=["7H 7S 3C", "8H"], pile="5C 7C 7D")
    t.play(PLAY("7", 2))
    assert t.pile() == []
    assert burns(t) == [1, 0]
    assert t.seat == 0
    # three on top, one more
    # seat 0  hand: 7S 3C          pile: 7C 7D 7H
    t = Table(hands=["7S 3C", "8H"], pile="7C 7D 7H")
    t.play(PLAY("7"))
    assert t.pile() == [] and burns(t) == [1, 0] and t.seat == 0


def test_four_of_a_kind_across_players_extra_turn_to_fourth_card():
    # 3 players
    # seat 0  hand: 7C 7D 3C       pile: 5C
    # seat 1  hand: 7H 7S 4D
    # seat 2  hand: KC
    t = Table(hands=["7C 7D 3C", "7H 7S 4D", "KC"], pile="5C")
    t.play(PLAY("7", 2))
    assert t.pile() == ["5C", "7C", "7D"]
    assert t.seat == 1
    t.play(PLAY("7", 2))
    assert t.pile() == []
    assert burns(t) == [0, 1, 0]
    assert t.seat == 1                     # seat 1 laid the fourth 7
    assert legal(t) == {PLAY("4")}


def test_four_of_a_kind_one_card_each_from_four_players():
    # 4 players, pile: 7C
    # seat 1 hand: 7D 3C   seat 2 hand: 7H 3D   seat 3 hand: 7S 3H   seat 0 hand: 3S
    t = Table(hands=["3S 4S", "7D 3C", "7H 3D", "7S 3H"], pile="7C", seat=1)
    t.play(PLAY("7"))
    t.play(PLAY("7"))
    assert t.seat == 3 and t.pile() == ["7C", "7D", "7H"]
    t.play(PLAY("7"))
    assert t.pile() == [] and burns(t) == [0, 0, 0, 1] and t.seat == 3


def test_four_not_on_top_do_not_burn():
    # seat 0  hand: 7H 7S 3C       pile: 7C 7D 2H     (a 2 separates the 7s)
    t = Table(hands=["7H 7S 3C", "8H"], pile="7C 7D 2H")
    t.play(PLAY("7", 2))
    assert t.pile() == ["7C", "7D", "2H", "7H", "7S"]
    assert burns(t) == [0, 0]
    assert t.seat == 1


def test_four_twos_burn():
    # seat 0  hand: 2S 3C          pile: 2C 2D 2H
    t = Table(hands=["2S 3C", "8H"], pile="2C 2D 2H")
    t.play(PLAY("2"))
    assert t.pile() == [] and burns(t) == [1, 0] and t.seat == 0


def test_burn_with_last_card_is_out_and_next_player_starts_empty_pile():
    # 3 players, draw pile empty
    # seat 0  hand: 10C   up: -   down: -     pile: 5D 6D
    # seat 1  hand: 3H 9H
    # seat 2  hand: 4S
    t = Table(hands=["10C", "3H 9H", "4S"], pile="5D 6D")
    t.play(PLAY("10"))
    assert t.pb["place"][0] == 1 and t.pb["n_out"] == 1
    assert burns(t) == [1, 0, 0]
    assert t.pile() == []
    assert t.seat == 1
    assert t.pb["phase"] == PHASE.PLAY
    assert legal(t) == {PLAY("3"), PLAY("9")}          # empty pile: any card, no pickup


def test_four_of_a_kind_burn_with_last_face_up_card_is_out():
    # 3 players
    # seat 0  hand: -   up: 8S   down: -      pile: 8C 8D 8H
    # seat 1  hand: 3H
    # seat 2  hand: 4S
    t = Table(hands=["", "3H", "4S"], face_up=["8S", "", ""], pile="8C 8D 8H")
    assert legal(t) == {PLAY("8"), PICKUP}
    t.play(PLAY("8"))
    assert t.pb["place"][0] == 1
    assert burns(t) == [1, 0, 0]
    assert t.pile() == [] and t.seat == 1


def test_burn_with_last_card_in_two_player_game_ends_it():
    # seat 0  hand: 10C             pile: KD
    # seat 1  hand: 3H
    t = Table(hands=["10C", "3H"], pile="KD")   # 10 < K: pickup only
    assert legal(t) == {PICKUP}
    t = Table(hands=["10C", "3H"], pile="5D")
    assert t.play(PLAY("10")) is True
    assert list(t.pb["place"][:2]) == [1, 2]
    assert t.pb["phase"] == PHASE.OVER


# --------------------------------------------------------------------------- face-down cards


def test_face_down_legal_card_is_played():
    # seat 0  hand: -   up: -   down: [KC] [3D]     pile: 5H
    # seat 1  hand: 6C
    t = Table(hands=["", "6C"], face_down=["KC 3D", ""], pile="5H")
    assert legal(t) == {FACE_DOWN(0), FACE_DOWN(1)}       # no pickup when down to face-down
    t.play(FACE_DOWN(0))
    assert t.pile() == ["5H", "KC"]
    assert t.face_down(0) == ["3D"]
    assert t.hand(0) == []
    assert t.seat == 1
    assert t.counter("pickups", 0) == 0


def test_face_down_illegal_card_is_picked_up_with_the_pile():
    # seat 0  hand: -   up: -   down: [KC] [3D]     pile: 4S 5H
    # seat 1  hand: 6C
    t = Table(hands=["", "6C"], face_down=["KC 3D", ""], pile="4S 5H", draw="")
    t.play(FACE_DOWN(1))                                  # 3 on a 5: illegal
    assert sorted(t.hand(0)) == sorted(["3D", "4S", "5H"])
    assert t.pile() == []
    assert t.face_down(0) == ["KC"]
    assert t.counter("pickups", 0) == 1
    assert t.counter("picked_up", 0) == 3                 # the failed card included
    assert t.counter("voluntary", 0) == 0
    assert t.seat == 1
    assert legal(t) == {PLAY("6")}                        # seat 1 starts a new pile


def test_face_down_illegal_on_a_nine():
    # seat 0  down: [JC]           pile: 9D
    t = Table(hands=["", "6C"], face_down=["JC", ""], pile="9D")
    t.play(FACE_DOWN(0))
    assert sorted(t.hand(0)) == ["9D", "JC"]
    assert t.counter("picked_up", 0) == 2 and t.counter("pickups", 0) == 1
    assert t.pb["place"][0] == 0 and t.seat == 1


def test_face_down_ten_burns_and_plays_again():
    # seat 0  down: [10C] [3D]     pile: 5H 6H
    t = Table(hands=["", "6C"], face_down=["10C 3D", ""], pile="5H 6H")
    t.play(FACE_DOWN(0))
    assert t.pile() == [] and burns(t) == [1, 0] and t.seat == 0
    assert legal(t) == {FACE_DOWN(0)}


def test_face_down_last_card_goes_out():
    # 3 players; seat 0  down: [QC]   pile: 5H
    t = Table(hands=["", "6C", "7C"], face_down=["QC", "", ""], pile="5H")
    t.play(FACE_DOWN(0))
    assert t.pb["place"][0] == 1 and t.seat == 1
    assert t.pile() == ["5H", "QC"]


# --------------------------------------------------------------------------- source order


def test_hand_before_face_up_before_face_down():
    # seat 0  hand: 4C   up: KD   down: [AS]     pile: 3H
    # seat 1  hand: 5S 6S 7S
    t = Table(hands=["4C", "5S 6S 7S"], face_up=["KD", ""], face_down=["AS", ""], pile="3H")
    assert legal(t) == {PLAY("4"), PICKUP}               # K is face up: not yet
    t.play(PLAY("4"))
    assert t.pb["source"] == SOURCE.HAND
    t.play(PLAY("5"))                                    # seat 1
    assert legal(t) == {PLAY("K"), PICKUP}               # hand empty: face-up cards now
    assert t.pb["source"] == SOURCE.FACE_UP
    t.play(PLAY("K"))
    assert t.face_up(0) == []
    assert legal(t) == {PICKUP}                          # seat 1: 6, 7 < K
    t.play()
    assert legal(t) == {FACE_DOWN(0)}                    # face-up gone: face-down
    assert t.pb["source"] == SOURCE.FACE_DOWN


def test_never_mix_hand_and_face_up():
    # seat 0  hand: 5C   up: 5D 5H      pile: 4S
    t = Table(hands=["5C", "9S"], face_up=["5D 5H", ""], pile="4S")
    assert legal(t) == {PLAY("5", 1), PICKUP}            # only the one 5 in hand
    t.play(PLAY("5"))
    assert t.pile() == ["4S", "5C"]
    assert t.face_up(0) == ["5D", "5H"]
    # once the hand is empty the face-up pair may go together
    # seat 0  hand: -   up: 5D 5H   pile: 4S
    t = Table(hands=["", "9S"], face_up=["5D 5H", ""], pile="4S")
    assert legal(t) == {PLAY("5", 1), PLAY("5", 2), PICKUP}
    t.play(PLAY("5", 2))
    assert t.pile() == ["4S", "5D", "5H"] and t.face_up(0) == []


# --------------------------------------------------------------------------- picking up


def test_forced_pickup_passes_turn_and_draws_nothing():
    # n = 6
    # seat 0  hand: 3C 4D          pile: 9S KH      draw: QC JC
    # seat 1  hand: 5S 6S
    t = Table(hands=["3C 4D", "5S 6S"], pile="9S KH", draw="QC JC", n=6)
    assert legal(t) == {PICKUP}
    t.play()                                             # forced: no choice asked
    assert sorted(t.hand(0)) == sorted(["3C", "4D", "9S", "KH"])
    assert t.draw_pile() == ["QC", "JC"]                 # nothing drawn
    assert t.pile() == []
    assert t.counter("pickups", 0) == 1
    assert t.counter("picked_up", 0) == 2
    assert t.counter("voluntary", 0) == 0
    assert t.seat == 1
    assert legal(t) == {PLAY("5"), PLAY("6")}            # a new pile


def test_forced_pickup_from_face_up():
    # seat 0  hand: -   up: 3D 4D    pile: QS
    t = Table(hands=["", "5S"], face_up=["3D 4D", ""], pile="QS")
    assert legal(t) == {PICKUP}
    t.play()
    assert t.hand(0) == ["QS"] and t.face_up(0) == ["3D", "4D"]
    assert t.counter("voluntary", 0) == 0 and t.seat == 1


def test_voluntary_pickup_with_legal_play():
    # seat 0  hand: 3C QD          pile: 8S 9H      draw: KC
    # seat 1  hand: 5S
    t = Table(hands=["3C QD", "5S"], pile="8S 9H", draw="KC")
    assert legal(t) == {PLAY("3"), PICKUP}
    t.play(PICKUP)
    assert sorted(t.hand(0)) == sorted(["3C", "QD", "8S", "9H"])
    assert t.counter("voluntary", 0) == 1
    assert t.counter("pickups", 0) == 1
    assert t.counter("picked_up", 0) == 2
    assert t.draw_pile() == ["KC"]
    assert t.seat == 1 and t.pile() == []


def test_voluntary_pickup_from_face_up():
    # seat 0  hand: -   up: KD   down: [3S]    pile: 5C
    t = Table(hands=["", "4S"], face_up=["KD", ""], face_down=["3S", ""], pile="5C")
    assert legal(t) == {PLAY("K"), PICKUP}
    t.play(PICKUP)
    assert t.counter("voluntary", 0) == 1 and t.hand(0) == ["5C"]


def test_no_pickup_on_an_empty_pile():
    # seat 0  hand: 3C QD          pile: (empty)
    t = Table(hands=["3C QD", "5S"])
    assert legal(t) == {PLAY("3"), PLAY("Q")}


def test_no_voluntary_pickup_when_down_to_face_down():
    # seat 0  hand: -   up: -   down: [KD] [4C]   pile: 5C 6C
    t = Table(hands=["", "4S"], face_down=["KD 4C", ""], pile="5C 6C")
    assert PICKUP not in legal(t)
    assert legal(t) == {FACE_DOWN(0), FACE_DOWN(1)}


def test_trace_marks_pickup_voluntary_exactly_when_a_play_existed():
    # seat 0  hand: 3C QD          pile: 8S 9H      -> picks up by choice
    # seat 1  hand: JS             pile: (empty)    -> plays J
    # seat 0  hand: 3C QD 8S 9H    pile: JS         -> plays Q
    # seat 1  hand: -   down: [4D]  pile: JS QD     -> 4 fails: face-down pickup
    t = Table(hands=["3C QD", "JS"], face_down=["", "4D"], pile="8S 9H")
    t.log = np.zeros(4096, np.int32)
    t.log[0] = 1
    t.play(PICKUP)
    t.play(PLAY("J"))
    t.play(PLAY("Q"))
    t.play(FACE_DOWN(0))
    pickups = [e for e in decode_log(t.log) if e["type"] == "pickup"]
    assert [(e["seat"], e["voluntary"]) for e in pickups] == [(0, True), (1, False)]
    assert pickups[1]["face_down"] == "4D"
    assert sorted(pickups[1]["cards"]) == sorted(["4D", "JS", "QD"])
    assert t.counter("voluntary", 0) == 1 and t.counter("voluntary", 1) == 0
    # a forced pickup is not voluntary either
    # seat 0  hand: 3C   pile: KS
    t = Table(hands=["3C", "4S"], pile="KS")
    t.log = np.zeros(4096, np.int32)
    t.log[0] = 1
    t.play()
    assert [e["voluntary"] for e in decode_log(t.log) if e["type"] == "pickup"] == [False]


# --------------------------------------------------------------------------- drawing


def test_draw_up_to_n_after_playing_from_hand():
    # n = 3
    # seat 0  hand: 5C 5D 8H       pile: 4S      draw: QC KD AH
    t = Table(hands=["5C 5D 8H", "9S"], pile="4S", draw="QC KD AH")
    t.play(PLAY("5", 2))
    assert sorted(t.hand(0)) == sorted(["8H", "QC", "KD"])
    assert t.draw_pile() == ["AH"]
    assert t.pb["hand_len"][0] == 3


def test_draw_stops_when_draw_pile_runs_out():
    # seat 0  hand: 5C 5D 8H       draw: QC
    t = Table(hands=["5C 5D 8H", "9S"], pile="4S", draw="QC")
    t.play(PLAY("5", 2))
    assert sorted(t.hand(0)) == ["8H", "QC"]
    assert t.draw_pile() == []


def test_no_draw_when_holding_n_or_more():
    # n = 3
    # seat 0  hand: 3C 4D 5H 6S 7S    draw: QC
    t = Table(hands=["3C 4D 5H 6S 7S", "9S"], draw="QC")
    t.play(PLAY("3"))
    assert t.pb["hand_len"][0] == 4 and t.draw_pile() == ["QC"]
    # seat 0  hand: 3C 4D 5H 6S   (exactly n after the play)
    t = Table(hands=["3C 4D 5H 6S", "9S"], draw="QC")
    t.play(PLAY("3"))
    assert t.pb["hand_len"][0] == 3 and t.draw_pile() == ["QC"]


def test_no_draw_after_playing_from_face_up():
    # seat 0  hand: -   up: 6D KD   draw: QC   pile: 4S     (draws only after hand plays)
    t = Table(hands=["", "9S"], face_up=["6D KD", ""], pile="4S", draw="QC")
    t.play(PLAY("6"))
    assert t.hand(0) == [] and t.draw_pile() == ["QC"]


def test_draw_happens_before_the_extra_turn():
    # n = 3
    # seat 0  hand: 10C 3D 4D      pile: 5S      draw: JC QC
    t = Table(hands=["10C 3D 4D", "9S"], pile="5S", draw="JC QC")
    t.play(PLAY("10"))
    assert t.seat == 0 and t.pile() == []
    assert sorted(t.hand(0)) == sorted(["3D", "4D", "JC"])     # n cards again
    assert t.draw_pile() == ["QC"]
    assert legal(t) == {PLAY("3"), PLAY("4"), PLAY("J")}


def test_burn_with_last_hand_card_draws_and_is_not_out():
    # seat 0  hand: 10C   up: -   down: -   pile: 5S   draw: JC
    t = Table(hands=["10C", "9S"], pile="5S", draw="JC")
    t.play(PLAY("10"))
    assert t.hand(0) == ["JC"]
    assert t.pb["place"][0] == 0 and t.seat == 0


# --------------------------------------------------------------------------- going out and the end


def test_going_out_places_and_loser():
    # 3 players, draw empty
    # seat 0  hand: KC             pile: 5D
    # seat 1  hand: AC 3C
    # seat 2  hand: AD
    t = Table(hands=["KC", "AC 3C", "AD"], pile="5D")
    assert t.play(PLAY("K")) is False
    assert t.pb["place"][0] == 1 and t.pb["n_out"] == 1
    assert t.pile() == ["5D", "KC"]            # no burn: the pile stays
    assert t.seat == 1
    t.play(PLAY("A"))
    assert t.seat == 2
    t.play(PLAY("A"))
    assert t.pb["place"][2] == 2 and t.pb["n_out"] == 2
    assert t.pb["phase"] == PHASE.OVER
    assert t.pb["place"][1] == 3               # last player left: place = players


def test_out_players_are_skipped():
    # 3 players
    # seat 0  hand: 4C             pile: 3D
    # seat 1  hand: 5C 8C 9C
    # seat 2  hand: 6C 7D
    t = Table(hands=["4C", "5C 8C 9C", "6C 7D"], pile="3D")
    t.play(PLAY("4"))                          # seat 0 out
    t.play(PLAY("5"))
    t.play(PLAY("6"))
    assert t.seat == 1                         # seat 0 skipped
    t.play(PLAY("8"))
    assert t.seat == 2
    assert t.pb["phase"] == PHASE.PLAY


def test_two_player_game_ends_with_first_out():
    # seat 0  hand: -   up: KC   down: -    pile: 5D
    # seat 1  hand: 3C
    t = Table(hands=["", "3C"], face_up=["KC", ""], pile="5D")
    assert t.play(PLAY("K")) is True
    assert list(t.pb["place"][:2]) == [1, 2]
    assert t.pb["phase"] == PHASE.OVER


def test_not_out_while_face_down_cards_remain():
    # seat 0  hand: -   up: KC   down: [3S]   pile: 5D
    t = Table(hands=["", "3C"], face_up=["KC", ""], face_down=["3S", ""], pile="5D")
    assert t.play(PLAY("K")) is False
    assert t.pb["place"][0] == 0 and t.seat == 1


# --------------------------------------------------------------------------- multiple cards


def test_several_cards_of_one_rank_in_one_play():
    # seat 0  hand: 8C 8D 8H 3C    pile: 6S
    t = Table(hands=["8C 8D 8H 3C", "9S"], pile="6S")
    assert legal(t) == {PLAY("8", 1), PLAY("8", 2), PLAY("8", 3), PICKUP}
    t.play(PLAY("8", 3))
    assert t.pile() == ["6S", "8C", "8D", "8H"]
    assert t.hand(0) == ["3C"]
    assert t.pb["top_run"] == 3
    assert t.seat == 1


# --------------------------------------------------------------------------- start rule


def test_start_rule_lowest_rank_three_or_above_twos_do_not_count():
    # seat 0  hand: 2C 2D 5H
    # seat 1  hand: 4C 9D KD      <- lowest rank >= 3 is the 4
    # seat 2  hand: 6S 7S 8S
    t = Table(hands=["2C 2D 5H", "4C 9D KD", "6S 7S 8S"], seat=0)
    start_nb(t.pb, t.priv, t.hid[0])
    assert t.pb["seat"] == 1 and t.hid[0]["first"] == 1
    assert t.pb["first_play"]
    assert legal(t) == {PLAY("4")}                 # must play the 4; no pickup, nothing else


def test_start_rule_starter_may_add_more_of_the_rank():
    # seat 0  hand: 3C 3D 3H 2S   <- three 3s, a 2 (2 not allowed to start)
    # seat 1  hand: 5C 6C 7C
    t = Table(hands=["3C 3D 3H 2S", "5C 6C 7C"], seat=1)
    start_nb(t.pb, t.priv, t.hid[0])
    assert t.seat == 0
    assert legal(t) == {PLAY("3", 1), PLAY("3", 2), PLAY("3", 3)}
    t.play(PLAY("3", 2))
    assert t.pile() == ["3C", "3D"]
    assert not t.pb["first_play"]
    assert t.seat == 1
    assert legal(t) == {PLAY("5"), PLAY("6"), PLAY("7"), PICKUP}


def test_start_rule_tie_is_broken_by_the_deal_stream():
    # seat 0  hand: 3C 9C     seat 1  hand: 5D 6D     seat 2  hand: 3H KH
    # both seat 0 and seat 2 hold a 3; which one starts depends on the deal's stream
    seen = set()
    for seed in range(1, 40):
        t = Table(hands=["3C 9C", "5D 6D", "3H KH"])
        t.hid[0]["rng"][0] = seed * 0x9E3779B97F4A7C15 % 2**64
        start_nb(t.pb, t.priv, t.hid[0])
        seen.add(t.seat)
        assert legal(t) == {PLAY("3")}
    assert seen == {0, 2}


@njit(POLICY_SIG, cache=True)
def _swap_done(pub, pv, legal, params):
    return ACTION.SWAP_DONE


def test_new_game_starter_holds_lowest_rank():
    # real deals (seed 7, deals 0-4, 2/3/4 players), every seat swaps nothing
    # seat s  hand: n cards   ->  the starter holds the lowest rank >= 3 over all hands
    pub, priv, hid, lg = new_state_nb()
    log = np.zeros(0, np.int32)
    params = np.zeros((MAX_PLAYERS, 8))
    settings = np.array([0, 0, 5000], np.int64)
    for players in (2, 3, 4):
        for deal in range(5):
            stepwise.begin_unit(7, deal, players, settings, STREAMS, (_swap_done,) * MAX_PLAYERS, POINTERS, params,
                                pub, priv, hid, lg, log)
            pb = pub[0]
            lowest = min(r for s in range(players) for r in range(1, 13) if priv[s]["counts"][r] > 0)
            assert pb["phase"] == PHASE.PLAY and pb["first_play"]
            assert priv[pb["seat"]]["counts"][lowest] > 0
            assert pb["top_rank"] == lowest


# --------------------------------------------------------------------------- swap


def test_swap_exchanges_hand_and_face_up():
    # seat 0  hand: 3C 4C   up: AD KD
    t = Table(hands=["3C 4C", "5S"], face_up=["AD KD", ""])
    lg = np.zeros(ACTION.COUNT, np.bool_)
    n = fill_swap_legal_nb(t.pb, t.priv[0], 0, lg)
    # 2 hand ranks x 2 face-up slots, and done
    assert n == 5 and lg[ACTION.SWAP_DONE]
    assert lg[ACTION.SWAP + 1 * MAX_SLOTS + 0] and lg[ACTION.SWAP + 2 * MAX_SLOTS + 1]
    apply_swap_nb(t.pb, t.priv[0], 0, ACTION.SWAP + 1 * MAX_SLOTS + 0)   # 3C <-> AD
    assert t.hand(0) == ["4C", "AD"]
    assert t.face_up(0) == ["3C", "KD"]
    assert t.pb["hand_len"][0] == 2 and t.pb["face_up_len"][0] == 2


def _row_code(row):
    """A face-up row as one number (exact in a float64): slot by slot, base 53, -1 as 0."""
    code = 0.0
    for c in row:
        code = code * 53 + (c + 1)
    return code


@njit(POLICY_SIG, cache=True)
def _watcher(pub, pv, legal, params):
    """A notebook-style swap policy that looks at the other seats: at its first
    swap decision it writes every seat's face-up row as it sees it into its own
    memory (slot s: seat s's row, as _row_code), then makes the first legal
    swap and says done. memory[7] counts its decisions."""
    m = pv["memory"]
    if m[7] == 0:
        for s in range(pub["players"]):
            code = 0.0
            for j in range(MAX_SLOTS):
                code = code * 53 + (pub["face_up"][s, j] + 1)
            m[s] = code
    m[7] += 1
    if m[7] == 1:
        for a in range(ACTION.SWAP, ACTION.SWAP_DONE):
            if legal[a]:
                return a
    return ACTION.SWAP_DONE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_swaps_from_the_dealt_table(players):
    # a real deal (seed 5, deal 0); every seat notes the face-up rows it sees, then swaps one card
    # seat 0  up: a b c  -> swaps first        seat 1..  must still see seat 0's  up: a b c
    # the final rows go face up together, after the last seat is done, as the swap events log them
    settings = np.array([0, 0, 5000], np.int64)
    params = np.zeros((MAX_PLAYERS, 1))
    pub, priv, hid, lg = new_state_nb()
    deal_nb(5, 0, players, settings, STREAMS, pub, priv, hid)
    dealt = pub[0]["face_up"].copy()
    log = np.zeros(4096, np.int32)
    log[0] = 1
    stepwise.begin_unit(5, 0, players, settings, STREAMS, (_watcher,) * MAX_PLAYERS, POINTERS, params, pub, priv, hid,
                        lg, log)
    pb = pub[0]
    seen = [_row_code(dealt[s]) for s in range(players)]
    swaps = [e for e in decode_log(log) if e["type"] == "swap"]
    assert [e["seat"] for e in swaps] == list(range(players))
    for s in range(players):
        assert list(priv[s]["memory"][:players]) == seen        # the dealt table, whoever swapped before
        assert priv[s]["memory"][7] == 2                        # one swap, then done
        assert (pb["face_up"][s] != dealt[s]).sum() == 1        # its own swap took effect
        assert swaps[s]["face_up"] == card_names([c for c in pb["face_up"][s] if c >= 0])
        assert swaps[s]["hand"] == card_names(np.flatnonzero(priv[s]["has"]))
    assert hid[0]["actions"] == players


# --------------------------------------------------------------------------- cap


def test_max_actions_cap_aborts_table():
    # max_actions = 2
    # seat 0  hand: 3C 4C 5C       seat 1  hand: 6C 7C 8C
    t = Table(hands=["3C 4C 5C", "6C 7C 8C"], max_actions=2)
    assert t.play(PLAY("3")) is False
    assert t.play(PLAY("6")) is False
    assert t.hid[0]["actions"] == 2
    assert t.play(PLAY("4")) is True
    assert t.hid[0]["aborted"]
    assert t.pile() == ["3C", "6C"]                   # the capped action was not played


def test_max_actions_cap_aborts_dealt_game():
    # a dealt 4-player game (seed 3, deal 0), max_actions = 10, lowest policy at every seat
    # seat 0..3  hand: 3  up: 3  down: 3      draw: 16
    pub, priv, hid, lg = new_state_nb()
    log = np.zeros(0, np.int32)
    params = np.zeros((MAX_PLAYERS, 1))
    settings = np.array([0, 0, 10], np.int64)
    pols = (lowest_policy,) * MAX_PLAYERS
    kinds = policy_kinds(pols, BUILT_IN, params)
    stepwise.begin_unit(3, 0, 4, settings, STREAMS, pols, kinds, params, pub, priv, hid, lg, log)
    steps = 0
    while not stepwise.step(3, 0, settings, STREAMS, pols, kinds, params, pub, priv, hid, lg, log):
        steps += 1
        assert steps <= 10
    assert hid[0]["aborted"]
    assert hid[0]["actions"] == 10
    assert pub[0]["n_out"] == 0


# --------------------------------------------------------------------------- deal


def _fresh():
    return new_state_nb()[:3]


def _all_cards(pub, priv, hid, players):
    pb, hd = pub[0], hid[0]
    out = []
    for s in range(players):
        out += list(np.flatnonzero(priv[s]["has"]))
        out += [c for c in pb["face_up"][s] if c >= 0]
        out += list(hd["face_down"][s, : pb["face_down_len"][s]])
    out += list(hd["draw"][: pb["draw_len"]])
    out += list(hd["unused"][: hd["unused_len"]])
    return sorted(int(c) for c in out)


def test_short_game_deals_three_three_three_at_two_players():
    # short_game on, 2 players
    # seat s  hand: 3   up: 3   down: 3      draw: 16      unused: 52 - 18 - 16 = 18
    pub, priv, hid = _fresh()
    deal_nb(11, 0, 2, np.array([1, 0, 5000], np.int64), STREAMS, pub, priv, hid)
    pb, hd = pub[0], hid[0]
    assert pb["n"] == 3
    for s in range(2):
        assert pb["face_down_len"][s] == 3
        assert pb["face_up_len"][s] == 3
        assert pb["hand_len"][s] == 3 and priv[s]["has"].sum() == 3
    assert pb["draw_len"] == 16
    assert hd["unused_len"] == 52 - 2 * 9 - 16
    assert _all_cards(pub, priv, hid, 2) == list(range(N_CARDS))


@pytest.mark.parametrize("players, n", [(2, 6), (3, 4), (4, 3)])
def test_normal_deal_sizes(players, n):
    # seat s  hand: n   up: n   down: n      draw: 16      unused: 0
    # n = 6 / 4 / 3 for 2 / 3 / 4 players
    pub, priv, hid = _fresh()
    deal_nb(11, 1, players, np.array([0, 0, 5000], np.int64), STREAMS, pub, priv, hid)
    pb, hd = pub[0], hid[0]
    assert pb["n"] == n
    for s in range(players):
        assert pb["face_down_len"][s] == n
        assert pb["face_up_len"][s] == n
        assert pb["hand_len"][s] == n and priv[s]["has"].sum() == n
    assert pb["draw_len"] == DRAW_PILE == 16
    assert hd["unused_len"] == 0
    assert _all_cards(pub, priv, hid, players) == list(range(N_CARDS))


def test_short_game_at_four_players_is_the_normal_size():
    # short_game on, 4 players: 3/3/3 each, draw 16, nothing left out
    pub, priv, hid = _fresh()
    deal_nb(11, 2, 4, np.array([1, 0, 5000], np.int64), STREAMS, pub, priv, hid)
    assert pub[0]["n"] == 3 and pub[0]["draw_len"] == 16 and hid[0]["unused_len"] == 0
