"""Do a git revision and the working tree give byte-identical records in every game?

    .venv/bin/python benchmarks/same_records.py [--base REV] [--deals 20000]

A speed or layout change must not change a single game. This plays 45 Palace
configurations (2-4 players; saver/lowest/pickup/saver, pickup, random, saver
with keep=0 and swap=0, and a mixed table with swap=2 and pickup's parameters
changed; each with default rules, short_game and ten_on_anything) and 24 of the
other games (Enemy Anemone at 2, 4 and 6 players, Olenon, Spite & Malice: a mixed
table and one policy everywhere, default rules and a changed set; a twentieth of
``--deals`` for Enemy Anemone and Olenon, a two-hundredth for Spite & Malice
matches) on both sides, each in its own process, the base side from a temporary
git worktree of REV, and names every configuration whose records differ. Exit
code 1 if any does.

Records are compared field by field under their current names (a revision from
before the outcome block named rank ``place``, length ``actions`` and unit
``deal``, and kept ``win`` as 0/1 bytes); a field only one side has is named.
``--except POLICY`` leaves out the configurations that seat POLICY, for a change
that alters that policy's play on purpose.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from revisions import checkouts, run_with

CHILD = """
import sys, warnings
warnings.simplefilter("ignore")
import numpy as np
import analyser
out, deals = sys.argv[1], int(sys.argv[2])
RENAMED = {"place": "rank", "actions": "length", "deal": "unit"}


def canonical(rec):
    out = {RENAMED.get(n, n): rec[n].astype(np.float64) if n == "win" else rec[n] for n in rec.dtype.names}
    out["rank"] = np.where(rec["aborted"][:, None], 0, out["rank"])   # an aborted game has no ranks now
    return out

palace = [["saver", "lowest", "pickup", "saver"], ["pickup"], ["random"], ["saver:keep=0,swap=0"],
          ["lowest:swap=2", "pickup:max_pile=9,spend_rank=5", "random"]]
# game: (share of deals, players, tables, rule sets); a table of one policy seats it everywhere
GAMES = {
    "palace": (1, (2, 3, 4), palace, ({}, {"short_game": 1}, {"ten_on_anything": 1})),
    "enemy_anemone": (20, (2, 4, 6), [["timing", "greedy", "lowball", "random"], ["timing:min_tokens=2"]],
                      ({}, {"spent_tokens": "removed", "catchup": "total"})),
    "olenon": (20, (4,), [["shed", "tempo", "partner", "random"], ["partner"]], ({}, {"talk": "open"})),
    "spite_and_malice": (200, (2,), [["builder", "patient"], ["random"]], ({}, {"refill_empty_hand": 1})),
}
records = {}
for game, (share, counts, tables, rule_sets) in GAMES.items():
    for players in counts:
        for table in tables:
            policies = table if len(table) == 1 else (table * players)[:players]
            for rules in rule_sets:
                name = f"{game} ; {players} players ; {' / '.join(policies)} ; {rules or 'default rules'}"
                rec = analyser.simulate(game, players=players, policies=policies, deals=max(deals // share, 10),
                                        seed=7, rules=rules, progress=False).records
                for field, values in canonical(rec).items():
                    records[name + " | " + field] = values
np.savez(out, **records)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--except", dest="skip", action="append", default=[], metavar="POLICY",
                    help="leave out configurations that seat this policy (repeatable)")
    args = ap.parse_args()
    with checkouts(args.base) as (tmp, sides):
        for name, src in sides.items():
            run_with(src, CHILD, [str(Path(tmp) / f"{name}.npz"), str(args.deals)], tmp)
        a, b = np.load(Path(tmp) / "base.npz"), np.load(Path(tmp) / "tree.npz")
        configs = [c for c in dict.fromkeys(k.split(" | ")[0] for k in a.files)
                   if not set(args.skip) & {p.split(":")[0] for p in c.split(" ; ")[2].split(" / ")}]
        differ, one_side = [], set()
        for config in configs:
            fields_a = {k for k in a.files if k.startswith(config + " | ")}
            fields_b = {k for k in b.files if k.startswith(config + " | ")}
            one_side |= {k.split(" | ")[1] for k in fields_a ^ fields_b}
            if any(not np.array_equal(a[k], b[k]) for k in fields_a & fields_b):
                differ.append(config)
    for name in differ:
        print(f"differs: {name}")
    if one_side:
        print(f"fields on one side only (not compared): {', '.join(sorted(one_side))}")
    skipped = f" (leaving out tables with {', '.join(args.skip)})" if args.skip else ""
    print(f"{len(configs) - len(differ)} of {len(configs)} configurations x {args.deals:,} deals identical "
          f"between {args.base} and the working tree{skipped}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
