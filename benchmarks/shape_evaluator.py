"""The shape section's per-step estimate in every game: its Brier score against the base rate, out of sample.

    .venv/bin/python benchmarks/shape_evaluator.py --deals 2000 --sample 300 --check

For each game at its default players, rules and line-up (the default policy in every seat), one run
of ``--deals`` units of seed ``--seed`` (analyser.analyses.shape.game_shape): the first ``--sample``
decided units are played again step by step and read at ``--points`` steps, the estimate is
cross-fitted over two halves of them, and the row gives its Brier score, the base rate's, the gain
with its 95% interval over units (positive: the estimate is better) and the skill 1 - B / B_base,
then the shape measures it gives; ``--check`` adds the estimate against rollouts on 30 units after the
sample (analyser.analyses.shape_check). One Markdown table (benchmarks/RESULTS.md keeps it).
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
    ap.add_argument("--check", action="store_true", help="also the rollout check (analyser.analyses.shape_check)")
    a = ap.parse_args()
    print("| game | players | follows | units sampled | Brier | base rate | gain [95% interval] | skill | "
          "lead changes | comeback rate | decisive point | drama |" + (CHECK_HEAD if a.check else "") + " seconds |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" * 3 if a.check else "") + "---:|")
    for game in a.games:
        t0 = time.perf_counter()
        out = game_shape(game, deals=a.deals, seed=a.seed, sample=a.sample, points=a.points, check=a.check)
        e = out["estimate"]
        b, s = e["brier"], e["shape"]
        print(f"| {game} | {out['meta']['players']} | the {out['orientation']} | {e['sampled']} | {b['brier']:.4f} | "
              f"{b['base']:.4f} | {b['gain']:+.4f} [{b['gain_ci_low']:+.4f}, {b['gain_ci_high']:+.4f}] | "
              f"{100 * b['skill']:.1f}% | {s['lead_changes']['mean']:.2f} | {100 * s['comeback']['mean']:.1f}% | "
              f"{100 * s['decisive']['mean']:.1f}% | {s['drama']['mean']:.3f} |"
              + (_check(out["check"]) if a.check else "") + f" {time.perf_counter() - t0:.0f} |", flush=True)


CHECK_HEAD = " rollout check: units, steps | Brier there: estimate, rollouts | mean abs. difference |"


def _check(c: dict) -> str:
    return (f" {c['units']}, {c['steps']} | {c['brier_cheap']:.4f}, {c['brier_rollout']:.4f} | "
            f"{100 * c['mean_abs_difference']:.1f} points |")


if __name__ == "__main__":
    main()
