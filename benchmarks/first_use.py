"""A new user's first session: every game's simulate, trace, replay and rollout with an empty
compile cache, each a fresh ``analyser`` process as typed at a shell.

    .venv/bin/python benchmarks/first_use.py [GAME ...] [--rounds 1] [--tree PATH]

Prints each command's wall time and the sum (issue 34's goals: a game's first ``simulate``
under 12 s, the sixteen commands under 75 s in all). The cache starts empty once per round, so
a command loads what an earlier command of the same game compiled, as it would for a user.
``--tree PATH`` runs another checkout's code (a git worktree of an older revision) instead.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine_line

from analyser.games.registry import game_names

ANALYSER = str(Path(sys.executable).with_name("analyser"))


def commands(game: str, out: Path) -> list[list[str]]:
    return [["simulate", game, "-n", "10000"],
            ["trace", game, "--seed", "1", "--deal", "0"],
            ["replay", game, "--seed", "1", "--deal", "0", "--out", str(out / f"{game}.html")],
            ["rollout", game, "--seed", "1", "--deal", "0", "--step", "1", "--trials", "200"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", default=list(game_names()))
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--tree", type=Path, help="a checkout whose code runs instead (on PYTHONPATH)")
    args = ap.parse_args()
    print(machine_line())
    for r in range(args.rounds):
        total = 0.0
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
            env = {**os.environ, "ANALYSER_CACHE_DIR": cache, "COLUMNS": "100"}
            if args.tree:
                env["PYTHONPATH"] = str(args.tree.resolve())
            print(f"\nround {r + 1}\n\n| command | exit | seconds |\n|---|---:|---:|")
            for game in args.games:
                for cmd in commands(game, Path(out)):
                    t = time.perf_counter()
                    done = subprocess.run([ANALYSER, *cmd], env=env, capture_output=True, text=True)
                    took = time.perf_counter() - t
                    total += took
                    print(f"| `analyser {' '.join(cmd).replace(out, 'OUT')}` | {done.returncode} | {took:.1f} |",
                          flush=True)
                    if done.returncode:
                        print(done.stderr[-800:], file=sys.stderr)
            print(f"\nround {r + 1}: {total:.1f} s in all")


if __name__ == "__main__":
    main()
