"""Calibration of the ratings' fit test: a transitive truth with shared deals is rarely called a misfit.

    .venv/bin/python benchmarks/calibrate_ratings.py --reps 400

Every pair of a tournament plays the same deals, so the pairs' results are correlated, and a fit test
that treats them as independent is not the chi2 it claims. Here the truth is exactly Bradley-Terry with
the strongest dependence there is: on every deal each of k = 4 policies draws one score, its strength
(1, 0.5, 0, -0.3) plus a standard Gumbel variable, and i beats j when its score is higher
(P = 1 / (1 + exp(-(b_i - b_j))) exactly, the same draw deciding all six pairs of the deal). For 200,
1,000 and 5,000 deals, ``--reps`` runs (seeds 0 .. reps - 1 of numpy's default_rng) give:

- the misfit test (ratings.misfit_chi2: GLS on the pairwise logits, covariance clustered by deal):
  its mean statistic over df (target ~1) and how often it rejects at 1% and 5% (targets ~1%, ~5%),
  and how often fit_quality calls the fit poor (chi2 / df > 1.5 and p < 1%);
- the same for the test the tournament used before (the Bradley-Terry GLM's Pearson chi2 on each
  pair's effective games, the pairs taken as independent), for comparison;
- a non-transitive truth (the weakest policy beats the strongest on a tenth of the deals it would lose):
  how often the test finds it (its power).
"""
from __future__ import annotations

import argparse
import time
from itertools import combinations

import numpy as np
from scipy.stats import chi2

from analyser.stats.pairs import proportion_influence
from analyser.stats.ratings import bradley_terry, fit_quality, misfit_chi2

STRENGTHS = np.array([1.0, 0.5, 0.0, -0.3])
PAIRS = list(combinations(range(STRENGTHS.size), 2))


def deals(rng: np.random.Generator, n: int, upset: float = 0.0) -> np.ndarray:
    """n deals x pairs: 1 where the pair's first policy won; ``upset``: the share of the strongest's
    wins against the weakest turned into losses."""
    score = STRENGTHS[None, :] + rng.gumbel(size=(n, STRENGTHS.size))
    won = np.column_stack([(score[:, i] > score[:, j]).astype(float) for i, j in PAIRS])
    if upset:
        c = PAIRS.index((0, STRENGTHS.size - 1))
        won[rng.random(n) < upset, c] = 0.0
    return won


def independent_pearson(won: np.ndarray) -> tuple[float, int]:
    """The earlier test: Bradley-Terry on effective games p (1 - p) / var(p) per pair, Pearson chi2."""
    k = STRENGTHS.size
    p = won.mean(axis=0)
    var = np.array([np.sum((proportion_influence(won[:, c], 1 - won[:, c]) * len(won)) ** 2) / (len(won) - 1)
                    for c in range(len(PAIRS))]) / len(won)
    games = np.where(var > 0, p * (1 - p) / np.maximum(var, 1e-300), len(won))
    fit = bradley_terry(list("abcd"), [i for i, _ in PAIRS], [j for _, j in PAIRS], p * games, (1 - p) * games)
    df = len(PAIRS) - (k - 1)
    return fit.stats["dispersion"] * df, df


def rates(stats: list[tuple[float, int]]) -> str:
    t = np.array([s for s, _ in stats])
    df = stats[0][1]
    p = chi2.sf(t, df)
    poor = np.mean([not fit_quality("Bradley-Terry", s, d)["fits"] for s, d in stats])
    return (f"{np.mean(t) / df:.2f} | {100 * np.mean(p < 0.01):.1f}% | {100 * np.mean(p < 0.05):.1f}% | "
            f"{100 * poor:.1f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=400)
    args = parser.parse_args()
    t0 = time.perf_counter()
    print(f"## Ratings fit test: {args.reps} runs per row (seeds 0-{args.reps - 1})\n")
    print("| truth | deals | test | mean chi2 / df | rejects at 1% | at 5% | fit called poor | target |")
    print("|---|---:|---|---:|---:|---:|---:|---|")
    for n in (200, 1000, 5000):
        ours, old, upset = [], [], []
        for seed in range(args.reps):
            won = deals(np.random.default_rng(seed), n)
            ours.append(misfit_chi2(STRENGTHS.size, PAIRS, won, 1 - won))
            old.append(independent_pearson(won))
            won = deals(np.random.default_rng(seed), n, upset=0.1)
            upset.append(misfit_chi2(STRENGTHS.size, PAIRS, won, 1 - won))
        print(f"| transitive | {n:,} | misfit_chi2 (deal-clustered GLS) | {rates(ours)} | ~1, ~1%, ~5% |")
        print(f"| transitive | {n:,} | Pearson, pairs independent (before) | {rates(old)} | ~1, ~1%, ~5% |")
        print(f"| weakest upsets strongest | {n:,} | misfit_chi2 | {rates(upset)} | power |")
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
