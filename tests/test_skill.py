"""``analyser.skill``: relative skill, the luck share and the skill ladder, end to end on Palace 2p with a
search player of two worlds (seconds, warm)."""
import json

import numpy as np
import pytest

import analyser
from analyser.errors import UserError

STRONG = "pimc:worlds=2"
DEALS = 30


@pytest.fixture(scope="module")
def result():
    return analyser.skill("palace", players=2, strong=STRONG, deals=DEALS, budgets=(1, 2), bootstrap=200, seed=4,
                          progress=False)


def test_relative_skill_reads_the_three_players_against_the_field(result):
    r, players = result.relative, result.players.set_index("role")
    assert list(players.index) == ["beginner", "strong", "open"]
    assert players.loc["open", "policy"] == "pimc:worlds=2,open=yes (cheating)"
    assert set(players["field"]) == {"saver"}
    res = players["result"]
    assert res["beginner"] < res["strong"] < res["open"]
    assert r["le"] == pytest.approx(res["strong"] - res["beginner"])
    assert r["re"] == pytest.approx(res["open"] - res["strong"])
    assert r["rs"] == pytest.approx(r["le"] / (r["le"] + r["re"]))
    assert r["ci_low"] < r["rs"] < r["ci_high"] and r["deals"] == DEALS


def test_the_per_deal_results_are_compares_on_the_same_deals(result):
    alone = analyser.compare("palace", [STRONG, "saver"], players=2, deals=DEALS, seed=4, progress=False)
    assert np.array_equal(result.deals_frame["strong"].to_numpy(), alone.deals_frame["win_diff"].to_numpy(),
                          equal_nan=True)


def test_luck_share_at_two_levels_with_fresh_streams(result):
    luck = result.luck.set_index("level")
    assert list(luck["policy"]) == ["saver", STRONG]
    assert (luck["replays"] == 7).all() and (luck["deals"] + luck["dropped"] == DEALS).all()  # 15 streams // 2 seats
    field, strong = luck.loc["field"], luck.loc["strong"]
    assert field["identical"] and field["luck_share"] == 1.0 and field["ci_low"] < 1.0    # saver: deterministic
    assert not strong["identical"] and strong["luck_share"] < field["luck_share"]          # the search draws
    assert strong["ci_low"] <= strong["luck_share"] <= strong["ci_high"]


def test_the_ladder_stops_at_its_first_rung_that_is_not_significant(result):
    ladder = result.ladder
    assert list(ladder["a"][:1]) == ["pimc:worlds=2"] and list(ladder["b"][:1]) == ["pimc:worlds=1"]
    assert ladder["significant"].iloc[:-1].all()
    assert not ladder["significant"].iloc[-1] or len(ladder) == 2


def test_summary_json_and_file_carry_the_configuration(result, tmp_path):
    summary = result.summary.set_index("quantity")
    assert summary.loc["relative skill RS", "estimate"] == pytest.approx(result.relative["rs"])
    assert len(summary) == 3 + 2 + len(result.ladder)
    path = result.save(tmp_path / "skill.json")
    data = json.loads(path.read_text())
    assert data["meta"]["seed"] == 4 and data["meta"]["policies"]["field"] == "saver"
    assert {"analyser", "numba", "game_code"} <= set(data["meta"]["versions"])
    assert set(data["verdicts"]) == {"relative", "luck", "ladder"}
    assert set(result.meta["seconds"]) == {"relative", "luck", "ladder"}
    assert "relative skill RS" in repr(result)


def test_one_part_and_a_chosen_field():
    r = analyser.skill("palace", players=2, strong=STRONG, field="lowest", deals=12, parts="luck", replays=2,
                       bootstrap=100, progress=False)
    assert r.relative is None and r.ladder is None
    assert list(r.luck["policy"]) == ["lowest", STRONG] and (r.luck["replays"] == 2).all()


@pytest.mark.parametrize("kwargs,message", [
    ({"strong": "saver"}, "the strong player must be a search player, not 'saver'; valid: pimc, ismcts"),
    ({"strong": "pimc:open=1"}, "not its open-cards variant"),
    ({"parts": ["relative", "luck?"]}, "unknown part of skill luck?; valid: relative, luck, ladder"),
    ({"replays": 8}, "replays must be from 2 to 7"),
    ({"budgets": [0]}, "the ladder's budgets must be whole numbers of at least 1"),
    ({"deals": 1}, "deals must be from 2"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(UserError, match=message.replace("?", r"\?").replace("(", r"\(")):
        analyser.skill("palace", players=2, progress=False, **kwargs)
