"""The shape of a game (analyser.analyses.shape): each game's declared end ways and step features, whom the
estimate follows, and an estimate that beats the base rate on a game played step by step."""
from types import SimpleNamespace

import numpy as np
import pytest

from analyser.analyses import shape
from analyser.analyses.report.markup import anchor, to_html
from analyser.games.kit import ABORTED, DRAWN
from analyser.games.registry import get_game
from analyser.stats import sides


def _records(game: str, n: int):
    return np.zeros(n, get_game(game).record_dtype)


def test_palace_ends_by_its_loser_seat():
    rec = _records("palace", 3)
    rec["loser"] = [2, 0, 1]
    rec["aborted"][2] = True
    kit = get_game("palace").kit()
    assert kit.end_ways(rec, 3).tolist() == ["seat 2 the loser", "seat 0 the loser", ABORTED]
    assert set(kit.end_ways(rec, 3)) <= set(kit.end_order)


def test_enemy_anemone_ends_by_total_tiebreak_or_a_shared_win():
    rec = _records("enemy_anemone", 3)
    rec["win"][0, :3] = (1, 0, 0)
    rec["win"][1, :3] = (0, 1, 0)
    rec["tiebreak"][1] = True
    rec["win"][2, :3] = (0.5, 0.5, 0)
    kit = get_game("enemy_anemone").kit()
    assert kit.end_ways(rec, 3).tolist() == list(kit.end_order[:3])


def test_olenon_ends_by_its_score_in_rounds_and_spite_by_its_margin():
    rec = _records("olenon", 2)
    rec["rounds_won"][0] = (2, 1, 2, 1)
    rec["rounds_won"][1] = (0, 2, 0, 2)
    kit = get_game("olenon").kit()
    assert kit.end_ways(rec, 4).tolist() == ["a 2-1 win in rounds", "a 2-0 win in rounds"]
    assert set(kit.end_ways(rec, 4)) <= set(kit.end_order)
    rec = _records("spite_and_malice", 3)
    rec["points"][:, :2] = ((50, 41), (12, 60), (50, 50))
    rec["draw"][2] = True
    kit = get_game("spite_and_malice").kit()
    assert kit.end_ways(rec, 2).tolist() == ["a close win (by under 10 points)", "a win by 25 points or more", DRAWN]


def test_the_estimate_follows_the_loser_where_a_win_is_not_losing():
    palace, olenon = get_game("palace"), get_game("olenon")
    assert sides.orientation(palace, 4) == "loser" and sides.orientation(palace, 2) == "winner"
    assert sides.orientation(olenon, 4) == "winner" and sides.orientation(get_game("enemy_anemone"), 4) == "winner"
    rec = _records("palace", 2)
    rec["win"][0, :3] = (1, 0, 1)
    rec["aborted"][1] = True
    assert sides.targets(rec, palace, 3).tolist() == [[0, 1, 0], [0, 0, 0]]
    rec = _records("olenon", 1)
    rec["win"][0] = (0, 1, 0, 1)
    assert sides.targets(rec, olenon, 4).tolist() == [[0, 1]]       # teams are the sides


def test_links_of_the_glance_reach_the_page_headings():
    html = to_html(["## 5. Shape of a game", "", f"- see [shape](#{anchor('5. Shape of a game')})"])
    assert '<h2 id="5-shape-of-a-game">' in html and '<a href="#5-shape-of-a-game">shape</a>' in html
    assert "<a " not in to_html(["![a figure](x.png)"])


@pytest.fixture(scope="module")
def olenon():
    return shape.game_shape("olenon", deals=240, seed=2, sample=120, points=25, check=True)


def test_the_estimate_beats_the_base_rate_and_its_measures_are_in_range(olenon):
    """Olenon, played step by step: the out-of-sample estimate's Brier score is below the base rate's
    (the gain's interval excludes 0), its reliability bins cover every prediction, and the measures
    are where they can be."""
    e = olenon["estimate"]
    assert e["brier"]["gain_ci_low"] > 0 and e["brier"]["brier"] < e["brier"]["base"]
    assert sum(r["predictions"] for r in e["reliability"]) == e["probs"].size
    assert e["sampled"] == 120 and e["features"] == list(get_game("olenon").kit().feature_names)
    s = e["shape"]
    assert 0 < s["decisive"]["mean"] <= 1 and 0 <= s["comeback"]["low"] <= s["comeback"]["high"] <= 1
    assert s["lead_changes"]["mean"] >= 0 and 0 <= s["drama"]["mean"] < 0.5
    q = [r["length"] for r in olenon["length"]["quantiles"]]
    assert q == sorted(q) and olenon["length"]["min"] <= q[0]
    assert sum(w["units"] for w in olenon["ends"]) == 240


def test_the_glance_reads_relative_skill_when_the_report_has_it():
    from analyser.analyses.report.model import BalanceReport
    from analyser.analyses.report.shape_section import glance_lines

    r = BalanceReport({"sections": ["skill"], "unit": "game"})
    assert glance_lines(r) == []
    r.parts["skill"] = {"skipped": "no search player"}
    assert glance_lines(r) == []
    r.parts["skill"] = {"result": SimpleNamespace(relative={"rs": 0.62, "ci_low": 0.55, "ci_high": 0.70})}
    (line,) = glance_lines(r)
    assert "relative skill 0.62 [0.55, 0.70]" in line and "(#1-skill" in line


def test_rollouts_that_see_every_hand_judge_olenon_better_than_the_cheap_estimate(olenon):
    """The check plays 64 worlds at six steps of 30 units the estimate was not fitted on: knowing every
    hand, the rollouts' Brier score is lower (Olenon's cheap features miss who holds what)."""
    c = olenon["check"]
    assert c["units"] == 30 and 30 < c["steps"] <= 180 and c["worlds"] == 64
    assert c["gain_ci_low"] > 0 and c["brier_rollout"] < c["brier_cheap"]
    assert 0 < c["mean_abs_difference"] < 1


def test_a_policy_that_beats_every_other_is_called_dominant():
    """The strategy lines read the policies section's pairs with their adjusted p-values: one policy
    ahead of both others, each pair significant, dominates; the equilibrium's support and entropy."""
    import pandas as pd

    from analyser.analyses.report.model import BalanceReport
    from analyser.analyses.report.shape_section import strategy, strategy_lines

    pairs = pd.DataFrame({"a": ["x", "x", "y"], "b": ["y", "z", "z"], "win_diff": [0.1, 0.2, -0.05],
                          "p_adjusted": [0.01, 0.001, 0.3]})
    eq = pd.DataFrame({"policy": ["x", "y", "z"], "weight": [1.0, 0.0, 0.0], "weight_ci_low": [0.8, 0, 0],
                       "weight_ci_high": [1.0, 0.2, 0.0]})
    r = BalanceReport({"sections": ["policies"]})
    r.parts["policies"] = {"ratings": pd.DataFrame({"policy": ["x", "y", "z"]}), "pairs": pairs, "equilibrium": eq}
    s = strategy(r)
    assert s["dominant"] == "x" and (s["support"], s["support_low"], s["support_high"]) == (1, 1, 2)
    lines = " ".join(strategy_lines(r.parts["policies"]))
    assert s["entropy_bits"] == 0 and "Dominant strategy: x beats every other" in lines
    pairs.loc[1, "p_adjusted"] = 0.2
    assert strategy(r)["dominant"] is None


def test_the_glance_names_a_first_movers_significant_advantage_beside_fair_seats():
    """Palace's report read "Fair within noise" with a significant -0.4 point first-mover disadvantage in its
    verdicts only: the glance's seat sentence now says it, and leaves it out when it is not significant."""
    from analyser.analyses.report.model import BalanceReport
    from analyser.analyses.report.shape_section import glance_lines

    r = BalanceReport({"sections": ["seats"], "unit": "game"})
    first = {"advantage": -0.004, "advantage_ci_low": -0.006, "advantage_ci_high": -0.003,
             "advantage_p_adjusted": 0.0001}
    r.parts["seats"] = {"worst": {"group": "seat 3", "win_share": 0.751, "excess": 0.001, "excess_ci_low": -0.001,
                                  "excess_ci_high": 0.003}, "test": {"p_adjusted": 0.93}, "what": "seat",
                        "fair_share": 0.75, "first_mover": first}
    (line,) = glance_lines(r)
    assert line.startswith("- Fair within noise")
    assert "the first mover has a disadvantage of -0.4 points [-0.6, -0.3]" in line, line
    first["advantage_p_adjusted"] = 0.2
    (line,) = glance_lines(r)
    assert "first mover" not in line


def test_a_measure_prints_at_its_intervals_precision():
    """Olenon's report read "settled 100% of the way through [98.2%, 99.9%]": a mean of 99.56% rounded to
    a whole percent beside an interval to a tenth, so the estimate looked outside its own interval."""
    from analyser.analyses.report.shape_section import _measures

    s = {"decisive": {"mean": 0.99562, "low": 0.98169, "high": 0.99896},
         "comeback": {"mean": 0.32, "low": 0.2698, "high": 0.3748},
         "lead_changes": {"mean": 3.4, "low": 3.1, "high": 3.7}}
    text = _measures(s, {"orientation": "winner"})
    assert "99.6% of the way through [98.2%, 99.9%]" in text and "caught in 32.0% [27.0%, 37.5%]" in text
