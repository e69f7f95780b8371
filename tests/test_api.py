"""The Python API: reproducibility, traces that match simulation, user policies, results files."""
import importlib
import json
import types

import numpy as np
import pandas as pd
import pytest
from numba import njit

import analyser
from analyser.errors import UserError
from analyser.games.palace.constants import ACTION, PHASE
from analyser.games.registry import get_game
from analyser.kernels.cards import parse_card
from analyser.testing.checks import entry

MIX = ["saver", "lowest", "pickup:max_pile=5", "random"]


def without_unit(rec):
    """The records without their unit index, which differs between any two units."""
    return rec[[name for name in rec.dtype.names if name != "unit"]]


def test_seed_changes_the_deals():
    a = analyser.simulate("palace", deals=200, seed=1)
    b = analyser.simulate("palace", deals=200, seed=2)
    assert np.array_equal(a.records["unit"], b.records["unit"])
    assert not np.array_equal(without_unit(a.records), without_unit(b.records))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_trace_is_the_game_simulate_played(players):
    policies = MIX[:players]
    sim = analyser.simulate("palace", players=players, policies=policies, deals=30, seed=5)
    for deal in (0, 17, 29):
        result = analyser.trace("palace", seed=5, deal=deal, players=players, policies=policies).events[-1]
        rec = sim.records[deal]
        assert result["places"] == list(rec["rank"][:players])
        assert result["actions"] == rec["length"] and result["loser"] == rec["loser"]


def dealt(policies, seed, deal):
    """The deal as the game itself holds it once the swaps are made: each seat's hand
    and face-up cards together (a swap only exchanges between them), its face-down
    cards and the draw pile in order, from the engine's own state (the kit's first position)."""
    game = get_game("palace")
    runner = entry(game, 4, policies)
    pos = next(game.kit().play(seed, deal, 4, runner.settings, runner.fns, runner.params, runner.streams))
    where = pos.locations()
    return {"held": [sorted(where[f"hand{s}"] + where[f"up{s}"]) for s in range(4)],
            "face_down": [where[f"down{s}"] for s in range(4)], "draw": where["draw"]}


def test_deals_do_not_depend_on_the_policies():
    """Two line-ups that play differently are dealt the same cards; and the trace's setup shows that deal."""
    slow, fast = ["saver"], ["random:swap=3"]
    a, b = dealt(slow, 3, 8), dealt(fast, 3, 8)
    assert a == b
    ra = analyser.simulate("palace", policies=slow, deals=1, first_deal=8, seed=3).records
    rb = analyser.simulate("palace", policies=fast, deals=1, first_deal=8, seed=3).records
    assert not np.array_equal(ra, rb), "the policies made no difference: the test would prove nothing"
    setup = analyser.trace("palace", seed=3, deal=8, policies=fast).events[0]
    ids = [[parse_card(c) for c in cards] for cards in setup["hands"]]
    ups = [[parse_card(c) for c in cards] for cards in setup["face_up"]]
    assert [sorted(h + u) for h, u in zip(ids, ups, strict=True)] == a["held"]
    assert [[parse_card(c) for c in cards] for cards in setup["face_down"]] == a["face_down"]
    assert [parse_card(c) for c in setup["draw_pile"]] == a["draw"][::-1]        # the trace lists the top first


@njit
def always_pick_up(pub, pv, legal, params):
    """A notebook-style policy: pick up whenever allowed, else the first legal action."""
    if legal[ACTION.PICKUP]:
        return ACTION.PICKUP
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


def test_a_notebook_policy_plugs_in_without_editing_the_package():
    r = analyser.simulate("palace", policies=[always_pick_up, "saver", "saver", "saver"], deals=300, seed=1,
                          rules={"max_actions": 400})
    assert r.summary.loc[0, "policy"] == "always_pick_up"
    assert r.records["voluntary"][:, 0].sum() > 0
    assert r.records["voluntary"][:, 1:].sum() == 0


@njit
def cheat(pub, pv, legal, params):
    return ACTION.COUNT - 1      # SWAP_DONE: illegal during play


@njit
def forger(pub, pv, legal, params):
    """Marks an action of the other phase legal and takes it."""
    a = ACTION.FACE_DOWN if pub["phase"] == PHASE.SWAP else ACTION.SWAP
    legal[a] = True
    return a


def test_an_illegal_action_names_the_policy():
    with pytest.raises(UserError, match="cheat"):
        analyser.simulate("palace", policies=["saver", cheat], players=2, deals=10)


def test_a_policy_that_writes_into_the_mask_cannot_reach_the_other_phase():
    with pytest.raises(UserError, match="forger"):
        analyser.simulate("palace", policies=["saver", forger], players=2, deals=10)


def test_results_file_round_trip(tmp_path):
    path = tmp_path / "run.parquet"
    r = analyser.simulate("palace", policies=MIX, deals=500, seed=4, out=path)
    back = analyser.load(path)
    pd.testing.assert_frame_equal(r.summary, back.summary)
    assert back.meta["seed"] == 4 and back.meta["policies"][2] == "pickup:max_pile=5"
    assert set(back.meta["versions"]) >= {"analyser", "numba", "numpy", "python"}
    games = back.games
    assert len(games) == 500 and list(games["policy_3"].unique()) == ["random"]
    assert json.loads(json.dumps(back.to_dict()))["seats"][2]["params"]["max_pile"] == 5


def test_corrupt_results_file(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(UserError, match="not a readable analyser results file"):
        analyser.load(bad)


def test_records_can_be_dropped_for_big_runs():
    r = analyser.simulate("palace", deals=100, keep_records=False)
    assert r.records is None and r.tally.units == 100
    with pytest.raises(UserError):
        _ = r.games


@pytest.mark.parametrize("kwargs,message", [
    ({"game": "chess"}, "unknown game 'chess'; valid: palace"),
    ({"players": 5}, "palace is for 2 to 4 players, not 5"),
    ({"policies": ["nope"]}, "unknown policy 'nope'; valid: random, lowest, saver, pickup"),
    ({"policies": ["saver:x=1"]}, "unknown parameter 'x' for policy 'saver'; valid: swap, keep, burn_at"),
    ({"policies": ["saver:keep=99"]}, "out of range"),
    ({"rules": {"jokers": 1}}, "unknown rule 'jokers' for palace; valid: short_game, ten_on_anything, max_actions"),
    ({"rules": {"short_game": "maybe"}}, "on or off"),
    ({"policies": ["saver", "saver"]}, "one policy for all seats or one per seat"),
])
def test_bad_input_is_a_user_error(kwargs, message):
    args = {"game": "palace", "deals": 10, **kwargs}
    with pytest.raises(UserError, match=message.replace("(", r"\(")):
        analyser.simulate(**args)


def test_single_hands_are_matches_of_one_hand_that_say_hands(tmp_path):
    path = tmp_path / "hands.parquet"
    hands = analyser.simulate("highcard", unit="hand", n=40, seed=6, policies=["random"], out=path)
    plain = analyser.simulate("highcard", rules={"hands": 1}, n=40, seed=6, policies=["random"])
    assert hands.records.tobytes() == plain.records.tobytes()
    assert (hands.meta["unit"], plain.meta["unit"]) == ("hand", "match")
    assert hands.meta["settings"] == plain.meta["settings"] == {"hands": 1, "max_actions": 1000}
    data = json.loads(json.dumps(hands.to_dict()))
    assert data["unit"] == "hand" and data["units"] == 40
    assert data["pooling"]["team"].endswith("one hand, one observation")
    assert "hands_won_per_hand" in hands.summary and "40 hands" in repr(hands)
    back = analyser.load(path)
    assert back.game.unit == "hand" and back.to_dict()["unit"] == "hand"
    pd.testing.assert_frame_equal(back.summary, hands.summary)
    one = analyser.trace("highcard", unit="hand", seed=6, deal=7, policies=["random"]).events
    match = analyser.trace("highcard", rules={"hands": 1}, seed=6, deal=7, policies=["random"]).events
    assert (one[0].pop("unit"), match[0].pop("unit")) == ("hand", "match") and one == match


def test_the_package_exposes_only_its_api():
    """``import analyser`` offers the names of __all__ (its subpackages aside), no helper it imported."""
    public = {name for name, value in vars(analyser).items() if not name.startswith("_")
              and not (isinstance(value, types.ModuleType) and value.__name__.startswith("analyser."))}
    assert public == set(analyser.__all__) - {"__version__"}


def test_every_result_kind_names_its_loader_and_printer():
    from analyser.analyses.kinds import KINDS

    for name, kind in KINDS.items():
        for target in (kind.loader, kind.printer):
            module, _, attr = target.partition(":")
            assert callable(getattr(importlib.import_module(module), attr, None)), (name, target)
