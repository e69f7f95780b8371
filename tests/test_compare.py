"""analyser.analyses.compare on the real engine: duplicate deals, coverage, precision targets, results files."""
import json

import numpy as np
import pytest

import analyser
from analyser.analyses.compare import arrangements, compare, load_compare
from analyser.engine.stopping import next_batch
from analyser.errors import UserError


def win_row(result):
    return result.summary.set_index("quantity").loc["win share difference"]


def test_a_policy_against_itself_covers_zero_at_about_95_percent():
    """random vs random: the truth is 0 (A and B differ only in their stream ids)."""
    covered = 0
    for seed in range(40):
        row = win_row(compare("palace", ["random", "random"], players=2, deals=150, seed=seed))
        covered += row["ci_low"] <= 0 <= row["ci_high"]
    assert covered >= 33, covered


@pytest.mark.parametrize("game,policy", [("palace", "saver"), ("enemy_anemone", "timing")])
def test_a_deterministic_policy_against_itself_is_an_exact_tie(game, policy):
    """Means over seats and arrangements once left residues of 1e-17 that posed as effects ([8.5e-18 +- 2.6e-19],
    a variance reduction of 1e33): two names of one deterministic policy now give exactly 0, [0, 0]."""
    r = compare(game, [policy, policy], players=4, deals=60, seed=2)
    for row in r.summary.to_dict("records"):
        assert row["tie"] and row["estimate"] == row["ci_low"] == row["ci_high"] == 0.0
        assert np.isnan(row["variance_reduction"])
    d = json.loads(json.dumps(r.to_dict()))
    assert d["same_policy"] and d["summary"][0]["variance_reduction"] is None and d["summary"][0]["tie"]
    assert not d["heterogeneity"]["flag"] and d["heterogeneity"]["difference"]["tie"]
    assert "one policy under two names" in repr(r) and "exact tie" in repr(r)


def test_two_policies_that_played_identically_on_the_sample_are_not_an_exact_tie():
    """saver:burn_at=6 and saver differ on about 2% of Palace 2p deals (-0.109 points over 10**6 deals); on
    seed 3's 60 deals they never did. That was printed 0 [0, 0]: exact tie; it is evidence, not proof: the
    interval allows for the deals not seen, +-z^2 / (n + z^2), and covers the truth."""
    r = compare("palace", ["saver:burn_at=6", "saver"], players=2, deals=60, seed=3)
    row = win_row(r)
    n = row["deals"]
    assert row["identical"] and not row["tie"] and not r.meta["same_policy"] and row["estimate"] == 0
    assert row["ci_low"] == pytest.approx(-1.959963984540054 ** 2 / (n + 1.959963984540054 ** 2))
    assert row["ci_low"] < -0.00109 < row["ci_high"] == -row["ci_low"]
    assert "played identically on all" in repr(r) and "exact tie" not in repr(r)


def test_two_names_of_a_random_policy_cover_zero():
    """random vs random at 4 seats: the truth is 0; the paired interval covers it in about 95% of seeds
    (38 of 40 expected; at least 34 with probability 0.99 for a correct method)."""
    covered = 0
    for seed in range(40):
        r = compare("palace", ["random", "random"], players=4, deals=40, seed=seed)
        row = win_row(r)
        covered += row["ci_low"] <= 0 <= row["ci_high"]
        assert r.meta["same_policy"] and not row["tie"]
    assert 34 <= covered <= 40, covered


def test_a_first_batch_that_happens_to_be_constant_does_not_stop_the_loop():
    """random vs saver at 2 seats: saver wins both arrangements of nearly every deal, so the first 100 deals
    are often all -1 (sd 0: the old rule stopped there). The Chow-Robbins floor needs z / n <= H."""
    r = compare("palace", ["random", "saver"], players=2, deals=100, precision=0.01, seed=2)
    first = r.tally.values("win")[:100]
    assert np.nanstd(first) == 0                        # the constant first batch
    assert r.meta["deals"] >= 196 and r.meta["stop"]["reached"]
    assert win_row(r)["ci_low"] < win_row(r)["ci_high"]


def test_tables_that_disagree_are_flagged():
    """Enemy Anemone, timing vs lowball: each exploits the other when it sits alone, so the effects where A sits
    alone and where B does have opposite signs; a symmetric comparison is not flagged."""
    r = compare("enemy_anemone", ["timing", "lowball"], deals=60, seed=1)
    het = r.heterogeneity
    assert het["flag"] and het["opposite"] and [e["kind"] for e in het["effects"]] == ["a_alone", "b_alone"]
    assert het["effects"][0]["ci_low"] > 0 > het["effects"][1]["ci_high"]
    assert "the answer depends on the table" in repr(r) and r.to_dict()["heterogeneity"]["flag"]
    arr = r.by_arrangement
    assert list(arr["kind"]) == ["a_alone"] * 4 + ["b_alone"] * 4
    assert (arr["win_diff_ci_low"] < arr["win_diff"] + 1e-12).all()
    assert (arr["win_diff"] < arr["win_diff_ci_high"] + 1e-12).all()
    assert not compare("palace", ["random", "random"], players=4, deals=60, seed=1).heterogeneity["flag"]
    two = compare("palace", ["saver", "lowest"], players=2, deals=50).heterogeneity
    assert not two["tested"] and not two["flag"]


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
    assert "stopped: Chow-Robbins half-width" in r.meta["stopped"] and "<= 0.03" in r.meta["stopped"]
    assert r.meta["stop"]["stopping"].startswith("Chow-Robbins") and "100 deals" in r.meta["precision"]["stopping"]


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
    def simulate_to_precision(precision, **kw):
        return analyser.simulate("palace", 2, ["saver", "lowest"], n=500, seed=1, precision=precision,
                                 keep_records=False, **kw)

    r = simulate_to_precision(0.02, max_deals=100_000)
    assert r.meta["stop"]["reached"] and r.tally.units == r.meta["deals"]
    widest = max((r.summary["win_ci_high"] - r.summary["win_ci_low"]).max() / 2,
                 (r.summary["loser_ci_high"] - r.summary["loser_ci_low"]).max() / 2)
    assert widest <= 0.02 < r.meta["batches"][-2]["half_width"]
    capped = simulate_to_precision(0.001, max_deals=800)
    assert capped.tally.units == 800 and "--max-deals 800" in capped.meta["stopped"]
    saved = simulate_to_precision(0.05, out=tmp_path / "s.parquet")
    back = analyser.load(tmp_path / "s.parquet")
    assert back.tally.units == saved.tally.units and back.meta["stop"] == saved.meta["stop"]
    assert saved.records is None


def test_simulate_precision_rerun(tmp_path):
    """--rerun: the count the stop reached, played again on the next deals, with the stop kept in the metadata."""
    def simulate_to_precision(**kw):
        return analyser.simulate("palace", 2, ["saver", "lowest"], n=100, seed=1, precision=0.05, **kw)

    stopped = simulate_to_precision()
    again = simulate_to_precision(rerun=True, out=tmp_path / "r.parquet")
    n = stopped.meta["deals"]
    assert n >= 100 and again.tally.units == again.meta["deals"] == n and again.meta["first_deal"] == n
    assert again.meta["stop"]["rule"] == "rerun" and again.meta["stop"]["precision_stop"] == stopped.meta["stop"]
    assert "fixed-count rerun" in again.meta["stopped"] and "bias" in again.meta["precision"]
    assert analyser.load(tmp_path / "r.parquet").meta["stop"]["rule"] == "rerun"
    with pytest.raises(UserError, match="rerun repeats a precision run"):
        analyser.simulate("palace", n=10, rerun=True)


def test_a_pooled_share_constant_by_construction_has_an_honest_interval():
    """Three random seats beside one saver: their pooled share is 2/3 in nearly every game; its interval was
    +-3e-6 (covering the truth 1% of the time); the variance floor gives it at least z / n."""
    r = analyser.simulate("palace", players=4, policies=["random", "random", "random", "saver"], n=1000, seed=1)
    row = r.by_policy.set_index("policy").loc["random"]
    assert row["win_ci_high"] - row["win_ci_low"] >= 2 * 1.95 / 1000


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
