"""How much skill matters against the deal: ``analyser skill GAME``.

Three measures, each from the analyser's own runs on common deals (analyser.stats.skill has the
statistics):

- relative skill RS = LE / (LE + RE) (Borm and van der Genugten): a beginner (``random``, uniform legal
  play), the strong player (a search player, default ``pimc``) and its open-cards variant (the same
  search seeing every hidden card, ``open=1``: the fictive player who knows the chance outcomes) each
  play ``compare`` against the same field (the game's best heuristic, ``GameSpec.field``, or one given)
  on the same deals, every seat arrangement; a player's result on a deal is compare's paired value
  a[d] (its seats' mean win share minus the field's, averaged over the arrangements). LE = strong -
  beginner, RE = open - strong, per deal; RS's interval is a bootstrap over deals.
- the luck share at two skill levels, the field's heuristic and the strong player in every seat: each
  deal replayed R times with fresh policy streams (the same cards, since a deal depends only on (seed,
  unit), and every seat's stream id moved to one no other replay uses: kernels.rng has 15 policy
  streams a hand, so R is at most 15 // seats; a search player draws its worlds from its seat's
  stream too), and the share of a seat's (team's) win variance that is the deal's, ICC(1).
- the skill ladder (analyser.analyses.skill_ladder): the strong player at budget 2B against B, rung by
  rung, until a rung is not significant.

A search player plays thousands of worlds a decision, so the defaults are small (200 deals, and the
search player at its own defaults: give ``pimc:worlds=4`` for a quick look); ``meta["seconds"]`` says
what each part cost.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.analyses.skill_ladder import DEFAULT_BUDGETS, check_budgets, climbed, ladder, search_seat
from analyser.engine.config import whole_number
from analyser.engine.stopping import one_count
from analyser.errors import AbortedUnits, UserError, some_of
from analyser.io.jsonable import jsonable_tree, rows
from analyser.io.numbers import hundred
from analyser.kernels.rng import MAX_POLICY_STREAMS
from analyser.stats.skill import DEFAULT_BOOTSTRAP, luck_share, relative_skill

KIND = "skill"
PARTS = ("relative", "luck", "ladder")
DEFAULT_DEALS = 200
BEGINNER = "random"
ROLES = ("beginner", "strong", "open")
RESULT_TEXT = ("a player's result on a deal: its seats' mean win share minus the field's, averaged over every seat "
               "arrangement (compare's paired value), so it lies in [-1, 1]")


@dataclass(eq=False)
class SkillResult:
    """Skill and luck in one game.

    relative    RS with its interval, LE and RE with theirs (stats.skill.relative_skill)
    players     per role (beginner, strong, open): policy, result against the field, its paired interval
    luck        per level (field, strong): policy, deals, replays, luck share and its interval
    ladder      per rung: budget B, 2B against B, the paired win share difference, significant
    deals_frame per deal: each role's result (NaN where the deal aborted)
    meta        game, players, unit, seed, settings, policies, deals, replays, budgets, methods, seconds,
                versions
    """
    meta: dict
    relative: dict | None = None
    players: pd.DataFrame | None = None
    luck: pd.DataFrame | None = None
    ladder: pd.DataFrame | None = None
    deals_frame: pd.DataFrame | None = None

    @property
    def summary(self) -> pd.DataFrame:
        """One row per figure (quantity, estimate, ci_low, ci_high): RS, LE, RE, each level's luck share and
        each rung's difference (what ``--format csv`` prints)."""
        out = []
        r = self.relative
        if r is not None:
            out += [("relative skill RS", r["rs"], r["ci_low"], r["ci_high"]),
                    ("learning effect LE (strong - beginner)", r["le"], r["le_ci_low"], r["le_ci_high"]),
                    ("random effect RE (open - strong)", r["re"], r["re_ci_low"], r["re_ci_high"])]
        for row in [] if self.luck is None else self.luck.itertuples():
            out.append((f"luck share, {row.policy} in every seat", row.luck_share, row.ci_low, row.ci_high))
        for row in [] if self.ladder is None else self.ladder.itertuples():
            out.append((f"ladder: {row.a} - {row.b}", row.estimate, row.ci_low, row.ci_high))
        return pd.DataFrame(out, columns=["quantity", "estimate", "ci_low", "ci_high"])

    def verdicts(self) -> dict[str, str]:
        """part -> one sentence with its number and interval."""
        out = {}
        if self.relative is not None:
            out["relative"] = rs_text(self.relative)
        if self.luck is not None:
            out["luck"] = luck_text(self.luck)
        if self.ladder is not None:
            out["ladder"] = climbed(self.ladder)
        return out

    def to_dict(self) -> dict:
        return jsonable_tree({"meta": self.meta, "relative": self.relative, "verdicts": self.verdicts(),
                              "summary": rows(self.summary),
                              "players": rows(self.players) if self.players is not None else None,
                              "luck": rows(self.luck) if self.luck is not None else None,
                              "ladder": rows(self.ladder) if self.ladder is not None else None})

    def save(self, path: str | Path) -> Path:
        """Write the result and its configuration as one JSON file (``.json``), all at once."""
        from analyser.io.atomic import write_file
        from analyser.io.jsonable import dumps

        return write_file(Path(path), dumps(self.to_dict(), indent=2), "skill result")

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<SkillResult {m['game']}: {m['players']} players, strong {m['policies']['strong']}, field "
                 f"{m['policies']['field']}, seed {m['seed']}>"]
        lines += [f"  {k}: {v}" for k, v in self.verdicts().items()]
        lines.append("  .summary .relative .players .luck .ladder .deals_frame .meta .to_dict() .save(path)")
        return "\n".join(lines)


def rs_text(r: dict) -> str:
    """Relative skill in one sentence."""
    if r["rs"] != r["rs"]:
        return (f"relative skill cannot be told: LE + RE is not above 0 (LE {hundred(r['le'], 1, sign=True)}, "
                f"RE {hundred(r['re'], 1, sign=True)} points)")
    ci = f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]" if r["bounded"] else "(no interval: LE + RE may be 0)"
    return (f"relative skill RS = {r['rs']:.2f} {ci}: LE {hundred(r['le'], 1, sign=True)} "
            f"[{hundred(r['le_ci_low'], 1, sign=True)}, {hundred(r['le_ci_high'], 1, sign=True)}] points, "
            f"RE {hundred(r['re'], 1, sign=True)} [{hundred(r['re_ci_low'], 1, sign=True)}, "
            f"{hundred(r['re_ci_high'], 1, sign=True)}] points, over {r['deals']:,} deals"
            + (f" ({r['dropped']:,} dropped: aborted for some player)" if r["dropped"] else ""))


def _pc(x: float) -> str:
    """A share in percent to 0.1 (a bound near 1 stays apart from the estimate), never "-0.0"."""
    return f"{round(100 * x, 1) + 0.0:.1f}"


def luck_text(luck: pd.DataFrame) -> str:
    """Every level's luck share in one clause: "the luck share is 100.0% [99.5, 100.0] with saver (every
    replay alike) and 11.4% [3.3, 19.8] with pimc, each in every seat"."""
    parts = [f"{_pc(r.luck_share)}% [{_pc(r.ci_low)}, {_pc(r.ci_high)}] with {r.policy}"
             + (" (every replay alike: the deal decides)" if r.identical else "") for r in luck.itertuples()]
    return ("the luck share (the deal's part of a seat's win variance) is " + " and ".join(parts)
            + (", each" if len(parts) > 1 else "") + " in every seat")


def skill(game: str = "palace", players: int | None = None, strong="pimc", field=None, deals: int | None = None,
          seed: int = 0, rules: dict | None = None, unit: str | None = None, parts=None,
          luck_deals: int | None = None, replays: int | None = None, budgets=DEFAULT_BUDGETS,
          ladder_deals: int | None = None, bootstrap: int = DEFAULT_BOOTSTRAP, threads: int | None = None,
          progress: bool | None = None, n: int | None = None, announce=None, backend=None,
          run_dir=None) -> SkillResult:
    """Skill and luck in ``game`` (see the module docstring).

    strong: the search player (default ``pimc`` at its defaults); its open-cards variant is the same with
    ``open=1``. field: the policy every measure plays against (default: the game's best heuristic).
    deals (or n): deals of the relative-skill runs (default 200); luck_deals, ladder_deals: of the luck and
    ladder runs (default: deals). replays: plays of each deal for the luck share (default and most: 15 //
    seats, each with policy streams of its own). budgets: the ladder's B values, in order.
    parts: some of "relative", "luck", "ladder" (default: all). announce(line) is called as each part starts.
    backend, run_dir: as simulate's; every run keeps its chunks in the one directory.
    """
    from analyser.engine.config import RunConfig

    todo = _parts(parts)
    count = _count(n, deals, DEFAULT_DEALS, "deals")
    luck_count = _count(None, luck_deals, count, "luck_deals")
    ladder_count = _count(None, ladder_deals, count, "ladder_deals")
    bootstrap = whole_number(bootstrap, "the bootstrap replicates", 100, 100_000)
    budgets = check_budgets(budgets)
    strong_seat = search_seat(game, strong, unit)
    base = RunConfig.build(game, players=players, policies=[strong_seat], deals=1, seed=seed, rules=rules,
                           unit=unit)
    spec = base.game
    field_label = field if field is not None else spec.field
    field_seat = RunConfig.build(game, players=base.players, policies=[field_label], deals=1, seed=seed,
                                 rules=rules, unit=unit).seats[0]
    most = MAX_POLICY_STREAMS // base.players
    replays = most if replays is None else whole_number(replays, "replays", 2, max(2, most))
    if most < 2:
        raise UserError(f"a luck share needs 2 replays with streams of their own; {base.players} seats leave "
                        f"{most}")
    open_seat = replace(strong_seat, values={**strong_seat.values, strong_seat.spec.cheats: 1.0})
    info = base.metadata()
    meta = {"kind": KIND, "game": spec.name, "unit": spec.unit, "players": base.players, "seed": seed,
            "settings": info["settings"], "parts": list(todo),
            "policies": {"beginner": BEGINNER, "strong": strong_seat.label(), "open": open_seat.label(),
                         "field": field_seat.label()},
            "deals": count, "luck_deals": luck_count, "replays": replays, "budgets": budgets,
            "ladder_deals": ladder_count, "bootstrap": bootstrap, "result": RESULT_TEXT, "seconds": {},
            "versions": info["versions"]}
    out = SkillResult(meta)
    common = {"players": base.players, "seed": seed, "rules": rules, "unit": unit, "threads": threads,
              "progress": progress, "backend": backend, "run_dir": run_dir}
    runs = {"relative": lambda: _relative(out, {"beginner": BEGINNER, "strong": strong_seat, "open": open_seat},
                                          field_seat, count, bootstrap, game, common),
            "luck": lambda: _luck(out, [("field", field_seat), ("strong", strong_seat)], luck_count, replays,
                                  bootstrap, game, common),
            "ladder": lambda: _ladder(out, strong_seat, budgets, ladder_count, game, common)}
    for part in todo:
        if announce:
            announce(f"{PART_TITLES[part]} ...")
        start = time.perf_counter()
        with warnings.catch_warnings():          # aborted deals are dropped and counted by each part instead
            warnings.simplefilter("ignore", AbortedUnits)
            runs[part]()
        meta["seconds"][part] = time.perf_counter() - start
    return out


PART_TITLES = {"relative": "relative skill", "luck": "luck share", "ladder": "skill ladder"}
LADDER_METHOD = ("each rung: compare of the strong player at budget 2B against B (duplicate deals, every seat "
                 "arrangement, paired 95% interval of the win share difference); the ladder stops at the first "
                 "rung whose interval is not above 0")


def _parts(value) -> tuple[str, ...]:
    return some_of(value, PARTS, "part of skill")


def _count(n, deals, default: int, name: str) -> int:
    value = one_count(n, deals, "deal")
    return default if value is None else whole_number(value, name, 2)


def _relative(out: SkillResult, roles: dict, field_seat, count: int, bootstrap: int, game: str, common: dict):
    from analyser.analyses.compare import compare

    values, rows_ = {}, []
    for role, policy in roles.items():
        result = compare(game, [policy, field_seat], deals=count, **common)
        frame = result.deals_frame
        values[role] = frame["win_diff"].to_numpy(float)        # NaN where the deal aborted
        win = result.summary.set_index("quantity").loc["win share difference"]
        rows_.append({"role": role, "policy": result.meta["policies"]["A"], "field": result.meta["policies"]["B"],
                      "deals": int(win["deals"]), "result": float(win["estimate"]), "ci_low": float(win["ci_low"]),
                      "ci_high": float(win["ci_high"]), "arrangements": result.meta["arrangements"]["name"]})
    out.relative = relative_skill(values["beginner"], values["strong"], values["open"], span=2.0,
                                  bootstrap=bootstrap, seed=out.meta["seed"])
    out.players = pd.DataFrame(rows_)
    out.deals_frame = pd.DataFrame({"deal": np.arange(count), **values})


def _luck(out: SkillResult, levels: list, count: int, replays: int, bootstrap: int, game: str, common: dict):
    from analyser.analyses.simulate import simulate
    from analyser.stats.effects import group_values, outcome_groups

    players = common["players"]
    frames = []
    for level, seat in levels:
        shares = []
        for r in range(replays):
            streams = [r * players + s for s in range(players)]
            result = simulate(game, policies=[seat], deals=count, streams=streams, keep_records=True, **common)
            rec = result.records
            groups = outcome_groups(result.game, players)
            win = group_values(rec, groups)[:, 0, :].T                 # deals x groups
            win[rec["aborted"].astype(bool)] = np.nan                   # the deal is dropped, and counted
            shares.append(win)
        stat = luck_share(np.stack(shares, axis=1), bootstrap=bootstrap, seed=out.meta["seed"])
        frames.append({"level": level, "policy": seat.label(), **{k: v for k, v in stat.items() if k != "method"}})
        out.meta["luck_method"] = stat["method"]
    out.luck = pd.DataFrame(frames)


def _ladder(out: SkillResult, strong_seat, budgets: list[int], count: int, game: str, common: dict):
    out.ladder = ladder(game, strong_seat, budgets, deals=count, **common)
    out.meta["ladder_method"] = LADDER_METHOD
