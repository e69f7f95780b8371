"""Hidden information: the kit's check has teeth for Spite & Malice.

The shared kit (analyser.testing) re-deals what a deciding seat cannot see (the other
hand, the stock's order, the face-down payoff cards) and asks for
byte-identical policy arguments. Here a deliberately leaky position hands the
policy the opponent's hand in its memory slots (as an engine bug copying the
wrong record would): the check must fail, both on the arguments and on the
decision of a policy that reads them.
"""
import pytest
from numba import njit

from analyser.games.registry import get_game
from analyser.games.spite_and_malice.constants import ACTION, DST_SIDE, LEGAL_SIZE
from analyser.games.spite_and_malice.kit import SpiteKit, SpitePosition
from analyser.games.spite_and_malice.policies import choose_nb
from analyser.games.spite_and_malice.state import POLICY_SIG
from analyser.testing import checks

RULES = {"payoff_size": 5, "target": 8}


@njit(POLICY_SIG, cache=True)
def peeker(pub, pv, legal, params):
    """Discards onto the side pile numbered by the opponent's hand size of its
    commonest value (read from memory); otherwise builder."""
    a = choose_nb(pub, pv, True, False, True, True)
    if a != ACTION.STOP and (a & 7) >= DST_SIDE:
        pile = int(pv["memory"][0]) % 4
        b = (a & ~7) + DST_SIDE + pile
        if b < LEGAL_SIZE and legal[b]:
            return b
    return a


class LeakyPosition(SpitePosition):
    """Writes the opponent's hand into the decider's memory (a count of its most held value)."""

    def decision(self):
        found = super().decision()
        if found is None:
            return None
        seat, (pb, pv, legal) = found
        mine = pv.copy()
        mine["memory"][0] = int(self.priv[1 - seat]["hand"].max()) + 7 * int(self.priv[1 - seat]["hand"].argmax())
        return seat, (pb, mine, legal)

    def relocate(self, locations):
        moved = super().relocate(locations)
        return LeakyPosition(moved.pub, moved.priv, moved.hid, moved.settings)


class LeakyKit(SpiteKit):
    def play(self, *args):
        for pos in super().play(*args):
            yield LeakyPosition(pos.pub, pos.priv, pos.hid, pos.settings)


class DecisionsOnlyLeakyKit(LeakyKit):
    honest_args = False     # compare only the decisions, as for a game that hands policies the whole table


GAME = get_game("spite_and_malice")


def test_the_honest_game_passes_with_every_policy_and_a_memory_reader():
    checked, changed = checks.check_hidden_information(GAME, SpiteKit(), [peeker, *GAME.heuristics], 2, RULES)
    assert checked >= 20 and changed >= checked // 2


def test_a_leak_into_the_arguments_fails():
    with pytest.raises(AssertionError, match="carry hidden information"):
        checks.check_hidden_information(GAME, LeakyKit(), ["builder"], 2, RULES)


def test_a_policy_reading_the_opponents_hand_fails():
    with pytest.raises(AssertionError, match="peeker chose"):
        checks.check_hidden_information(GAME, DecisionsOnlyLeakyKit(), [peeker], 2, RULES)


def test_the_default_rules_pass_too():
    """Twenty payoff cards, the stock of 54: every re-deal moves hidden cards. One round of the default
    match (about 80 decisions; the whole match to 50 points has some 2,000, every later round dealt
    anew as the short matches above are)."""
    checked, changed = checks.check_hidden_information(GAME, SpiteKit(), list(GAME.heuristics), 2, {"rounds": 1},
                                                       units=1)
    assert checked >= 20 and changed == checked
