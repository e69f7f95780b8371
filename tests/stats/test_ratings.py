"""analyser.stats.ratings and analyser.stats.plackett_luce: Bradley-Terry by statsmodels and Plackett-Luce by
choix recover planted orderings and strengths; Plackett-Luce's ties and its robust interval."""
import math

import numpy as np
import pytest

from analyser.stats.plackett_luce import model_name, plackett_luce, top1_choices
from analyser.stats.ratings import ELO_SCALE, MODEL, bradley_terry, fit_quality, misfit_chi2, win_probability

STRENGTH = {"a": 1.2, "b": 0.5, "c": 0.0, "d": -0.8}


def planted(games=3000, seed=0):
    rng = np.random.default_rng(seed)
    first, second, w1, w2 = [], [], [], []
    names = list(STRENGTH)
    for x in range(len(names)):
        for y in range(x + 1, len(names)):
            p = 1 / (1 + math.exp(-(STRENGTH[names[x]] - STRENGTH[names[y]])))
            w = rng.binomial(games, p)
            first.append(names[x]), second.append(names[y]), w1.append(w), w2.append(games - w)
    return first, second, w1, w2


def test_recovers_a_planted_ordering_and_strengths():
    fit = bradley_terry(["c", "a", "b", "d"], *planted(), reference="c")
    t = fit.table.set_index("policy")
    assert list(fit.table["policy"]) == ["a", "b", "c", "d"] and list(fit.table["rank"]) == [1, 2, 3, 4]
    for name, beta in STRENGTH.items():
        assert t.loc[name, "ci_low"] <= beta <= t.loc[name, "ci_high"], name
    assert t.loc["c", "rating"] == 0 and t.loc["c", "se"] == 0
    assert t.loc["a", "elo"] == pytest.approx(ELO_SCALE * t.loc["a", "rating"])
    assert fit.model == MODEL and fit.describe().endswith("reference: c")
    assert fit.stats["df_resid"] == 3 and fit.stats["dispersion"] < 3 and fit.converged
    assert fit.info()["dispersion"] == fit.stats["dispersion"] and fit.info()["smoothing"] == 0.5
    assert win_probability(fit, "a", "d") == pytest.approx(1 / (1 + math.exp(-2.0)), abs=0.03)


def test_the_default_reference_is_the_first_name_and_differences_do_not_depend_on_it():
    f1 = bradley_terry(["a", "b", "c", "d"], *planted()).table.set_index("policy")["rating"]
    f2 = bradley_terry(["d", "c", "b", "a"], *planted()).table.set_index("policy")["rating"]
    assert f1["a"] == 0 and f2["d"] == 0
    assert (f1 - f1["d"]).to_dict() == pytest.approx((f2 - f2["d"]).to_dict(), abs=1e-6)


def test_a_clean_sweep_stays_finite_and_fractional_counts_work():
    fit = bradley_terry(["x", "y"], ["x"], ["y"], [20.0], [0.0])
    row = fit.table.set_index("policy").loc["y"]
    assert np.isfinite(row["rating"]) and row["rating"] < -2 and row["ci_high"] < 0
    half = bradley_terry(["x", "y"], ["x"], ["y"], [10.5], [10.5]).table.set_index("policy")
    assert half.loc["y", "rating"] == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("args", [
    (["x"], ["x"], ["x"], [1], [1]),                          # one name
    (["x", "x"], ["x"], ["x"], [1], [1]),                     # duplicate names
    (["x", "y", "z"], ["x"], ["y"], [1], [1]),                # z never plays
    (["x", "y"], ["x"], ["y"], [-1], [1]),                    # negative wins
])
def test_bad_input(args):
    with pytest.raises(ValueError):
        bradley_terry(*args)


def pl_orders(items, plays, rng):
    """Finishing ranks (plays x len(items), 1 = best) drawn from Plackett-Luce with STRENGTH."""
    w = np.exp([STRENGTH[x] for x in items])
    ranks = np.zeros((plays, len(items)), int)
    for p in range(plays):
        left = list(range(len(items)))
        for place in range(1, len(items) + 1):
            pick = left.pop(rng.choice(len(left), p=w[left] / w[left].sum()))
            ranks[p, pick] = place
    return ranks


def test_top1_choices_are_the_stages_and_ties_are_not_compared():
    winners, losers, rows = top1_choices(np.array([[2, 1, 3], [1, 1, 3], [1, 1, 1]]), np.array([4, 5, 6]))
    got = sorted(zip(rows.tolist(), winners.tolist(), losers.tolist(), strict=True))
    assert got == [(0, 4, 1 << 6), (0, 5, (1 << 4) | (1 << 6)),     # strict: 5 over {4, 6}, then 4 over {6}
                   (1, 4, 1 << 6), (1, 5, 1 << 6)]                  # 4 and 5 tied: each over 6 alone; all tied: none


def test_plackett_luce_recovers_planted_strengths_with_intervals_that_cover():
    rng = np.random.default_rng(4)
    names = ["c", "a", "b", "d"]
    ranks = pl_orders(names, 2500, rng)
    winners, losers, rows = top1_choices(ranks, np.arange(4))
    fit = plackett_luce(names, winners, losers, rows, reference="c")
    t = fit.table.set_index("policy")
    assert list(fit.table["policy"]) == ["a", "b", "c", "d"] and fit.model == model_name() == fit.info()["model"]
    assert "choix 0.4.1" in fit.model and fit.reference == "c" and t.loc["c", "se"] == 0
    for name, beta in STRENGTH.items():
        assert t.loc[name, "ci_low"] <= beta <= t.loc[name, "ci_high"], name
    assert t.loc["a", "ci_high"] - t.loc["a", "ci_low"] < 0.25
    # independent strict orders: the sandwich agrees with the observed information
    assert fit.stats["choices"] == 3 * 2500 and 0.8 < fit.stats["variance_ratio"] < 1.25


def test_plackett_luce_sandwich_counts_a_repeated_deal_once():
    """Every order copied into four plays of one deal: the same estimate, but four times the robust
    variance, as the deal is the unit (the naive interval would shrink instead)."""
    rng = np.random.default_rng(5)
    ranks = pl_orders(["a", "b", "c"], 600, rng)
    one = plackett_luce(["a", "b", "c"], *top1_choices(ranks, np.arange(3)))
    w, lo, rows = top1_choices(np.repeat(ranks, 4, axis=0), np.arange(3))
    four = plackett_luce(["a", "b", "c"], w, lo, rows // 4)
    r1, r4 = one.table.set_index("policy"), four.table.set_index("policy")
    assert r4.loc["b", "rating"] == pytest.approx(r1.loc["b", "rating"], abs=0.01)
    assert r4.loc["b", "se"] == pytest.approx(r1.loc["b", "se"], rel=0.05)
    assert four.stats["variance_ratio"] == pytest.approx(4 * one.stats["variance_ratio"], rel=0.05)


def test_plackett_luce_with_ties_a_clean_sweep_and_bad_input():
    """Ranks tied at the top (the others over a single loser) still order the policies; a policy
    first every time stays finite; unconnected or empty data are refused."""
    rng = np.random.default_rng(7)
    ranks = pl_orders(["a", "b", "c", "d"], 1500, rng)
    tied = np.where(ranks == 4, 4, 1)
    fit = plackett_luce(list("abcd"), *top1_choices(tied, np.arange(4)))
    assert list(fit.table["policy"]) == ["a", "b", "c", "d"] and fit.stats["choices"] == 3 * 1500
    sweep = plackett_luce(["x", "y"], [0] * 50, [2] * 50, range(50))
    assert np.isfinite(sweep.table["rating"]).all() and sweep.table.iloc[0]["policy"] == "x"
    with pytest.raises(ValueError, match="connect"):
        plackett_luce(["x", "y", "z"], [0], [2], [0])
    with pytest.raises(ValueError, match="no finishing order"):
        plackett_luce(["x", "y"], [], [], [])
    with pytest.raises(ValueError, match="reference"):
        plackett_luce(["x", "y"], [0], [2], [0], reference="q")


def correlated_pairs(seed, deals=400):
    """Three policies, every pair on the same deals; a deal good for policy 0 is good in both of its pairs
    (a shared deal effect), so the pairs are not independent. Returns the fit's inputs and influence."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=deals)
    shift = np.column_stack([u, u, np.zeros(deals)])                  # pairs (0, 1), (0, 2), (1, 2)
    wins = rng.random((deals, 3)) < 1 / (1 + np.exp(-(np.array([0.3, 0.8, 0.5]) + 1.5 * shift)))
    p = wins.mean(axis=0)
    influence = (wins - p) / deals
    return (["x", "y", "z"], [0, 0, 1], [1, 2, 2], p * deals, (1 - p) * deals), influence


def test_the_deal_clustered_sandwich_matches_the_spread_over_seeds():
    """The GLM's own errors treat the pairs as independent; with shared deals the sandwich is honest:
    the ratings' spread over seeds is within 0.8-1.25 of the mean reported error (the GLM's is not)."""
    ratings, robust, naive = [], [], []
    for seed in range(150):
        args, influence = correlated_pairs(seed)
        fit = bradley_terry(*args, influence=influence).table.set_index("policy").loc[["y", "z"]]
        ratings.append(fit["rating"].to_numpy())
        robust.append(fit["se"].to_numpy())
        naive.append(bradley_terry(*args).table.set_index("policy").loc[["y", "z"], "se"].to_numpy())
    spread = np.std(ratings, axis=0, ddof=1)
    assert ((0.8 < spread / np.mean(robust, axis=0)) & (spread / np.mean(robust, axis=0) < 1.25)).all()
    assert not ((0.8 < spread / np.mean(naive, axis=0)) & (spread / np.mean(naive, axis=0) < 1.25)).all()
    args, influence = correlated_pairs(0)
    assert "clustered by deal" in bradley_terry(*args, influence=influence).stats["interval"]


def gumbel_deals(seed: int, n: int, strengths=(1.0, 0.5, 0.0, -0.3), upset: float = 0.0):
    """Deals x pairs of a Bradley-Terry truth where one draw decides every pair of a deal (each policy's
    strength plus a Gumbel score; the higher wins): the pairs share deals as a tournament's do.
    ``upset``: the share of the strongest's wins over the weakest turned into losses (not transitive)."""
    from itertools import combinations

    b = np.asarray(strengths)
    pairs = list(combinations(range(b.size), 2))
    score = b[None, :] + np.random.default_rng(seed).gumbel(size=(n, b.size))
    won = np.column_stack([(score[:, i] > score[:, j]).astype(float) for i, j in pairs])
    if upset:
        won[np.random.default_rng(seed + 1).random(n) < upset, pairs.index((0, b.size - 1))] = 0.0
    return pairs, won


def test_the_misfit_test_is_a_chi2_for_a_transitive_truth_whose_pairs_share_deals():
    """60 seeds of 500 deals: the statistic's mean is its df (3) and it rarely rejects; a truth with upsets
    is found every time."""
    stats = []
    for seed in range(60):
        pairs, won = gumbel_deals(seed, 500)
        stats.append(misfit_chi2(4, pairs, won, 1 - won))
    t = np.array([x for x, _ in stats])
    assert {df for _, df in stats} == {3}
    assert 2.4 < t.mean() < 3.8 and np.mean(t > 11.34) <= 0.05        # chi2(3)'s 1% point: 11.34
    for seed in range(5):
        pairs, won = gumbel_deals(seed, 1000, upset=0.2)
        q = fit_quality(MODEL, *misfit_chi2(4, pairs, won, 1 - won))
        assert not q["fits"] and q["pvalue"] < 1e-6 and "not transitive" in q["warning"]


def test_a_poor_fit_is_said_and_the_intervals_keep_their_width():
    """Rock-paper-scissors cannot be one strength per policy: flagged, and the ratings' intervals stay
    beta +- 1.96 se (a misfit of the mean is not extra noise)."""
    pairs = [(0, 1), (1, 2), (0, 2)]
    won = np.random.default_rng(3).random((400, 3)) < np.array([0.3, 0.3, 0.7])   # r < p < s < r
    q = fit_quality(MODEL, *misfit_chi2(3, pairs, won.astype(float), 1 - won.astype(float)))
    assert not q["fits"] and q["dispersion"] > 10 and q["pvalue"] < 0.01 and "does not fit" in q["warning"]
    assert "ci_scale" not in q
    fit = bradley_terry(["r", "p", "s"], ["r", "p", "r"], ["p", "s", "s"], [120, 120, 280], [280, 280, 120])
    t = fit.adjusted().table
    assert (t["ci_high"] - t["rating"]).to_numpy() == pytest.approx(1.959964 * t["se"].to_numpy(), rel=1e-6)
    assert fit_quality(MODEL, None, 0) == {"model": MODEL, "dispersion": None, "df": 0, "pvalue": None, "fits": True,
                                          "warning": None}
    # a large statistic on few degrees of freedom can be chance: not flagged without the test
    assert fit_quality(MODEL, 4.0, 1)["fits"] and not fit_quality(MODEL, 40.0, 1)["fits"]


def test_policies_that_played_identically_get_one_rating_and_an_exact_tie_only_when_proven():
    """b played as the reference a on every deal: rating 0, and [0, 0] only when they are one policy by
    construction; otherwise an interval for the deals not seen (b's own se)."""
    fit = bradley_terry(["a", "b", "c"], ["a", "a", "b"], ["b", "c", "c"], [50, 60, 60.0000001], [50, 40, 39.9999999])
    t = fit.adjusted([["a", "b"]], proven=[["a", "b"]]).table.set_index("policy")
    assert t.loc["b", "rating"] == 0 and t.loc["b", "ci_low"] == 0 == t.loc["b", "ci_high"]
    seen = fit.adjusted([["a", "b"]]).table.set_index("policy")
    assert seen.loc["b", "rating"] == 0 and seen.loc["b", "se"] == pytest.approx(fit.table.set_index("policy").loc[
        "b", "se"]) and seen.loc["b", "ci_low"] < 0 < seen.loc["b", "ci_high"]
    assert seen.loc["a", "se"] == 0                                   # the reference: 0 by definition
    other = fit.adjusted([["b", "c"]]).table.set_index("policy")
    assert other.loc["b", "rating"] == other.loc["c", "rating"] and other.loc["b", "se"] == other.loc["c", "se"]
