"""Calibration of the tournament's conclusions over many seeds: identical copies, rating errors, equilibrium.

    .venv/bin/python benchmarks/calibrate_tournament.py --seeds 100

Four Markdown tables (seed s plays deals s * 1,000,000 onwards of run seed s, so seeds share no deal):

1. An identical copy (the same compiled function registered under another name) in both seatings at 2, 3
   and 4 seats, beside two other policies, the copy's ratings reference. Deterministic (Palace ``saver``):
   the share of seeds in which the copy is rated exactly 0 with the interval [0, 0] and named in
   ``result.same`` (target 100%). Random (``random``): the share in which the copy's rating interval
   covers 0 (target 93-97%).
2. Ratings: Palace 4p, saver / random / lowest / pickup, both seatings. Per policy, the spread of the
   rating over seeds (sd) against the mean reported standard error (target ratio 0.8-1.25), and the
   share of seeds whose reported interval (+-1.96 se: a poor fit no longer widens it) covers the mean
   over seeds (a proxy of the truth; target ~95%), and the share of seeds whose fit was called poor.
3. Copies in the equilibrium: two names for ``pickup`` beside ``random`` (2p pairs, 3p mixed; pickup
   beats random, so each copy's true weight is 1/2): how often their weights are equal and both weight
   intervals cover 1/2 (target >= 95% each); and the same runs' values against the mix, random's near
   the bound -1/2, each against the value of the matrix pooled over the seeds (target 93-97%).
4. Equilibrium: the same runs' bootstrap intervals of each policy's value against the equilibrium mix,
   and the share of seeds that cover the value computed from the matrix pooled over all seeds (the
   truth's proxy; target ~95%; a value pinned at 0 by the equilibrium's boundary is reported as is).
"""
from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np

from analyser.analyses.tournament import tournament
from analyser.games.registry import get_game
from analyser.stats.intervals import Z95
from analyser.stats.nash import antisymmetric, solve

LINEUP = ["saver", "random", "lowest", "pickup"]
OTHERS = {"saver": ["pickup", "random"], "random": ["saver", "pickup"]}


def copy_of(name: str):
    """The game's policy ``name`` registered again as ``name_copy``: one function, two names."""
    spec = get_game("palace").policy_map[name]
    return dataclasses.replace(spec, name=f"{name}_copy")


def identical_copies(seeds: int, deals: int) -> list[str]:
    rows = ["| policy | seating | seats | seeds | exactly 0 [0, 0] and named same | interval covers 0 | "
            "fit called poor | target |",
            "|---|---|---:|---:|---:|---:|---:|---|"]
    for name in ("saver", "random"):
        lineup = [name, copy_of(name), *OTHERS[name]]
        for seating in ("pairs", "mixed"):
            for players in (2, 3, 4):
                exact, covers, poor = 0, 0, 0
                for s in range(seeds):
                    r = tournament("palace", lineup, players=players, deals=deals, seed=s, first_deal=s * 1_000_000,
                                   tables=seating, bootstrap=0)
                    row = r.ratings.set_index("policy").loc[f"{name}_copy"]
                    exact += row["rating"] == 0 and row["ci_low"] == 0 and row["ci_high"] == 0 and \
                        [name, f"{name}_copy"] in r.same
                    covers += row["ci_low"] <= 0 <= row["ci_high"]
                    poor += not r.fit["fits"]
                target = "100% exact" if name == "saver" else "93-97% cover"
                rows.append(f"| {name} | {seating} | {players} | {seeds} | {100 * exact / seeds:.0f}% | "
                            f"{100 * covers / seeds:.0f}% | {100 * poor / seeds:.0f}% | {target} |")
    return rows


def copy_weights(seeds: int, deals: int, bootstrap: int) -> tuple[list[str], list[str]]:
    """Two names for ``pickup`` beside ``random`` (pickup beats random, so the truth is 1/2 for each copy):
    how often their equilibrium weights are equal and each copy's weight interval covers 1/2; and the same
    runs' values against the mix (random's near the bound -1/2: it loses nearly every deal), each against
    the value of the matrix pooled over all the seeds with the copies one policy (the truth's proxy)."""
    rows = ["| line-up | seating | seats | seeds | weights equal | interval covers 1/2 | target |",
            "|---|---|---:|---:|---:|---:|---|"]
    value_rows = ["| line-up | seating | seats | seeds | policy | in the mix | pooled value | mean value | "
                  "mean width | "
                  "covers the pooled value | target |",
                  "|---|---|---:|---:|---|---|---:|---:|---:|---:|---|"]
    names = ["pickup", "pickup_copy", "random"]
    for seating, players in (("pairs", 2), ("mixed", 3)):
        equal = covers = 0
        low, high, value, cells = [], [], [], []
        for s in range(seeds):
            r = tournament("palace", ["pickup", copy_of("pickup"), "random"], players=players, deals=deals, seed=s,
                           first_deal=s * 1_000_000, tables=seating, bootstrap=bootstrap)
            e = r.equilibrium.set_index("policy")
            equal += e.loc["pickup", "weight"] == e.loc["pickup_copy", "weight"]
            covers += all(e.loc[p, "weight_ci_low"] <= 0.5 <= e.loc[p, "weight_ci_high"]
                          for p in ("pickup", "pickup_copy"))
            e = e.loc[names]
            low.append(e["value_ci_low"].to_numpy())
            high.append(e["value_ci_high"].to_numpy())
            value.append(e["value"].to_numpy())
            m = r.matrix.loc[names, names].to_numpy()
            cells.append(np.nan_to_num((m - m.T) / 2))
        rows.append(f"| pickup, pickup_copy, random | {seating} | {players} | {seeds} | {100 * equal / seeds:.0f}% | "
                    f"{100 * covers / seeds:.0f}% | >=95%, >=95% |")
        low, high, value = map(np.array, (low, high, value))
        weights, pooled = solve(antisymmetric(*_upper(np.mean(cells, axis=0))), np.array([0, 0, 1]))
        for i, name in enumerate(names):
            cover = np.mean((low[:, i] <= pooled[i] + 1e-12) & (pooled[i] - 1e-12 <= high[:, i]))
            value_rows.append(f"| pickup, pickup_copy, random | {seating} | {players} | {seeds} | {name} | "
                              f"{'yes' if weights[i] > 0 else 'no'} | {100 * pooled[i]:+.2f} | "
                              f"{100 * value[:, i].mean():+.2f} | {100 * (high[:, i] - low[:, i]).mean():.2f} | "
                              f"{100 * cover:.1f}% | 93-97% |")
    return rows, value_rows


def rating_spread(seeds: int, deals: int, bootstrap: int) -> tuple[list[str], list[str]]:
    ratings_rows = ["| seating | policy | sd over seeds | mean se | ratio | reported interval covers the mean | "
                    "fit called poor | target |",
                    "|---|---|---:|---:|---:|---:|---:|---|"]
    nash_rows = ["| seating | policy | pooled value | mean value | covers the pooled value | target |",
                 "|---|---|---:|---:|---:|---|"]
    for seating in ("pairs", "mixed"):
        rating, se, poor, values, low, high, cells = [], [], [], [], [], [], []
        for s in range(seeds):
            r = tournament("palace", LINEUP, players=4, deals=deals, seed=s, first_deal=s * 1_000_000,
                           tables=seating, bootstrap=bootstrap)
            t = r.ratings.set_index("policy").loc[LINEUP]
            rating.append(t["rating"].to_numpy())
            se.append(t["se"].to_numpy())
            poor.append(not r.fit["fits"])
            e = r.equilibrium.set_index("policy").loc[LINEUP]
            values.append(e["value"].to_numpy())
            low.append(e["value_ci_low"].to_numpy())
            high.append(e["value_ci_high"].to_numpy())
            m = r.matrix.loc[LINEUP, LINEUP].to_numpy()
            cells.append(np.nan_to_num((m - m.T) / 2))
        rating, se, values, low, high = map(np.array, (rating, se, values, low, high))
        truth = rating.mean(axis=0)
        pooled = solve(antisymmetric(*_upper(np.mean(cells, axis=0))))[1]
        for i, name in enumerate(LINEUP[1:], start=1):
            sd, mse = rating[:, i].std(ddof=1), se[:, i].mean()
            cover = np.mean(np.abs(rating[:, i] - truth[i]) <= Z95 * se[:, i])
            ratings_rows.append(f"| {seating} | {name} | {sd:.4f} | {mse:.4f} | {sd / mse:.2f} | {100 * cover:.0f}% | "
                                f"{100 * np.mean(poor):.0f}% | 0.8-1.25, ~95% |")
        for i, name in enumerate(LINEUP):
            cover = np.mean((low[:, i] <= pooled[i] + 1e-12) & (pooled[i] - 1e-12 <= high[:, i]))
            nash_rows.append(f"| {seating} | {name} | {100 * pooled[i]:+.2f} | {100 * values[:, i].mean():+.2f} | "
                             f"{100 * cover:.0f}% | ~95% |")
    return ratings_rows, nash_rows


def _upper(a: np.ndarray):
    k = a.shape[0]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    return np.array([a[i, j] for i, j in pairs]), pairs, k


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--copy-deals", type=int, default=100, help="deals per pair or table, copy runs")
    parser.add_argument("--deals", type=int, default=200, help="deals per pair or table, rating runs (Palace 4p)")
    parser.add_argument("--bootstrap", type=int, default=100, help="bootstrap replicates of the equilibrium")
    parser.add_argument("--weight-deals", type=int, default=1000, help="deals per pair or table, copies' weights")
    parser.add_argument("--only", choices=["copies", "weights", "ratings"], help="one table only")
    args = parser.parse_args()
    t0 = time.perf_counter()
    print(f"## Tournament calibration: {args.seeds} seeds\n")
    if args.only in (None, "copies"):
        print(f"### Identical copies ({args.copy_deals} deals per pair or table)\n")
        print("\n".join(identical_copies(args.seeds, args.copy_deals)))
    if args.only in (None, "weights"):
        rows, value_rows = copy_weights(args.seeds, args.weight_deals, args.bootstrap)
        print(f"\n### Copies in the equilibrium ({args.weight_deals} deals per pair or table)\n")
        print("\n".join(rows))
        print(f"\n### Values against the mix near the bound ({args.weight_deals} deals per pair or table, "
              f"{args.bootstrap} bootstrap replicates; points)\n")
        print("\n".join(value_rows))
    if args.only in (None, "ratings"):
        ratings_rows, nash_rows = rating_spread(args.seeds, args.deals, args.bootstrap)
        print(f"\n### Rating errors: Palace 4p, {', '.join(LINEUP)} ({args.deals} deals; reference {LINEUP[0]})\n")
        print("\n".join(ratings_rows))
        print(f"\n### Equilibrium values against the mix ({args.bootstrap} bootstrap replicates; points)\n")
        print("\n".join(nash_rows))
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
