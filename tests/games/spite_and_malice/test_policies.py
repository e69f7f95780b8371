"""The built-in Spite & Malice policies on hand-built positions: each rule
policies.py documents, every parameter of patient, legal answers everywhere,
and no writes to what a policy is handed but does not own (``pub``, ``legal``).

Positions are positions.Table (seat to act, its hand, piles); actions are
written as there: ``P>b1`` the payoff top, ``S2>b0`` a side top, ``7>b1`` a
hand card, ``7>s3`` a discard, ``stop``.
"""
import numpy as np
import pytest

import analyser
from analyser.games.registry import get_game
from analyser.games.spite_and_malice.catalog import POLICIES
from analyser.games.spite_and_malice.constants import ACTION, LEGAL_SIZE
from analyser.testing.checks import entry, same_records
from tests.games.spite_and_malice.positions import Table, action

SPECS = {s.name: s for s in POLICIES}


def act(name, t, **params):
    """The policy's answer for the seat to act; it must be legal and leave pub and legal untouched."""
    legal = np.zeros(LEGAL_SIZE, np.bool_)
    legal[t.legal_actions()] = True
    row = SPECS[name].bind(**params).row()
    before = legal.tobytes(), t.pub.tobytes(), t.priv[1 - t.seat].tobytes()
    a = SPECS[name].function(t.pb, t.priv[t.seat], legal, row)
    assert legal.tobytes() == before[0] and t.pub.tobytes() == before[1], f"{name} wrote to pub or legal"
    assert t.priv[1 - t.seat].tobytes() == before[2]
    assert 0 <= a < ACTION.COUNT and legal[a], f"{name} answered an illegal action {a}"
    return a


BOTH = ["builder", "patient"]


@pytest.mark.parametrize("name", BOTH)
def test_plays_the_payoff_top_when_it_fits(name):
    # builds: A 2 3, empty, A; payoff top 4 fits pile 0
    t = Table(payoffs=["9 4", "Q"], hands=["2 5 6 K 9", "2 2 2"], builds=["A 2 3", "", "A"])
    assert act(name, t) == action("P>b0")


@pytest.mark.parametrize("name", BOTH)
def test_a_king_payoff_top_goes_on_the_highest_pile(name):
    t = Table(payoffs=["9 K", "Q"], hands=["2 5 6 7 9", "2 2 2"], builds=["A 2 3", "A 2 3 4 5", "A"])
    assert act(name, t) == action("P>b1")


def test_block_keeps_a_king_payoff_top_off_a_pile_that_would_help_the_opponent():
    # the opponent shows 7: a King onto pile 1 (showing 5) would leave it at 6
    t = Table(payoffs=["9 K", "7"], hands=["2 5 6 7 9", "2 2 2"], builds=["A 2 3", "A 2 3 4 5", "A"])
    assert act("patient", t, block=1) == action("P>b0") and act("patient", t) == action("P>b1")


@pytest.mark.parametrize("name", BOTH)
def test_builds_the_chain_to_the_payoff_top_side_tops_first(name):
    # payoff top 6; pile 0 shows 3: 4 (side 1), 5 (hand) reach it; the side top goes first
    t = Table(payoffs=["9 6", "Q"], hands=["5 4 9 9 J", "2 2 2"], sides=[["", "4", "", ""], []],
              builds=["A 2 3", "A 2 3 4 5 6 7"])
    assert act(name, t) == action("S1>b0")


@pytest.mark.parametrize("name", BOTH)
def test_a_king_fills_a_gap_of_the_chain_but_naturals_go_first(name):
    # payoff top 6; pile 0 shows 3; 5 in hand, no 4: the chain needs a King, which is played when due
    t = Table(payoffs=["9 6", "Q"], hands=["5 K 9 9 J", "2 2 2"], builds=["A 2 3", "A 2 3 4 5 6 7"])
    assert act(name, t) == action("K>b0")
    t = Table(payoffs=["9 6", "Q"], hands=["4 K 9 9 J", "2 2 2"], builds=["A 2 3", "A 2 3 4 5 6 7"])
    assert act(name, t) == action("4>b0")


def test_the_cheapest_chain_wins():
    # payoff top 7: pile 0 (shows 2) needs 3 4 5 6; pile 1 (shows 4) needs 5 6: pile 1
    t = Table(payoffs=["9 7", "Q"], hands=["3 4 5 6 J", "2 2 2"], builds=["A 2", "A 2 3 4"])
    assert act("builder", t) == action("5>b1")


def test_save_kings_keeps_kings_out_of_partial_progress():
    # payoff top 9; pile 0 shows 2; hand K 10 10 10 Q: no chain (3..8 missing, one King);
    # save_kings=1 discards, save_kings=0 plays the King toward the payoff top
    t = Table(payoffs=["9 9", "Q"], hands=["K 10 10 10 Q", "2 2 2"], builds=["A 2"])
    assert (act("builder", t) & 7) >= 4 and (act("patient", t) & 7) >= 4
    assert act("patient", t, save_kings=0) == action("K>b0")


def test_dump_plays_cards_past_the_payoff_top():
    # payoff top 3; pile 0 shows 5: the hand's 6 takes it past the payoff top
    t = Table(payoffs=["9 3", "Q"], hands=["6 10 10 J Q", "2 2 2"], builds=["A 2 3 4 5"])
    assert act("builder", t) == action("6>b0") and act("patient", t) == action("6>b0")
    assert (act("patient", t, dump=0) & 7) >= 4


def test_block_keeps_other_cards_off_the_opponents_payoff_top_minus_one():
    # the opponent shows 7; our 6 onto pile 0 (showing 5) would let it play its 7
    t = Table(payoffs=["9 3", "7"], hands=["6 10 10 J Q", "2 2 2"], builds=["A 2 3 4 5"])
    assert act("builder", t) == action("6>b0") and act("patient", t) == action("6>b0")
    assert (act("patient", t, block=1) & 7) >= 4
    # a build toward our own payoff top is played all the same
    t = Table(payoffs=["9 8", "7"], hands=["6 10 10 J Q", "2 2 2"], builds=["A 2 3 4 5"])
    assert act("patient", t, block=1) == action("6>b0")


@pytest.mark.parametrize("name", BOTH)
def test_discards_make_descending_runs_then_pairs(name):
    # payoff top 4 out of reach (A 2 3 missing, one King); side tops 8, 5, empty, 10:
    # the 7 goes onto the 8 (a run beats an empty pile), never the King
    t = Table(payoffs=["9 4", "Q"], hands=["7 K 3 Q Q", "2 2 2"], sides=[["8", "5", "", "10"], []],
              builds=["A 2 3 4 5 6 7 8 9 10"])
    assert act(name, t) == action("7>s0")
    t = Table(payoffs=["9 4", "Q"], hands=["5 K K", "2 2 2"], sides=[["9", "5", "", "10"], []])
    assert act(name, t) == action("5>s1")


def test_side_runs_off_fills_empty_piles_first():
    t = Table(payoffs=["9 4", "Q"], hands=["7 K 3 Q Q", "2 2 2"], sides=[["8", "5", "", "10"], []],
              builds=["A 2 3 4 5 6 7 8 9 10"])
    assert act("patient", t, side_runs=0) == action("Q>s2")


@pytest.mark.parametrize("name", BOTH)
def test_a_king_is_discarded_only_from_a_hand_of_kings(name):
    t = Table(payoffs=["9 4", "Q"], hands=["K K", "2 2 2"], sides=[["8", "5", "9", "10"], []],
              builds=["A 2 3 4 5 6 7 8 9 10"])
    assert act(name, t) in [action(f"K>s{i}") for i in range(4)]


def test_an_empty_hand_stops_when_nothing_helps():
    # hand empty; the side top 9 fits pile 0 (showing 8) but takes it past the payoff top 3:
    # builder plays it out (dump), patient:dump=0 stops
    t = Table(payoffs=["9 3", "Q"], hands=["", "2 2 2"], sides=[["9", "", "", ""], []],
              builds=["A 2 3 4 5 6 7 8"])
    assert act("builder", t) == action("S0>b0")
    assert act("patient", t, dump=0) == ACTION.STOP


def random_answers(t, seeds=400):
    """random's answers for the seat to act under ``seeds`` streams."""
    seen = []
    for seed in range(seeds):
        t.priv[t.seat]["rng"][0] = seed
        seen.append(act("random", t))
    return seen


def assert_uniform(seen, actions):
    counts = np.array([seen.count(a) for a in actions])
    assert set(seen) == set(actions) and counts.min() > len(seen) / len(actions) / 2, counts


def test_random_builds_uniformly_while_it_can_else_discards_uniformly():
    # builds: the payoff top 3 and the hand's 2 onto pile 1 (showing A), the hand's A onto pile 0 (empty);
    # the 8 legal discards are never chosen while a build is legal
    t = Table(payoffs=["9 3", "Q"], hands=["A 2", "2 2 2"], builds=["", "A", "A 2"])
    builds = [a for a in t.legal_actions() if a != ACTION.STOP and (a & 7) < 4]
    assert sorted(builds) == sorted(action(a) for a in ["A>b0", "2>b1", "P>b2"]) and len(t.legal_actions()) == 11
    assert_uniform(random_answers(t), builds)
    # nothing builds: the 12 discards (3 values onto 4 side piles) alike
    t = Table(payoffs=["9 7", "Q"], hands=["5 9 9 J", "2 2 2"], sides=[["8", "", "", ""], []],
              builds=["A 2", "A 2 3"])
    discards = t.legal_actions()
    assert all((a & 7) >= 4 for a in discards) and len(discards) == 12
    assert_uniform(random_answers(t), discards)


def test_random_with_an_empty_hand_builds_and_never_stops_while_it_can():
    # hand empty: the side top 3 fits pile 0, the side top K any of the three; stopping is legal but never chosen
    t = Table(payoffs=["9 7", "Q"], hands=["", "2 2 2"], sides=[["3", "K", "", ""], []], builds=["A 2"])
    assert ACTION.STOP in t.legal_actions() and len(t.legal_actions()) == 5
    assert_uniform(random_answers(t), [action(a) for a in ["S0>b0", "S1>b0", "S1>b1", "S1>b2"]])


def test_random_is_a_beginner_baseline_whose_matches_end():
    """Uniform over every legal action, random discarded at once nearly every turn, so random
    against random had every round drawn on a stock-out and every match aborted at max_games
    (200 rounds); against builder it won no round. Building first, it ends its matches and wins
    a few rounds from builder, never a match."""
    kw = dict(n=200, seed=1, keep_records=True, progress=False)
    both = analyser.simulate("spite_and_malice", policies=["random", "random"], **kw).records
    assert both["aborted"].mean() <= 0.01 and (both["rounds"] < 50).mean() > 0.9
    against = analyser.simulate("spite_and_malice", policies=["random", "builder"], **kw).records
    assert against["aborted"].mean() <= 0.01
    assert against["win"][:, 1].sum() == 200 and 0 < against["rounds_won"][:, 0].sum() < 0.05 * against["rounds"].sum()


def test_policies_answer_legally_and_never_write_their_inputs_over_whole_matches():
    """Every built-in policy at every decision of a few matches (the kit's playouts)."""
    game = get_game("spite_and_malice")
    kit = game.kit()
    runner = entry(game, 2, ["patient:save_kings=0,side_runs=0", "random"], {"payoff_size": 8, "target": 10})
    asked = 0
    for unit in range(2):
        for pos in kit.play(4, unit, 2, runner.settings, runner.fns, runner.params, runner.streams):
            decision = pos.decision()
            if decision is None:
                continue
            seat, (pb, pv, legal) = decision
            for spec in (s for s in POLICIES if not s.search):     # tests/test_search_players.py: the rest
                pub_bytes, legal_bytes = pos.pub.tobytes(), legal.tobytes()
                mine = pv.copy()
                a = spec.function(pb, mine, legal, spec.bind().row())
                assert legal[a], f"{spec.name} answered an illegal action"
                assert pos.pub.tobytes() == pub_bytes and legal.tobytes() == legal_bytes
                asked += 1
    assert asked > 200


def test_patient_with_its_default_switches_is_builder():
    """The measured defaults (catalog.py) are builder's choices: the same records, match for match."""
    a = analyser.simulate("spite_and_malice", n=40, seed=2, policies=["builder", "random"], keep_records=True)
    b = analyser.simulate("spite_and_malice", n=40, seed=2, policies=["patient", "random"], keep_records=True)
    assert same_records(a.records, b.records)


def test_blocker_plays_a_card_that_takes_the_opponents_payoff_top_away_first():
    # the opponent shows 7 and pile 0 shows 6; our payoff top 5 is out of reach this turn (pile 1
    # shows A, hand 2 7 J Q Q: no 3 or 4), so builder builds 2 toward it; blocker plays its 7 first
    t = Table(payoffs=["9 5", "3 7"], hands=["2 7 J Q Q", "2 2 2"], builds=["A 2 3 4 5 6", "A"])
    assert act("builder", t) == action("2>b1")
    assert act("blocker", t) == action("7>b0") and act("blocker", t, spoil=0) == action("2>b1")
    # a side top first
    t = Table(payoffs=["9 5", "3 7"], hands=["2 7 J Q Q", "2 2 2"], sides=[["", "", "7", ""], []],
              builds=["A 2 3 4 5 6", "A"])
    assert act("blocker", t) == action("S2>b0")


def test_blocker_spends_a_king_to_spoil_only_with_spoil_2():
    # the opponent shows 7, pile 0 shows 6; no 7 and no chain to our payoff top J: builder keeps its
    # King and discards, blocker (spoil=2, its default) plays the King onto pile 0, spoil=1 discards
    t = Table(payoffs=["9 J", "3 7"], hands=["K 2 9 9 Q", "2 2 2"], builds=["A 2 3 4 5 6"])
    assert (act("builder", t) & 7) >= 4 and (act("blocker", t, spoil=1) & 7) >= 4
    assert act("blocker", t) == action("K>b0")
    # the chain to our own payoff top goes first: 7 onto pile 0 (showing 6) reaches the payoff 8
    t = Table(payoffs=["9 8", "3 7"], hands=["K 7 9 9 Q", "2 2 2"], builds=["A 2 3 4 5 6"])
    assert act("blocker", t) == action("7>b0")
    t = Table(payoffs=["9 8", "3 9"], hands=["K 7 9 9 Q", "2 2 2"], builds=["A 2 3 4 5 6", "A 2 3 4 5 6 7 8"])
    assert act("blocker", t) == action("7>b0")


def test_blocker_reach_keeps_back_cards_that_open_the_opponents_way():
    # our payoff top 3; our 6 onto pile 0 (showing 5) takes it past; the opponent shows 8 with a
    # side top 7: after the 6 it could play 7 then 8. reach=-1 (the default) plays it like builder
    t = Table(payoffs=["9 3", "4 8"], hands=["6 10 10 J Q", "2 2 2"], sides=[[], ["7", "", "", ""]],
              builds=["A 2 3 4 5"])
    assert act("builder", t) == action("6>b0") and act("blocker", t) == action("6>b0")
    assert (act("blocker", t, reach=0) & 7) >= 4
    # without the side top the 7 would have to come from the opponent's hand: reach=1 guesses it does
    t = Table(payoffs=["9 3", "4 8"], hands=["6 10 10 J Q", "2 2 2"], builds=["A 2 3 4 5"])
    assert act("blocker", t, reach=0) == action("6>b0") and (act("blocker", t, reach=1) & 7) >= 4
    # a King on an opponent's side pile fills the gap
    t = Table(payoffs=["9 3", "4 8"], hands=["6 10 10 J Q", "2 2 2"], sides=[[], ["", "K", "", ""]],
              builds=["A 2 3 4 5"])
    assert (act("blocker", t, reach=0) & 7) >= 4


def test_blocker_strict_holds_back_builds_toward_its_own_payoff_top_too():
    # our payoff top 9: the 6 onto pile 0 (showing 5) is toward it, but opens the opponent's 7
    t = Table(payoffs=["9 9", "4 7"], hands=["6 10 10 J Q", "2 2 2"], builds=["A 2 3 4 5"])
    assert act("blocker", t, reach=0) == action("6>b0")
    assert (act("blocker", t, reach=0, strict=1) & 7) >= 4


def test_blocker_puts_a_king_payoff_top_where_it_opens_nothing():
    # the opponent shows 7: a King onto pile 1 (showing 5) would leave it at 6; with reach=0 it goes
    # onto pile 0 (showing 3) instead, by default onto the highest pile as builder's
    t = Table(payoffs=["9 K", "4 7"], hands=["2 5 6 7 9", "2 2 2"], builds=["A 2 3", "A 2 3 4 5", "A"])
    assert act("blocker", t) == action("P>b1") and act("blocker", t, reach=0) == action("P>b0")


def test_blocker_at_its_defaults_is_not_builder():
    """It plays differently (a tournament of the two compares two policies): other records."""
    a = analyser.simulate("spite_and_malice", n=40, seed=2, policies=["builder", "random"], keep_records=True)
    b = analyser.simulate("spite_and_malice", n=40, seed=2, policies=["blocker", "random"], keep_records=True)
    assert not same_records(a.records, b.records)
