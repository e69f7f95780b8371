"""Does every command print the same JSON at a git revision and in the working tree?

    .venv/bin/python benchmarks/same_json.py [--base REV] [--only NAME]

A change to how runs are planned, executed and tallied must not change a
number. This runs a fixed list of commands (RUNS: every command that plays
units, all four games, fixed counts and precision targets, rules, pairs and
mixed tables, team games, match games' hands) with ``--format json`` on both sides, each in a
fresh process, the base side from a temporary git worktree of REV, and compares
the parsed output with the timing keys and the code key (TIMING) removed. The report's JSON file
is compared the same way. Exit code 1 if any differs; the differing keys are
named.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from revisions import checkouts, run_with

TIMING = {"seconds", "simulation_seconds", "plays_per_second", "games_per_second", "units_per_second",
          "simulation_units_per_second", "generated", "date", "cli_seconds", "wall_seconds",
          "game_code"}   # the game's compiled-code key: any edit of its compiled sources changes it

RUNS = {
    "simulate palace": "simulate palace -n 3000 --seed 3 --players 3 --policy saver --policy lowest --policy pickup",
    "simulate palace rules": "simulate palace -n 2000 --seed 3 --rule ten_on_anything=on --rule short_game=on",
    "simulate palace precision": "simulate palace --precision 0.03 --seed 5 --players 3",
    "simulate palace precision rerun": "simulate palace --precision 0.04 --rerun --seed 5",
    "simulate enemy_anemone": "simulate enemy_anemone -n 300 --seed 2 --players 4",
    "simulate enemy_anemone hands": "simulate enemy_anemone -n 500 --seed 2 --unit hand",
    "simulate olenon": "simulate olenon -n 300 --seed 4",
    "simulate spite_and_malice": "simulate spite_and_malice -n 40 --seed 4",
    "compare palace": "compare palace --policy saver --policy pickup --players 3 -n 1500 --seed 9",
    "compare palace precision": "compare palace --policy saver --policy lowest --precision 0.05 --seed 9",
    "compare olenon teams": "compare olenon --policy shed --policy random -n 150 --seed 1",
    "compare enemy_anemone": "compare enemy_anemone --policy timing --policy greedy -n 150 --seed 1",
    "compare spite_and_malice": "compare spite_and_malice --policy builder --policy random -n 20 --seed 1",
    "tournament palace": "tournament palace --policy saver --policy lowest --policy pickup -n 600 --seed 2 "
                         "--bootstrap 50",
    "tournament palace mixed": "tournament palace --policy saver --policy lowest --policy pickup --players 3 "
                               "--tables mixed -n 400 --seed 2 --bootstrap 50",
    "tournament palace precision": "tournament palace --policy saver --policy random --precision 0.06 --seed 2 "
                                   "--bootstrap 20",
    "sweep palace": "sweep palace --policy pickup:max_pile=2|6|10 --policy saver -n 800 --seed 4",
    "sweep enemy_anemone": "sweep enemy_anemone --policy timing:min_tokens=0..2 --policy greedy --players 3 "
                           "-n 100 --seed 4",
    "vary palace": "vary palace --setting ten_on_anything -n 1500 --seed 6",
    "vary olenon": "vary olenon --setting talk -n 200 --seed 6",
    "vary spite_and_malice": "vary spite_and_malice --setting refill_empty_hand -n 20 --seed 6",
}
REPORTS = {
    "report palace": "report palace -n 800 --tournament-deals 300 --seed 2 --section seats --section players "
                     "--section rules --section policies",
}

CHILD = """
import sys, warnings
warnings.simplefilter("ignore")
from analyser.cli.main import main
sys.argv = ["analyser", *sys.argv[1:]]
try:
    main()
except SystemExit as e:
    if e.code:
        raise
"""


def strip(value):
    """The value without its timing keys (anywhere in the tree); NaN and infinities as null
    (an older revision printed them as NaN and Infinity, which are not JSON)."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [strip(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def differences(a, b, where: str = "") -> list[str]:
    """Paths at which two JSON trees differ (at most a few per branch)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{where}.{k}: on one side only" for k in sorted(set(a) ^ set(b))]
        for k in sorted(set(a) & set(b)):
            out += differences(a[k], b[k], f"{where}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{where}[{i}]")]
    return [] if a == b else [f"{where}: {json.dumps(a)[:80]} != {json.dumps(b)[:80]}"]


def outputs(src: Path, tmp: str, names: list[str], side: str) -> dict:
    got = {}
    for name in names:
        if name in RUNS:
            got[name] = strip(json.loads(run_with(src, CHILD, [*RUNS[name].split(), "--format", "json"], tmp)))
        else:
            where = Path(tmp) / side / name.replace(" ", "_")    # the same relative --out on both sides:
            where.mkdir(parents=True)                             # the report repeats its command line
            run_with(src, CHILD, [*REPORTS[name].split(), "--out", "r.md"], str(where))
            got[name] = strip(json.loads((where / "r.json").read_text()))
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME", help="run only this entry (repeatable)")
    ap.add_argument("--list", action="store_true", help="print the commands and exit")
    args = ap.parse_args()
    every = {**RUNS, **REPORTS}
    if args.list:
        for name, cmd in every.items():
            print(f"{name}: analyser {cmd}" + (" --format json" if name in RUNS else " --out DIR/r.md"))
        return
    names = args.only or list(every)
    unknown = [n for n in names if n not in every]
    if unknown:
        sys.exit(f"unknown run {unknown[0]!r}; valid: {', '.join(every)}")
    with checkouts(args.base) as (tmp, sides):
        a = outputs(sides["base"], tmp, names, "base")
        b = outputs(sides["tree"], tmp, names, "tree")
    differ = 0
    for name in names:
        diff = differences(a[name], b[name])
        if diff:
            differ += 1
            print(f"differs: {name}")
            for line in diff[:8]:
                print(f"    {line}")
    print(f"{len(names) - differ} of {len(names)} runs print identical JSON (timing keys aside) "
          f"between {args.base} and the working tree")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
