"""analyser.comparison on the real engine: duplicate deals, coverage, precision targets, results files."""
import json

import numpy as np
import pytest

import analyser
from analyser.comparison import arrangements, compare, load_compare, next_batch, simulate_to_precision
from analyser.core.config import RunConfig
from analyser.core.errors import UserError


def win_row(result):
    return result.summary.set_index("quantity").loc["win share difference"]


def test_a_policy_against_itself_covers_zero_at_about_95_percent():
    """random vs random: the truth is 0 (A and B differ only in their stream ids)."""
    covered = 0
    for seed in range(40):
        row = win_row(compare("palace", ["random", "random"], players=2, deals=150, seed=seed))
        covered += row["ci_low"] <= 0 <= row["ci_high"]
    assert covered >= 33, covered


def test_a_constructed_advantage_is_found():
    r = compare("palace", ["saver", "random"], players=2, deals=400, seed=1)
    row = win_row(r)
    assert row["ci_low"] > 0.5 and row["estimate"] > 0.9
    r4 = compare("palace", ["random", "saver"], players=4, deals=200, seed=1)
    assert win_row(r4)["ci_high"] < -0.3


def test_paired_is_narrower_than_independent_on_palace():
    row = win_row(compare("palace", ["saver", "lowest"], players=2, deals=6000, seed=2))
    assert row["half_width"] < row["independent_half_width"]
    assert row["variance_reduction"] > 1.1


def test_every_arrangement_plays_the_deals_simulate_plays():
    """Same cards, and each policy keeps its own stream: arrangement AB is simulate(A, B) with streams
    (0, 1), BA is simulate(B, A) with streams (1, 0)."""
    r = compare("palace", ["random", "saver"], players=2, deals=300, seed=4, first_deal=50)
    arr = r.by_arrangement
    ab = analyser.simulate("palace", players=2, policies=["random", "saver"], n=300, seed=4, first_deal=50)
    ba = analyser.simulate("palace", players=2, policies=["saver", "random"], n=300, seed=4, first_deal=50,
                           streams=[1, 0])
    assert arr.loc[0, "a_win_share"] == pytest.approx(ab.summary.loc[0, "win_rate"])
    assert arr.loc[1, "a_win_share"] == pytest.approx(ba.summary.loc[1, "win_rate"])
    assert r.meta["arrangements"]["streams"] == [[0, 1], [1, 0]]
    assert r.deals_frame["deal"].tolist() == list(range(50, 350))


def test_four_players_and_aborted_deals():
    r = compare("palace", ["saver", "lowest"], players=4, deals=600, seed=1)
    m = r.meta
    assert m["arrangements"]["count"] == 8 and m["arrangements"]["name"] == "rotations of ABBB and BAAA"
    assert list(r.by_arrangement["seats"][:2]) == ["ABBB", "BABB"]
    frame = r.deals_frame
    assert r.tally.dropped == frame["aborted"].sum() and frame.loc[frame["aborted"], "win_diff"].isna().all()
    assert r.summary.loc[0, "deals"] == 600 - r.tally.dropped
    assert m["policies"] == {"A": "saver", "B": "lowest"} and m["params"]["A"]["keep"] == 8


def test_the_precision_loop_stops_at_the_half_width():
    target = 0.03
    r = compare("palace", ["saver", "lowest"], players=2, seed=3, precision=target)
    stop, batches = r.meta["stop"], r.meta["batches"]
    assert stop["reached"] and stop["half_width"] <= target
    assert batches[-1]["half_width"] <= target < batches[-2]["half_width"]
    assert r.meta["deals"] == batches[-1]["deals"] == stop["deals"]
    sd = r.summary.loc[0, "sd_per_deal"]
    needed = (1.959963984540054 * sd / target) ** 2
    assert r.meta["deals"] <= 1.35 * needed            # not long after the target was reached
    assert "stopped: half-width" in r.meta["stopped"] and "<= 0.03" in r.meta["stopped"]


def test_the_precision_loop_stops_at_max_deals():
    r = compare("palace", ["saver", "lowest"], players=2, seed=3, precision=0.001, deals=500, max_deals=1700)
    assert r.meta["deals"] == 1700 and not r.meta["stop"]["reached"]
    assert r.meta["stopped"].startswith("stopped at --max-deals 1,700")


def test_next_batch():
    assert next_batch(1000, 0.02, 0.01, 10**7) == 1000        # at most doubles
    assert next_batch(1000, 0.0101, 0.01, 10**7) == 123      # the predicted remainder, with 10% to spare
    assert next_batch(1000, 0.01001, 0.01, 10**7) == 103     # at least a tenth more
    assert next_batch(1000, float("nan"), 0.01, 10**7) == 1000
    assert next_batch(1000, 0.02, 0.01, 1500) == 500         # within the cap


def test_simulate_to_precision(tmp_path):
    config = RunConfig.build("palace", 2, ["saver", "lowest"], 500, 1)
    r = simulate_to_precision(config, 0.02, max_deals=100_000)
    assert r.meta["stop"]["reached"] and r.tally.units == r.meta["deals"]
    widest = max((r.summary["win_ci_high"] - r.summary["win_ci_low"]).max() / 2,
                 (r.summary["loser_ci_high"] - r.summary["loser_ci_low"]).max() / 2)
    assert widest <= 0.02 < r.meta["batches"][-2]["half_width"]
    capped = simulate_to_precision(config, 0.001, max_deals=800)
    assert capped.tally.units == 800 and "--max-deals 800" in capped.meta["stopped"]
    saved = simulate_to_precision(config, 0.05, out=tmp_path / "s.parquet")
    back = analyser.load(tmp_path / "s.parquet")
    assert back.tally.units == saved.tally.units and back.meta["stop"] == saved.meta["stop"]
    assert saved.records is None


def test_save_and_load_keep_numbers_and_metadata(tmp_path):
    r = compare("palace", ["saver", "lowest"], players=3, deals=300, seed=5, out=tmp_path / "c.parquet")
    back = load_compare(tmp_path / "c.parquet")
    assert back.summary.equals(r.summary) and back.by_arrangement.equals(r.by_arrangement)
    assert back.deals_frame.equals(r.deals_frame)
    assert json.loads(json.dumps(back.to_dict())) == json.loads(json.dumps(r.to_dict()))
    assert back.meta["kind"] == "compare" and back.meta["arrangements"]["count"] == 6
    assert [p.name for p in tmp_path.iterdir()] == ["c.parquet"]


def test_repr_and_api_export():
    r = analyser.compare("palace", ["saver", "lowest"], players=2, deals=100)
    assert "CompareResult palace" in repr(r) and "<table" in r._repr_html_()
    d = r.to_dict()
    assert {"summary", "by_arrangement", "arrangements", "stop", "policies", "shares"} <= set(d)
    assert np.isfinite(d["summary"][0]["estimate"])


@pytest.mark.parametrize("kwargs,message", [
    ({"policies": ["saver"]}, "exactly two policies"),
    ({"policies": ["saver", "lowest", "random"]}, "exactly two policies"),
    ({"policies": "saver"}, "exactly two policies"),
    ({"policies": ["saver", "nope"]}, "nope"),
    ({"policies": ["saver", "lowest"], "precision": 0}, "precision must be"),
    ({"policies": ["saver", "lowest"], "precision": 1.5}, "precision must be"),
    ({"policies": ["saver", "lowest"], "precision": 0.01, "deals": 50, "max_deals": 10}, "more than --max-deals"),
    ({"policies": ["saver", "lowest"], "precision": 0.01, "max_deals": 0}, "--max-deals must be"),
    ({"policies": ["saver", "lowest"], "deals": 0}, "the number of games must be"),
    ({"policies": ["saver", "lowest"], "players": 7}, "palace is for 2 to 4 players"),
])
def test_bad_input(kwargs, message):
    with pytest.raises(UserError, match=message):
        compare("palace", **kwargs)


def test_team_game_arrangements_keep_partners_together():
    """High card (teams 0 2 / 1 3): A on a whole team, then B; each instance keeps its stream id."""
    seats, streams, name = arrangements(4, (0, 1, 0, 1))
    assert seats == ["ABAB", "BABA"] and streams == [(0, 1, 2, 3), (1, 0, 3, 2)]
    assert name == "teams: A on team 0 / B on team 0"
    with pytest.raises(UserError, match="unequal size"):
        arrangements(4, (0, 0, 0, 1))
    r = compare("highcard", ["high", "random"], deals=300, seed=1)
    assert r.meta["arrangements"]["name"] == name and r.meta["arrangements"]["teams"]
    assert "A's team against B's team" in r.meta["method"]
    assert win_row(r)["ci_low"] > 0.3                                     # a constructed advantage is found
    ba = analyser.simulate("highcard", policies=["random", "high", "random", "high"], n=300, seed=1,
                           streams=[1, 0, 3, 2])
    assert r.by_arrangement.loc[1, "a_win_share"] == pytest.approx(ba.summary.loc[1, "win_rate"])


def test_team_game_a_policy_against_itself_covers_zero():
    covered = sum(win_row(compare("highcard", ["random", "random"], deals=100, seed=s)).pipe(
        lambda row: row["ci_low"] <= 0 <= row["ci_high"]) for s in range(20))
    assert covered >= 16, covered
