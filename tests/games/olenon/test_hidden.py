"""Hidden information under talk=none: the kit's check has teeth.

The shared kit (analyser.testing) re-deals what a deciding seat cannot see and asks
for byte-identical policy arguments. Here a deliberately leaky position hands
policies every hand under talk=none (as an engine bug filling pub["open"]
would): the check must fail, both on the arguments and on the decision of a
policy that reads its partner's hand. Under talk=open the same policy is
honest, since every hand is public there.
"""
import numpy as np
import pytest
from numba import njit

from analyser.games.olenon.constants import ACTION, PLAYERS
from analyser.games.olenon.kit import OlenonKit, OlenonPosition
from analyser.games.olenon.policies import shed_nb
from analyser.games.olenon.state import POLICY_SIG
from analyser.games.registry import get_game
from analyser.testing import checks


@njit(POLICY_SIG, cache=True)
def mate_reader(pub, pv, legal, params):
    """Passes whenever its partner holds a 6 (read from pub["open"]); otherwise shed."""
    mate = (pub["seat"] + 2) % PLAYERS
    if legal[ACTION.PASS] and pub["open"][mate, 6] > 0:
        return ACTION.PASS
    return shed_nb(pub, pv["hand"])


class LeakyPosition(OlenonPosition):
    """Hands the policy every hand in pub["open"], whatever the talk setting."""

    def decision(self):
        found = super().decision()
        if found is None:
            return None
        seat, (pb, pv, legal) = found
        pub = self.pub.copy()
        pub[0]["open"] = np.stack([self.priv[s]["hand"] for s in range(PLAYERS)])
        return seat, (pub[0], pv, legal)

    def relocate(self, locations):
        moved = super().relocate(locations)
        return LeakyPosition(moved.pub, moved.priv, moved.hid, moved.settings)


class LeakyKit(OlenonKit):
    def play(self, *args):
        for pos in super().play(*args):
            yield LeakyPosition(pos.pub, pos.priv, pos.hid, pos.settings)


class DecisionsOnlyLeakyKit(LeakyKit):
    honest_args = False     # compare only the decisions, as for a game that hands policies the whole table


GAME = get_game("olenon")


def test_the_honest_game_passes_with_a_partner_reading_policy():
    """Under talk=none pub["open"] is zero: the reader cannot see its partner, and passes the check."""
    checked, changed = checks.check_hidden_information(GAME, OlenonKit(), [mate_reader, "partner"], 4, {})
    assert checked >= 20 and changed >= checked // 2


def test_a_leak_into_the_arguments_fails_under_talk_none():
    with pytest.raises(AssertionError, match="carry hidden information"):
        checks.check_hidden_information(GAME, LeakyKit(), ["shed"], 4, {})


def test_a_policy_reading_its_partners_hand_fails_under_talk_none():
    with pytest.raises(AssertionError, match="mate_reader chose"):
        checks.check_hidden_information(GAME, DecisionsOnlyLeakyKit(), [mate_reader], 4, {})


def test_the_same_policy_is_honest_under_talk_open():
    """Every hand is public with talk=open: only the set-aside cards are hidden, and
    re-dealing them changes nothing anyone sees (min_changed=0)."""
    checked, _ = checks.check_hidden_information(GAME, OlenonKit(), [mate_reader, "partner"], 4, {"talk": "open"},
                                                 min_changed=0)
    assert checked >= 20
