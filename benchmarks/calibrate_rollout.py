"""Do a rollout's intervals cover the truth 95% of the time, and is a review's cost unbiased?

    .venv/bin/python benchmarks/calibrate_rollout.py [--seeds 200] [--trials 300] [--truth 20000] [--only best]

Intervals: for each game's position (Palace 4 players seed 1 step 20; Olenon seed 1 step 31), a
rollout of ``--truth`` worlds is the truth; then ``--seeds`` rollouts of ``--trials`` worlds on
other rollout seeds: how often each action's 95% win-share interval, and the paired interval of
the difference between its two best actions, holds the truth.

Difference from the best (Enemy Anemone seed 3 deal 2 step 17: 12 close actions): a rollout of
``--truth`` worlds gives each action's true win share; then ``--seeds`` rollouts of ``--trials`` worlds.
Each row's "vs best" claims the difference from the action the rollout picked as best (on its even
worlds); its truth is the true win share of the row's action less the picked one's. Coverage and
bias of the rows other than the pick, beside what picking and measuring on all the same worlds (the
table before issue 29) gives, against the same kind of truth (the row less the action it picked).
With ``--top`` 4 the same over rollouts of 2,048 + 352 worlds, the other 8 actions dropped after
the first batch; with ``--drop`` the same, the rows of the actions kept to the end.

Cost: ten equal actions (independent fair coins over 400 worlds), the played one fixed; over
``--seeds`` x 5 replications, the mean of review's decision cost (best picked on half the worlds,
measured on the other half) and how often its 95% interval holds the true cost, 0; beside it what
picking and measuring on the same worlds gives (the bias the split removes).
"""
from __future__ import annotations

import argparse
import functools

import numpy as np
import pandas as pd

import analyser
from analyser.analyses.review import decision_cost
from analyser.analyses.rollout import RolloutResult
from analyser.stats.intervals import differences_ci

POSITIONS = [("palace", {"players": 4, "seed": 1, "step": 20}), ("olenon", {"seed": 1, "step": 31})]
CLOSE = ("enemy_anemone", {"seed": 3, "deal": 2, "step": 17})     # 12 actions within a few points


def intervals(game: str, where: dict, seeds: int, trials: int, truth_trials: int) -> str:
    truth = analyser.rollout(game, trials=truth_trials, rollout_seed=10**6, **where)
    true_win = dict(zip(truth.actions, truth.wins.mean(axis=0), strict=True))
    a, b = truth.actions[np.argsort(-truth.wins.mean(axis=0))[:2]]
    true_diff = true_win[a] - true_win[b]
    hits = n = diff_hits = 0
    for s in range(seeds):
        r = analyser.rollout(game, trials=trials, rollout_seed=s, **where)
        t = r.table.set_index("id")
        truth_here = pd.Series(true_win).reindex(t.index)
        inside = (t["win_ci_low"] <= truth_here) & (truth_here <= t["win_ci_high"])
        hits += int(inside.sum())
        n += len(t)
        i, j = list(r.actions).index(a), list(r.actions).index(b)
        c = differences_ci(r.wins[:, i] - r.wins[:, j], 1.0)     # as the rollout's table does
        diff_hits += c["low"] <= true_diff <= c["high"]
    return (f"| {game} | {where} | {len(truth.actions)} | {truth_trials:,} | {seeds} x {trials} | "
            f"{hits / n:.3f} | {diff_hits / seeds:.3f} |")


@functools.cache
def close_truth(truth_trials: int) -> RolloutResult:
    return analyser.rollout(CLOSE[0], trials=truth_trials, rollout_seed=10**6, **CLOSE[1])


def best_difference(seeds: int, trials: int, truth_trials: int, top: int | None = None,
                    drop: bool = False) -> list[str]:
    """The "vs best" rows' coverage of the difference from the picked action, this table's and the old one's."""
    game, where = CLOSE
    truth = close_truth(truth_trials)
    true_win = dict(zip(truth.actions.tolist(), truth.wins.mean(axis=0), strict=True))
    new_hit, new_err, old_hit, old_err, wrong = [], [], [], [], 0
    for s in range(seeds):
        r = analyser.rollout(game, trials=trials, rollout_seed=s, top=top, drop=drop, **where)
        t = r.table
        pick = int(t.loc[t["best"], "id"].iloc[0])
        rest = t[~t["best"]]
        if top is not None or drop:
            rest = rest[rest["dropped_at"] == 0]         # the actions kept to the end
        want = rest["id"].map(true_win) - true_win[pick]
        new_hit += list((rest["diff_ci_low"] <= want) & (want <= rest["diff_ci_high"]))
        new_err += list(rest["diff"] - want)
        wrong += true_win[pick] < max(true_win.values()) - 0.01
        if top is None and not drop:                     # the old table: the best and its differences on all worlds
            w = r.wins
            best = int(np.argmax(w.mean(axis=0)))
            for i in range(w.shape[1]):
                if i == best:
                    continue
                c = differences_ci(w[:, i] - w[:, best], 1.0)
                d = true_win[int(r.actions[i])] - true_win[int(r.actions[best])]
                old_hit.append(c["low"] <= d <= c["high"])
                old_err.append(c["mean"] - d)
    rows = [f"| {game} {where} | {len(truth.actions)} | {truth_trials:,} | {seeds} x {trials}"
            f"{f' (top {top})' if top else ''}{' (drop)' if drop else ''} | "
            "picked on the even worlds, measured on the odd (this) | "
            f"{len(new_hit)} | {np.mean(new_hit):.3f} | {100 * np.mean(new_err):+.2f} | 0.93-0.97 |"]
    if old_hit:
        rows.append(f"| {game} {where} | {len(truth.actions)} | {truth_trials:,} | {seeds} x {trials} | picked and "
                    f"measured on all the worlds (before) | {len(old_hit)} | {np.mean(old_hit):.3f} | "
                    f"{100 * np.mean(old_err):+.2f} | 0.93-0.97 |")
    rows.append(f"| | | | | picks more than 1 point below the true best | {seeds} | {wrong / seeds:.3f} | | |")
    return rows


def fake(wins: np.ndarray, played: int) -> RolloutResult:
    k = wins.shape[1]
    table = pd.DataFrame({"id": np.arange(k), "action": [f"a{i}" for i in range(k)], "played": np.arange(k) == played})
    return RolloutResult(table, {}, wins.astype(float), np.arange(k))


def cost(replications: int) -> str:
    rng = np.random.default_rng(1)
    split, same, covered = [], [], 0
    for _ in range(replications):
        wins = rng.random((400, 10)) < 0.5
        c = decision_cost(fake(wins, 3))
        split.append(c["cost"])
        covered += c["cost_ci_low"] <= 0 <= c["cost_ci_high"]
        means = wins.mean(axis=0)
        same.append(means.max() - means[3])
    se = np.std(split, ddof=1) / np.sqrt(replications)
    return (f"ten equal actions, {replications} replications: split cost mean {100 * np.mean(split):+.2f} points "
            f"(its standard error {100 * se:.2f}), interval holds 0 in {covered / replications:.3f} (the ties where "
            f"the played action is picked count as held); picking and measuring on the same worlds: mean "
            f"{100 * np.mean(same):+.2f} points")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--trials", type=int, default=300)
    ap.add_argument("--truth", type=int, default=20_000)
    ap.add_argument("--only", choices=["intervals", "best", "cost"], help="one table only")
    a = ap.parse_args()
    if a.only in (None, "best"):
        print("| position | actions | truth worlds | rollouts | vs best | rows | coverage | bias (points) | target |")
        print("|---|---:|---:|---|---|---:|---:|---:|---|")
        for trials, top, drop in ((a.trials, None, False), (2400, 4, False), (2400, None, True)):
            print("\n".join(best_difference(a.seeds, trials, a.truth, top, drop)), flush=True)
        print()
    if a.only == "best":
        return
    if a.only in (None, "intervals"):
        print("| game | position | actions | truth worlds | rollouts | win-share coverage | best-two difference "
              "coverage |")
        print("|---|---|---:|---:|---|---:|---:|")
        for game, where in POSITIONS:
            print(intervals(game, where, a.seeds, a.trials, a.truth), flush=True)
    if a.only in (None, "cost"):
        print(cost(5 * a.seeds))


if __name__ == "__main__":
    main()
