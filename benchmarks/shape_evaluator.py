"""The shape section's per-step estimate in every game: its Brier score against the base rate, out of sample.

    .venv/bin/python benchmarks/shape_evaluator.py --deals 2000 --sample 300

For each game at its default players, rules and line-up (the default policy in every seat), one run
of ``--deals`` units of seed ``--seed`` (analyser.analyses.shape.game_shape): the first ``--sample``
decided units are played again step by step and read at ``--points`` steps, the estimate is
cross-fitted over two halves of them, and the row gives its Brier score, the base rate's, the gain
with its 95% interval over units (positive: the estimate is better) and the skill 1 - B / B_base,
then the shape measures it gives. One Markdown table (benchmarks/RESULTS.md keeps it).
"""
from __future__ import annotations

import argparse
import time

from analyser.analyses.shape import game_shape

GAMES = ("palace", "enemy_anemone", "olenon", "spite_and_malice")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--points", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    a = ap.parse_args()
    print("| game | players | follows | units sampled | Brier | base rate | gain [95% interval] | skill | "
          "lead changes | comeback rate | decisive point | drama | seconds |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in a.games:
        t0 = time.perf_counter()
        out = game_shape(game, deals=a.deals, seed=a.seed, sample=a.sample, points=a.points)
        e = out["estimate"]
        b, s = e["brier"], e["shape"]
        print(f"| {game} | {out['meta']['players']} | the {out['orientation']} | {e['sampled']} | {b['brier']:.4f} | "
              f"{b['base']:.4f} | {b['gain']:+.4f} [{b['gain_ci_low']:+.4f}, {b['gain_ci_high']:+.4f}] | "
              f"{100 * b['skill']:.1f}% | {s['lead_changes']['mean']:.2f} | {100 * s['comeback']['mean']:.1f}% | "
              f"{100 * s['decisive']['mean']:.1f}% | {s['drama']['mean']:.3f} | {time.perf_counter() - t0:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
