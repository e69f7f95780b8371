"""How fast a rollout and a review run, per game (issue 20's targets are Palace's).

    .venv/bin/python benchmarks/rollout_speed.py [GAME ...] [--worlds 10000] [--threads 2]

Per game: the default line-up's unit 0 of seed 1 (Palace: 4 players); the position of its
middle third with the most legal actions is rolled out with ``--worlds`` worlds (warm: the
kernels compiled before timing), and the time split into drawing the worlds (Python) and
playing them (compiled, ``threads``); then a review of seat 0 with 1,000 worlds a decision (not of
Spite & Malice: its seats have hundreds of decisions a match, each the rest of a long match to play).
"""
from __future__ import annotations

import argparse
import time

import analyser
from analyser.analyses.rollout import position_at
from analyser.engine.config import RunConfig
from analyser.games.registry import game_names
from analyser.games.worlds import WorldSampler

GAMES = tuple(game_names())     # every registered game
# Spite & Malice: every play-out is the rest of a long match, and a seat has hundreds of decisions in one,
# so its rollout plays 2,000 worlds and its review (many minutes) is left out
WORLDS = {"spite_and_malice": 2_000}
NOT_REVIEWED = ("spite_and_malice",)


def widest_step(game: str) -> tuple[int, int]:
    """(step, legal actions) of the middle third's position with the most legal actions."""
    history, kit, _ = position_at(RunConfig.build(game, deals=1, seed=1), None)
    third = len(history) // 3
    best = (0, 0)
    for step in range(third, 2 * third):
        decision = history[step - 1].decision()
        if decision is not None:
            best = max(best, (len(kit.legal_actions(decision[1])), step), key=lambda x: x[0])
    return best[1], best[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--worlds", type=int, default=None, help="default 10,000 (Spite & Malice 2,000)")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    for game in a.games:
        worlds = a.worlds or WORLDS.get(game, 10_000)
        step, width = widest_step(game)
        analyser.rollout(game, seed=1, step=step, trials=50, threads=a.threads)       # compile
        sampling = [0.0]
        real = WorldSampler.draw                       # every game's sampler draws through it

        def timed(*args, real=real, sampling=sampling, **kwargs):
            t0 = time.perf_counter()
            world = real(*args, **kwargs)
            sampling[0] += time.perf_counter() - t0
            return world

        WorldSampler.draw = timed
        t0 = time.perf_counter()
        analyser.rollout(game, seed=1, step=step, trials=worlds, threads=a.threads)
        wall = time.perf_counter() - t0
        WorldSampler.draw = real
        per = 1e6 * sampling[0] / worlds
        line = (f"{game}: step {step}, {width} actions x {worlds:,} worlds in {wall:.2f} s on {a.threads} threads "
                f"(drawing the worlds {sampling[0]:.2f} s, {per:.0f} us a world; playing {wall - sampling[0]:.2f} s, "
                f"{1e6 * (wall - sampling[0]) / (width * worlds):.1f} us a play-out)")
        if game not in NOT_REVIEWED:
            t0 = time.perf_counter()
            r = analyser.review(game, seed=1, seat=0, threads=a.threads)
            took = time.perf_counter() - t0
            line += f"; review of seat 0: {r.meta['decisions']} decisions x 1,000 worlds in {took:.1f} s"
        print(line, flush=True)


if __name__ == "__main__":
    main()
