"""The report's "Shape of a game" section and its "at a glance" block.

The section reads the report's own run of the line-up (the first arrangement: the line-up as given)
with analyser.analyses.shape: the distribution of unit length and the ways units end, then the
per-step estimate of each side's chance (its Brier score and reliability, so a reader can judge
it) and what it shows: lead changes, comebacks, the decisive point, drama. The equilibrium's
support and entropy and the dominant-strategy verdict (a policy that beats every other, each pair
significant among the report's tests) join the policies section once the report's p-values are
adjusted (``strategy``). ``glance_lines`` is the block every report opens with: one plain
sentence a question, each with its numbers and a link to its section.
"""
from __future__ import annotations

from analyser.analyses.report.formats import interval, md_table, num, pc, pts
from analyser.analyses.report.markup import anchor
from analyser.analyses.report.titles import TITLES
from analyser.io.numbers import missing, p_text, plural
from analyser.stats.shape import dominant, support_entropy

READ = ("The shape section's chances are an estimate's, not the truth: a conditional logit on a few counts the "
        "game declares (its kit's step_features), fitted on the report's own units and scored on others. Its "
        "Brier score against the base rate (each side's own share) says how much it knows; the reliability table "
        "says whether its 30% means 30%. Lead changes, comebacks, the decisive point and drama are read from it at "
        "evenly spaced steps, so they are as sharp as it is: a blunt estimate rarely passes 90% before the end, "
        "and puts the decisive point late. The rollout check plays the position out with every hand known, which "
        "knows more than any seat; where it scores much better, the features miss something. Length quantiles "
        "have distribution-free intervals (order statistics), each way of ending Wilson's, the measures theirs "
        "over units.")
SAMPLE_NOTE = ("the estimate is fitted on the first {sample} decided {units} of the run, each played again step "
               "by step and read at {points} evenly spaced steps, cross-fitted over two halves of them (every "
               "chance shown is out of sample)")


# ---------------------------------------------------------------------- building

def build(records, config, sample: int, points: int, check: bool) -> dict:
    from analyser.analyses.shape import shape_of_run

    part = shape_of_run(config, records, sample, points, check)
    part["sample"] = sample
    return part


def strategy(report) -> dict | None:
    """The equilibrium's support and entropy, and the dominant policy (None: none), from the policies
    section with its adjusted p-values; None without a tournament."""
    part = report.parts.get("policies")
    if not part or "skipped" in part:
        return None
    names = list(part["ratings"]["policy"])
    pairs = [(r.a, r.b, r.win_diff, r.p_adjusted) for r in part["pairs"].itertuples()]
    eq = part.get("equilibrium")
    out = {"dominant": dominant(names, pairs), "pairs": len(pairs)}
    if eq is not None and len(eq):
        out.update(support_entropy(eq["weight"], eq.get("weight_ci_low"), eq.get("weight_ci_high")))
        out["mix"] = {r.policy: float(r.weight) for r in eq.itertuples() if r.weight > 0.005}
    part["strategy"] = out
    return out


# ---------------------------------------------------------------------- words

def _one(part: dict) -> str:
    return "eventual loser" if part["orientation"] == "loser" else "eventual winner"


def verdict(report) -> str:
    m, part = report.meta, report.parts["shape"]
    text = length_text(part["length"], m)
    ends = part["ends"]
    if ends:
        top = ends[0]
        text += f"; the most common end: {top['way']}, {pc(top['share'])} {interval(top['ci_low'], top['ci_high'])}"
    est = part.get("estimate")
    if est is None:
        return text + f". No per-step estimate: {part['skipped']}."
    b, s = est["brier"], est["shape"]
    judged = "beats" if b["gain_ci_low"] > 0 else "is worse than" if b["gain_ci_high"] < 0 else \
        "does not clearly beat"
    return text + (f". The per-step estimate {judged} the base rate (Brier {num(b['brier'], 3)} against "
                   f"{num(b['base'], 3)}, skill {pc(b['skill'])}); by it the {_one(part)} "
                   + _measures(s, part) + ".")


def length_text(length: dict, m: dict) -> str:
    """How long a unit runs: its median with its interval and the 10% and 90% quantiles, or its one length."""
    q = {r["quantile"]: r for r in length["quantiles"]}
    unit = m["unit"]
    if length["min"] == length["max"]:
        return f"Every {unit} runs {num(length['min'], 0)} {m['length']}, as the rules fix it"
    return (f"A {unit} runs {num(q[0.5]['length'], 0)} {m['length']} at the median "
            f"{interval(q[0.5]['ci_low'], q[0.5]['ci_high'], lambda x: num(x, 0))} (10% of {plural(unit)} "
            f"under {num(q[0.1]['length'], 0)}, 10% over {num(q[0.9]['length'], 0)})")


def _measures(s: dict, part: dict) -> str:
    lead, back, dec = s["lead_changes"], s["comeback"], s["decisive"]
    loser = part["orientation"] == "loser"
    return (f"is settled (its chance {'to lose ' if loser else ''}stays above 90%) {pc(dec['mean'])} of the way "
            f"through {interval(dec['low'], dec['high'])}, the {'likeliest loser' if loser else 'lead'} changes "
            f"{num(lead['mean'], 1)} times {interval(lead['low'], lead['high'], lambda x: num(x, 1))}, and the "
            + ("likeliest loser at half time escapes" if loser else "half-time leader is caught")
            + f" in {pc(back['mean'])} {interval(back['low'], back['high'])}")


def text_lines(report, figures: dict) -> list[str]:
    m, part = report.meta, report.parts["shape"]
    ran = m["ran"]["shape"]
    length = part["length"]
    lines = [f"*Ran:* the report's own run ({ran['run']}): {part['units']:,} {plural(m['unit'])}, "
             f"{length['units']:,} completed; " + SAMPLE_NOTE.format(sample=part["sample"], units=plural(m["unit"]),
                                                                      points=part.get("points", "-")) + ".", "",
             f"**Verdict.** {report.verdicts['shape']}", "",
             f"Length ({m['length']}), completed {plural(m['unit'])}: mean {num(length['mean'], 1)} "
             f"{interval(length['mean_ci_low'], length['mean_ci_high'], lambda x: num(x, 1))}, "
             f"shortest {num(length['min'], 0)}, longest {num(length['max'], 0)}:", "",
             md_table(["quantile", "length", "95% interval"],
                      [[f"{100 * r['quantile']:.0f}%", num(r["length"], 0),
                        interval(r["ci_low"], r["ci_high"], lambda x: num(x, 0))] for r in length["quantiles"]]), "",
             "How they end:", "",
             md_table(["way", plural(m["unit"]), "share", "95% interval"],
                      [[e["way"], f"{e['units']:,}", pc(e["share"]), interval(e["ci_low"], e["ci_high"])]
                       for e in part["ends"]]), ""]
    lines += _figure(figures, "length", "distribution of length")
    est = part.get("estimate")
    if est is None:
        return lines + ["", f"*No per-step estimate:* {part['skipped']}."]
    b, s = est["brier"], est["shape"]
    lines += ["", f"**The per-step estimate.** Each {'team' if m['teams'] else 'seat'}'s chance to be the "
                  f"{_one(part).split()[1]} at a step: a conditional logit on what the game declares "
                  f"({', '.join(est['features'])}, and those times the {m['unit']}'s progress), fitted on simulated "
                  f"outcomes. Brier score (lower is better; the squared errors summed over the "
                  f"{'teams' if m['teams'] else 'seats'}, each {m['unit']}'s mean over its steps):", "",
              md_table(["estimate", "Brier score", "gain over the base rate", "95% interval", "skill"],
                       [["this evaluator", num(b["brier"], 4), num(b["gain"], 4, True),
                         interval(b["gain_ci_low"], b["gain_ci_high"], lambda x: num(x, 4, True)), pc(b["skill"])],
                        ["base rate (each side's share)", num(b["base"], 4), "", "", ""]]), "",
              "Reliability (every side at every step read: the chance predicted against how often it came true; "
              "the steps of one unit are not independent, so these intervals are a guide, too narrow):", "",
              md_table(["predicted", "predictions", "mean predicted", "came true", "95% interval"],
                       [[r["bin"], f"{r['predictions']:,}", pc(r["predicted"]), pc(r["observed"]),
                         interval(r["ci_low"], r["ci_high"])] for r in est["reliability"]]), ""]
    lines += _figure(figures, "reliability", "reliability of the per-step estimate")
    lines += check_lines(part.get("check"), m["unit"])
    one = _one(part)
    lines += ["", f"What the estimate shows, over the {s['units']:,} {plural(m['unit'])} with one {one} "
                  f"(of {est['sampled']:,} sampled):", "",
              md_table(["measure", "mean", "95% interval", "what it is"], [
                  ["lead changes", num(s["lead_changes"]["mean"], 2),
                   interval(s["lead_changes"]["low"], s["lead_changes"]["high"], lambda x: num(x, 2)),
                   "times the likeliest loser changes" if part["orientation"] == "loser" else
                   "times the side with the highest chance changes"],
                  ["comeback rate", pc(s["comeback"]["mean"]), interval(s["comeback"]["low"], s["comeback"]["high"]),
                   f"the half-time leader is not the {one} ({s['comeback']['n']:,} with a leader at half time)"],
                  ["decisive point", pc(s["decisive"]["mean"]), interval(s["decisive"]["low"], s["decisive"]["high"]),
                   f"share of the {m['unit']} after which the {one}'s chance stays above 90%"],
                  ["drama", num(s["drama"]["mean"], 3), interval(s["drama"]["low"], s["drama"]["high"],
                                                                  lambda x: num(x, 3)),
                   f"mean shortfall of the {one}'s chance below the leader's"]], {1, 2}), ""]
    return lines


def check_lines(c: dict | None, unit: str) -> list[str]:
    """The estimate against rollouts (analyses.shape_check), where the report made the check."""
    if not c:
        return []
    return ["", f"Checked against rollouts on {c['units']} other {plural(unit)} ({c['steps']} steps, {c['worlds']} "
                f"play-outs each: the line-up playing on, the cards no seat sees shuffled, every hand known, so "
                f"the rollouts know more than a seat): Brier {num(c['brier_rollout'], 4)} for the rollouts against "
                f"{num(c['brier_cheap'], 4)} for this estimate there, {num(c['gain'], 4, True)} "
                f"{interval(c['gain_ci_low'], c['gain_ci_high'], lambda x: num(x, 4, True))} in the rollouts' "
                f"favour; the two differ by {pc(c['mean_abs_difference'])} of chance per side and step on average."]


def _figure(figures: dict, name: str, alt: str) -> list[str]:
    return ["", f"![{alt}]({figures[name]})"] if name in figures else []


def strategy_lines(part: dict) -> list[str]:
    """The equilibrium's support and entropy and the dominant-strategy verdict, under the policies section."""
    s = part.get("strategy")
    if not s:
        return []
    out = []
    if "support" in s:
        span = "" if "support_low" not in s else \
            f" (between {s['support_low']} and {s['support_high']} by the weights' intervals)"
        out.append(f"Equilibrium: {s['support']} of {s['policies']} policies in the mix{span}; entropy "
                   f"{num(s['entropy_bits'], 2)} bits, {pc(s['entropy_share'], 0)} of the most a mix of "
                   f"{s['policies']} can have.")
    out.append(dominant_text(s) + "")
    return out + [""]


def dominant_text(s: dict) -> str:
    if s["dominant"]:
        return (f"Dominant strategy: {s['dominant']} beats every other policy head to head, each pair significant "
                f"at FDR 5% among the report's tests.")
    return "No dominant strategy: no policy beats every other head to head at FDR 5% among the report's tests."


# ---------------------------------------------------------------------- at a glance

def _link(report, key: str) -> str:
    """A link to section ``key`` by its numbered heading (template.body_lines numbers them in order)."""
    title = TITLES.get(key, key.capitalize())
    index = report.meta["sections"].index(key) + 1
    return f"[{title.lower()}](#{anchor(f'{index}. {title}')})"


def skill_numbers(report) -> dict | None:
    """The "Skill and luck" section's relative skill RS with its interval (its SkillResult's ``relative``:
    rs, ci_low, ci_high), when the report has the section and it ran; None otherwise."""
    part = report.parts.get("skill")
    if part is None or "skipped" in part:
        return None
    relative = part["result"].relative
    if relative is None or missing(relative.get("rs")):
        return None
    return {"mean": relative["rs"], "low": relative.get("ci_low"), "high": relative.get("ci_high")}


def _first_mover(seats: dict, report) -> str:
    """The first mover's advantage, when it is significant at FDR 5% (a verdict of its own: a seat
    test can pass while moving first costs or gains)."""
    f = seats.get("first_mover") or {}
    q = f.get("advantage_p_adjusted")
    if q is None or not q == q or q >= 0.05:
        return ""
    word = "an advantage" if f["advantage"] > 0 else "a disadvantage"
    return (f"; the first mover has {word} of {pts(f['advantage'])} points "
            f"{interval(f['advantage_ci_low'], f['advantage_ci_high'], pts)} (adjusted p {p_text(q)})")


def glance_lines(report) -> list[str]:
    """Five or six plain sentences, each with its numbers and a link to its section."""
    p, m = report.parts, report.meta
    out = []
    if "seats" in p:
        s = p["seats"]
        worst, q = s["worst"] or {}, s["test"].get("p_adjusted")
        unfair = q is not None and q == q and q < 0.05
        out.append(f"{'Not fair' if unfair else 'Fair within noise'}: the {s['what']} furthest from the fair share, "
                   f"{worst.get('group', '-')}, wins {pc(worst.get('win_share'))} against a fair "
                   f"{pc(s['fair_share'])}, {pts(worst.get('excess'))} points "
                   f"{interval(worst.get('excess_ci_low'), worst.get('excess_ci_high'), pts)} "
                   f"(adjusted p {p_text(q)}; {_link(report, 'seats')})" + _first_mover(s, report) + ".")
    rs = skill_numbers(report)
    if rs is not None:
        out.append(f"Skill matters this much: relative skill {num(rs['mean'], 2)} "
                   f"{interval(rs['low'], rs['high'], lambda x: num(x, 2))} on a scale from 0 (all luck) to 1 (all "
                   f"skill) ({_link(report, 'skill')}).")
    if "shape" in p:
        part = p["shape"]
        out.append(f"{length_text(part['length'], m)} ({_link(report, 'shape')}).")
        if part["ends"]:
            top = part["ends"][0]
            out.append(f"The most common end is {top['way']}: {pc(top['share'])} "
                       f"{interval(top['ci_low'], top['ci_high'])} ({_link(report, 'shape')}).")
        est = part.get("estimate")
        if est is not None:
            out.append(f"How it is decided: the {_one(part)} " + _measures(est["shape"], part)
                       + f" ({_link(report, 'shape')}).")
    if "policies" in p and "skipped" not in p["policies"]:
        pol = p["policies"]
        s = pol.get("strategy") or {}
        if s.get("dominant"):
            beat = f"the strategy to beat is {s['dominant']}: it dominates, beating every other policy head to head " \
                   f"(FDR 5%)"
        elif len(s.get("mix") or ()) == 1:
            beat = f"the strategy to beat is {next(iter(s['mix']))}, the equilibrium's one policy (it dominates " \
                   f"no other at FDR 5%)"
        elif s.get("mix"):
            beat = "the strategy to beat is the equilibrium mix " + ", ".join(
                f"{k} {pc(v, 0)}" for k, v in sorted(s["mix"].items(), key=lambda kv: -kv[1]))
        else:
            beat = f"the strategy to beat is {pol['best']}, first in the ratings"
        out.append(f"{beat[0].upper()}{beat[1:]} ({_link(report, 'policies')}).")
    return [f"- {line}" for line in out]


# ---------------------------------------------------------------------- JSON

def to_json(part: dict) -> dict:
    est = part.get("estimate")
    out = {k: part[k] for k in ("length", "ends", "units", "orientation", "sample") if k in part}
    for key in ("skipped", "check"):
        if part.get(key) is not None:
            out[key] = part[key]
    if est is not None:
        out["estimate"] = {"brier": est["brier"], "reliability": est["reliability"], "features": est["features"],
                           "sides": est["sides"], "sampled": est["sampled"], "followed": est["followed"],
                           "points": part.get("points"),
                           "shape": {k: v for k, v in est["shape"].items() if k != "per_unit"}}
    return out
