"""What a first run compiles, and for how long: per game, the cold start and each compiled piece.

    .venv/bin/python benchmarks/compile_cost.py [GAME ...] [--base REV] [--head REV] [--rounds 3]

Every measurement is a fresh process with an empty compile cache (ANALYSER_CACHE_DIR
in a temporary folder) running ``analyser.simulate(GAME, n=200, threads=1)``, as a
new user's first ``analyser simulate`` does. It prints, per game, the wall time of
that process and the compile time of each compiled function (numba's
``numba:compile`` events; *own* time excludes the functions compiled inside it,
so the own times add up to the total). With ``--base REV`` the same cold start is
timed for that revision too (a git worktree, alternating with the working tree),
so a change can show that no game's first run grew; ``--head REV`` times a
revision in place of the working tree.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from analyser.games.registry import game_names

ROOT = Path(__file__).resolve().parents[1]
GAMES = tuple(game_names())     # every registered game

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numba.core.event as ev
listener = ev.RecordingListener()
ev.register("numba:compile", listener)
import analyser
analyser.simulate(sys.argv[1], n=200, seed=1, threads=1, progress=False)
wall = time.perf_counter() - t0
stack, own, total = [], {}, {}
for t, e in listener.buffer:
    d = e.data["dispatcher"]
    name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
    if e.is_start:
        stack.append([name, t, 0.0])
    else:
        name, start, inner = stack.pop()
        took = t - start
        own[name] = own.get(name, 0.0) + took - inner
        total[name] = total.get(name, 0.0) + took
        if stack:
            stack[-1][2] += took
print(json.dumps({"wall": wall, "own": own, "compile": sum(own.values())}))
"""


def cold(game: str, pythonpath: Path) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ANALYSER_CACHE_DIR": cache, "PYTHONPATH": str(pythonpath)}
        done = subprocess.run([sys.executable, "-c", CHILD, game], env=env, capture_output=True, text=True,
                              cwd=pythonpath)
    if done.returncode:
        sys.exit(f"the cold run of {game} under {pythonpath} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def short(name: str) -> str:
    return name.removeprefix("analyser.games.").removeprefix("analyser.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--base", help="a revision to time too (alternating)")
    ap.add_argument("--head", help="a revision to time instead of the working tree")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--top", type=int, default=8, help="pieces listed per game")
    args = ap.parse_args()
    trees, worktrees = {}, []
    for rev in (args.base, args.head):
        if rev:
            worktrees.append(Path(tempfile.mkdtemp(prefix="analyser-rev-")))
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(worktrees[-1]), rev],
                           check=True, capture_output=True)
            trees[rev] = worktrees[-1]
    if not args.head:
        trees["working tree"] = ROOT
    head = list(trees)[-1]
    try:
        runs = {(g, label): [] for g in args.games for label in trees}
        for _ in range(args.rounds):
            for g in args.games:
                for label, tree in trees.items():
                    runs[g, label].append(cold(g, tree))
        print("| game | " + " | ".join(f"{label}: first run / compiling (s)" for label in trees) + " |")
        print("|---|" + "---:|" * len(trees))
        for g in args.games:
            cells = []
            for label in trees:
                r = runs[g, label]
                cells.append(f"{statistics.median(x['wall'] for x in r):.1f} / "
                             f"{statistics.median(x['compile'] for x in r):.1f}")
            print(f"| {g} | " + " | ".join(cells) + " |")
        for g in args.games:
            r = runs[g, head]
            own = {name: statistics.median(x["own"].get(name, 0.0) for x in r) for name in r[0]["own"]}
            total = sum(own.values())
            print(f"\n{g} ({head}): {total:.1f} s compiling, the largest pieces (own time, median of "
                  f"{args.rounds}):\n")
            print("| compiled function | seconds | share |\n|---|---:|---:|")
            for name, s in sorted(own.items(), key=lambda kv: -kv[1])[: args.top]:
                print(f"| `{short(name)}` | {s:.2f} | {s / total:.0%} |")
    finally:
        for tree in worktrees:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)


if __name__ == "__main__":
    main()
