"""Calibration of the paired-difference intervals (stats.intervals.differences_ci) over many seeds.

    .venv/bin/python benchmarks/calibrate_differences.py --seeds 100
    .venv/bin/python benchmarks/calibrate_differences.py --truth        # recompute the truths (slow)
    .venv/bin/python benchmarks/calibrate_differences.py --synthetic    # rare differences of a known share

``--synthetic``: the games' rare differences are rarer than the issue's 1-3% of deals once the
outcome, not the record, is counted (Palace's differ on about 0.6% of deals), so a second table
draws paired differences whose share of differing deals is known: 1%, 2% and 3% of 200, 500 and
2,000 deals differ, each by -1, -1/2, +1/2, -1/2 or +1 (a two-arrangement comparison's values; truth
the share times their mean, -0.1), 2,000 synthetic seeds a cell (numpy seed 1000 + 10 x percent + n).

One Markdown table; seed s is run seed s (seeds 0 .. --seeds - 1; they share no deal with the truth's
seed 10**6). Each configuration is run with the public API at 200, 500 and 2,000 deals, and each row
says how often the printed 95% interval covered the truth (with the Wilson interval of that share over
the seeds), the target 93-97%, how many seeds played identically on every deal (a[d] = 0 everywhere:
"played identically", with the interval of the deals not seen), how many intervals had zero width (the
target: none, for no configuration here is one policy by construction), and the same coverage of the
interval before (the effective-n Wilson or normal interval with the floor s^2 + 1/n, an exact tie [0, 0]
when a[d] = 0 everywhere), from the same per-deal values where the API gives them (compare).

- rare difference, Palace 2p, saver:burn_at=6 against saver (compare): about 2% of deals differ; the
  win share difference (Palace's score is its win share).
- rare difference, Olenon 4p, talk none -> open, partner beside shed (vary): team 0's change in win
  share and in score; about 1% of deals differ.
- common difference, Palace 2p, saver against lowest (compare): win share.
- common difference, Olenon 4p, partner against shed (compare): win share and score.

Truths: one large run of each (TRUTHS, from --truth: 10**6 deals for Palace, 2 x 10**5 for Olenon, seed
10**6), kept here so a calibration run does not repeat them. After the compiles (a few minutes cold)
about 3 s a seed on one busy core: 100 seeds in about 6 minutes.
"""
from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import analyser
from analyser.errors import AbortedUnits
from analyser.stats.intervals import Z95, difference_ci, exact, mean_ci, wilson

SIZES = (200, 500, 2000)
TRUTH_SEED = 10**6
TARGET = (0.93, 0.97)
RARE = ("palace", ["saver:burn_at=6", "saver"], 2)
COMMON = ("palace", ["saver", "lowest"], 2)
TEAMS = ("olenon", ["partner", "shed"], 4)
VARY = ("olenon", "talk", ["partner", "shed"])
TRUTHS = {                      # from --truth (seed 10**6); see the module docstring
    "rare: Palace 2p saver:burn_at=6 - saver": {"win": -0.001087851020817238, "deals": 10**6},
    "rare: Olenon 4p talk open - none (team 0)": {"win": -0.001815, "score": -0.00296, "deals": 2 * 10**5},
    "common: Palace 2p saver - lowest": {"win": 0.007222, "deals": 10**6},
    "common: Olenon 4p partner - shed": {"win": -0.030685, "score": -0.0518025, "deals": 2 * 10**5},
}


def compare_cells(game, policies, players, deals, seed) -> dict:
    """quantity -> (printed low, printed high, identical, before's low, before's high) of one compare run."""
    r = analyser.compare(game, policies=policies, players=players, deals=deals, seed=seed)
    s = r.summary.set_index("quantity")
    out = {}
    for q, name, bounds in (("win", "win share difference", (-1.0, 1.0)), ("score", "score difference", None)):
        row = s.loc[name]
        v = exact(r.tally.values(q))
        v = v[np.isfinite(v)]
        tie = not v.any()
        low, high = mean_ci(v.mean(), v.var(ddof=1), v.size, bounds=bounds, tie=tie)
        out[q] = (row["ci_low"], row["ci_high"], bool(row["identical"]), low, high)
    return out


def vary_cells(deals, seed) -> dict:
    """quantity -> (low, high, identical) of team 0's change in vary (no per-deal values: no 'before')."""
    game, setting, policies = VARY
    r = analyser.vary(game, setting, policies=policies, deals=deals, seed=seed)
    row = r.differences().iloc[0]
    return {q: (row[f"{q}_diff_ci_low"], row[f"{q}_diff_ci_high"], bool(row[f"{q}_diff_identical"]), None, None)
            for q in ("win", "score")}


CONFIGS = {
    "rare: Palace 2p saver:burn_at=6 - saver": lambda n, s: compare_cells(*RARE, n, s),
    "rare: Olenon 4p talk open - none (team 0)": vary_cells,
    "common: Palace 2p saver - lowest": lambda n, s: compare_cells(*COMMON, n, s),
    "common: Olenon 4p partner - shed": lambda n, s: compare_cells(*TEAMS, n, s),
}
QUANTITIES = {"rare: Palace 2p saver:burn_at=6 - saver": ("win",), "common: Palace 2p saver - lowest": ("win",)}


def truths() -> dict:
    """The truths, from one large run each (seed TRUTH_SEED)."""
    out = {}
    for key, (game, policies, players) in (("rare: Palace 2p saver:burn_at=6 - saver", RARE),
                                           ("common: Palace 2p saver - lowest", COMMON),
                                           ("common: Olenon 4p partner - shed", TEAMS)):
        deals = 10**6 if game == "palace" else 2 * 10**5
        s = analyser.compare(game, policies=policies, players=players, deals=deals, seed=TRUTH_SEED).summary
        out[key] = {"win": float(s["estimate"].iloc[0]), "score": float(s["estimate"].iloc[1]), "deals": deals}
    game, setting, policies = VARY
    row = analyser.vary(game, setting, policies=policies, deals=2 * 10**5, seed=TRUTH_SEED).differences().iloc[0]
    out["rare: Olenon 4p talk open - none (team 0)"] = {"win": float(row["win_diff"]),
                                                        "score": float(row["score_diff"]), "deals": 2 * 10**5}
    return out


def synthetic(seeds: int = 2000) -> None:
    """The rare-difference table of known shares (module docstring), with the floored interval before."""
    values = np.array([-1.0, -0.5, 0.5, -0.5, 1.0])
    print("| share of deals that differ | deals | coverage (95% CI over seeds) | zero-width | before: s^2 + 1/n |")
    print("|---|---|---|---|---|")
    for rate in (0.01, 0.02, 0.03):
        for n in SIZES:
            rng = np.random.default_rng(1000 + 10 * round(100 * rate) + n)
            d = np.where(rng.random((seeds, n)) < rate, rng.choice(values, (seeds, n)), 0.0)
            pos, neg = np.where(d > 0, d, 0).sum(axis=1), np.where(d < 0, -d, 0).sum(axis=1)
            low, high = difference_ci(np.full(seeds, n), pos, neg, (d * d).sum(axis=1), 1.0)
            truth = rate * values.mean()
            floor = Z95 * np.sqrt((d.var(axis=1, ddof=1) + 1 / n) / n)
            before = share(list(np.abs(d.mean(axis=1) - truth) <= floor))
            print(f"| {100 * rate:.0f}% | {n:,} | {share(list((low <= truth) & (truth <= high)))} | "
                  f"{int(np.sum(high <= low))} | {before} |")


def share(hits: list[bool]) -> str:
    k, n = int(np.sum(hits)), len(hits)
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--truth", action="store_true", help="recompute the truths and print them")
    parser.add_argument("--synthetic", action="store_true", help="the table of rare differences of known shares")
    args = parser.parse_args(argv)
    if args.truth:
        print(truths())
        return
    if args.synthetic:
        synthetic()
        return
    start = time.time()
    warnings.simplefilter("ignore", AbortedUnits)      # Palace 2p aborts 1-2% of plays: dropped, counted in the run
    print(f"Seeds 0 .. {args.seeds - 1}; truths from seed {TRUTH_SEED:,} (their deals in the row); target "
          f"{100 * TARGET[0]:.0f}-{100 * TARGET[1]:.0f}%.\n")
    print("| configuration | quantity | truth | deals | coverage (95% CI over seeds) | identical seeds | "
          "zero-width | before: s^2 + 1/n |")
    print("|---|---|---|---|---|---|---|---|")
    for name, run in CONFIGS.items():
        truth = TRUTHS[name]
        for n in SIZES:
            cells = [run(n, seed) for seed in range(args.seeds)]
            for q in QUANTITIES.get(name, ("win", "score")):
                t = truth[q]
                rows = [c[q] for c in cells]
                hits = [lo <= t <= hi for lo, hi, *_ in rows]
                zero = sum(hi <= lo for lo, hi, *_ in rows)
                same = sum(r[2] for r in rows)
                before = share([r[3] <= t <= r[4] for r in rows]) if rows[0][3] is not None else "-"
                print(f"| {name} | {q} | {t:+.5f} ({truth['deals']:,}) | {n:,} | {share(hits)} | {same} | {zero} "
                      f"| {before} |", flush=True)
    print(f"\n{time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
