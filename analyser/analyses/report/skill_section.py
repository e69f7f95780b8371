"""The report's "Skill and luck" section: ``analyser skill`` at a report's size, and its verdict.

A search player plays every legal action out in every world at each decision, so this section is the
report's dearest per deal (the template's _skill_text says what it ran and what it took). It plays the
strong player at REPORT_STRONG (4 worlds) on ``skill_deals`` deals (default DEFAULT_SKILL_DEALS), the
luck share with REPORT_REPLAYS replays (fewer when the seats leave fewer streams) and the ladder's first
rungs only (REPORT_BUDGETS), and in a game played in hands or rounds on single ones from fresh deals
(a search player would take minutes on whole matches). Its figures are descriptive, each with its own
95% interval, and are not among the tests of the report's false-discovery family (RS and the luck
share are not tests; the ladder's rungs stop at the first that is not significant, a rule of their
own). The measures are about the game, not the report's line-up: they are read against the game's
best heuristic (GameSpec.field).
"""
from __future__ import annotations

from analyser.analyses.skill import luck_text
from analyser.analyses.skill_ladder import climbed

DEFAULT_SKILL_DEALS = 100
REPORT_STRONG = "pimc:worlds=4"
REPORT_REPLAYS = 4
REPORT_BUDGETS = (1, 2, 4)


def build_skill(report, ctx: dict) -> None:
    """Run the section (the builder's BUILDERS entry)."""
    from analyser.analyses.skill import skill
    from analyser.kernels.rng import MAX_POLICY_STREAMS

    config = ctx["config"]
    if not any(p.search and p.cheats for p in config.game.policies):
        why = f"{config.game.title} has no search player with an open-cards variant to measure skill with"
        report.parts["skill"] = {"skipped": why}
        report.meta["ran"]["skill"] = {"runs": 0, "skipped": why}
        return
    deals = ctx.get("skill_deals") or DEFAULT_SKILL_DEALS
    unit = config.game.sub_unit if config.game.single else None       # a search player is slow on whole matches
    result = skill(config.game.name, players=config.players, strong=REPORT_STRONG, deals=deals, seed=ctx["seed"],
                   rules=_unit_rules(ctx["rules"], config.game, unit), unit=unit,
                   replays=min(REPORT_REPLAYS, MAX_POLICY_STREAMS // config.players),
                   budgets=REPORT_BUDGETS, threads=ctx["threads"], progress=ctx["progress"], **ctx["where"])
    report.parts["skill"] = {"result": result}
    m = result.meta
    report.meta["ran"]["skill"] = {"strong": m["policies"]["strong"], "open": m["policies"]["open"],
                                   "field": m["policies"]["field"], "beginner": m["policies"]["beginner"],
                                   "deals": deals, "unit": m["unit"], "replays": m["replays"], "budgets": m["budgets"],
                                   "players": config.players, "seconds_by_part": m["seconds"]}


def _unit_rules(rules: dict | None, game, unit: str | None) -> dict | None:
    """The report's rules without the settings a single sub-unit fixes (a match's length)."""
    if unit is None or not rules:
        return rules
    return {k: v for k, v in rules.items() if k not in game.single}


def skill_verdict(report) -> str:
    """One sentence: how much skill matters (RS), how much the deal decides (luck share), how deep it goes."""
    if "skipped" in report.parts["skill"]:
        return f"not applicable: {report.parts['skill']['skipped']}."
    result = report.parts["skill"]["result"]
    r = result.relative
    if r["rs"] != r["rs"]:
        head = "Relative skill cannot be told on these deals (the learning and random effects add to 0 or less)"
    else:
        ci = f" [{r['ci_low']:.2f}, {r['ci_high']:.2f}]" if r["bounded"] else " (no interval: LE + RE may be 0)"
        how = "mostly skill" if r["rs"] > 2 / 3 else "mostly luck" if r["rs"] < 1 / 3 else "skill and luck alike"
        head = f"Relative skill RS = {r['rs']:.2f}{ci} ({how}: 0 is pure chance, 1 no chance)"
    return f"{head}; {luck_text(result.luck)}; skill ladder: {climbed(result.ladder)}."
