"""High card's own tests: what the toy game exists to exercise (drawn matches,
tied hands, team tables), and the exact form of "a policy's draws follow its
stream id" that this game allows."""
import numpy as np
import pytest

import analyser
from analyser.games.registry import get_game


def slots(events):
    """(hand, seat) -> the slot of the card the seat played, from a trace."""
    dealt, out = {}, {}
    for e in events:
        if e["type"] in ("deal", "setup") and "hands" in e and "hand" in e:
            dealt[e["hand"]] = e["hands"]
        if e["type"] == "play":
            out[e["hand"], e["seat"]] = dealt[e["hand"]][e["seat"]].index(e["card"])
    return out


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_rotating_stream_ids_with_the_seats_keeps_every_policys_draws(turn):
    """Each seat plays once a hand from three cards, so a random policy's choice
    (the k-th card dealt to it) is its stream's first draw in that hand: with the
    ids rotated, seat s plays the slot that seat s + turn played before, and the
    deals (their own sub-streams) do not move."""
    rotated = [(s + turn) % 4 for s in range(4)]
    for deal in (0, 5):
        a = analyser.trace("highcard", seed=2, deal=deal, policies=["random"]).events
        b = analyser.trace("highcard", seed=2, deal=deal, policies=["random"], streams=rotated).events
        assert [e for e in a if e["type"] == "deal"] == [e for e in b if e["type"] == "deal"]
        sa, sb = slots(a), slots(b)
        assert sb == {(h, s): sa[h, (s + turn) % 4] for h, s in sa}
        assert sb != sa


def test_matches_have_ties_draws_and_team_tables():
    r = analyser.simulate("highcard", n=400, seed=1, policies=["random", "high", "alternate", "random"])
    rec = r.records
    assert rec["draw"].any() and (rec["ties"] > 0).any() and not rec["aborted"].any()
    assert (rec["length"] == 12).all()
    team = r.by_team
    assert list(team["seats"]) == ["0,2", "1,3"] and list(team["policies"]) == ["random + alternate", "high + random"]
    draws = r.figures["draw_rate"]
    assert team["win_rate"].sum() + draws == pytest.approx(1.0)
    assert (team["draw_rate"] == draws).all()
    seats = r.summary
    assert np.allclose(seats["win_rate"].to_numpy()[[0, 1]], team["win_rate"].to_numpy())
    assert (seats["team"] == [0, 1, 0, 1]).all()
    assert r.to_dict()["by_team"][1]["policies"] == "high + random"


def test_hands_are_dealt_from_their_own_streams():
    events = analyser.trace("highcard", seed=3, deal=1, rules={"hands": 8}).events
    deals = [e for e in events if e["type"] == "deal"]
    assert [d["hand"] for d in deals] == list(range(8))
    assert len({d["starter"] for d in deals}) > 1 and len({str(d["hands"]) for d in deals}) == 8
    again = analyser.trace("highcard", seed=3, deal=1, rules={"hands": 3}).events
    assert [e for e in again if e["type"] == "deal"] == deals[:3]


def test_an_illegal_card_names_the_policy():
    from numba import njit

    from analyser.errors import UserError

    @njit
    def beyond(table, seat, legal, params):
        return 5

    with pytest.raises(UserError, match="beyond"):
        analyser.simulate("highcard", n=3, policies=["high", beyond, "high", "high"])


def test_the_game_is_registered_through_the_public_api():
    game = get_game("highcard")
    assert game.unit == "match" and game.sub_unit == "hand" and game.team_of(4) == (0, 1, 0, 1)
    assert game.win_total(4) == 2.0
