"""The report's verdicts: one sentence a section, from its tables, naming the effect, its
95% interval and whether it is significant among all the report's tests (FDR 5%)."""
from __future__ import annotations

import pandas as pd

from analyser.analyses.report.skill_section import skill_verdict
from analyser.io.numbers import bound, hundred, num, p_text, percent, plural
from analyser.stats.multiple import FDR


def _pp(x) -> str:
    return hundred(x, 1, sign=True)


def _bound(x) -> str:
    """An interval's bound in points: never 0 unless it is (io.numbers.bound)."""
    return bound(x, 1, True, 100)


def _pc(x) -> str:
    return percent(x, 1)


def _sig(q) -> bool:
    return q is not None and q == q and q < FDR


def _q(q) -> str:
    return f"adjusted p {p_text(q)}"


SIGNIFICANT = "significant at FDR 5%"


def seat_verdict(summary: dict, unit: str) -> str:
    """The seats verdict, worded by the tests' adjusted p-values; a rotated line-up says so first."""
    test, frame, what = summary["test"], summary["frame"], summary["what"]
    fair = summary["fair_share"]
    fm = summary["first_mover"]
    note = ""
    if summary["rotations"] > 1:
        policies = sorted({p for a in summary["arrangements"] for p in a.split(", ")})
        note = (f"The line-up was rotated over the {what}s ({summary['rotations']} arrangements on the same "
                f"{plural(unit)}), so each {what}'s share is averaged over {', '.join(policies)}: a {what}'s "
                f"effect, not a policy's. ")
    first = ""
    if fm.get("withheld"):
        first = " " + fm["withheld"]
    elif fm["first_mover_win_rate"] == fm["first_mover_win_rate"]:
        q = fm.get("advantage_p_adjusted")
        sign = ("an advantage" if fm["advantage"] > 0 else "a disadvantage") + f" ({SIGNIFICANT}, {_q(q)})" \
            if _sig(q) else f"no clear advantage ({_q(q)})"
        first = (f" The first mover has {sign}: {_pc(fm['first_mover_win_rate'])} of wins against a fair "
                 f"{_pc(fair)}, {_pp(fm['advantage'])} points [{_bound(fm['advantage_ci_low'])}, "
                 f"{_bound(fm['advantage_ci_high'])}].")
    stat = (f"{test['test'].split(' (')[0]}: chi2 = {test['statistic']:.1f}, {test['df']} df, "
            f"p {p_text(test['p_value'])}, {_q(test.get('p_adjusted'))}")
    worst = summary["worst"]
    if worst is None:
        return note + f"No completed {unit} to judge the {what}s by."
    gap = (f"{worst['group']} ({worst['policies']}) wins {_pc(worst['win_share'])} against a fair {_pc(fair)}, "
           f"{_pp(worst['excess'])} points [{_bound(worst['excess_ci_low'])}, {_bound(worst['excess_ci_high'])}]")
    if _sig(test.get("p_adjusted")):
        head = f"Unfair ({SIGNIFICANT}): the {what}s' win shares differ ({stat}). Largest gap: {gap}."
        off = frame[frame["finding"] != "fair within noise"]
        if len(off) > 1:
            head += " Outside fair: " + ", ".join(f"{r.group} {_pp(r.excess)}" for r in off.itertuples()) + "."
    else:
        head = f"No {what} is shown to be unfair ({stat}); the largest gap from the fair share: {gap}."
    return note + head + first


def players_verdict(frame: pd.DataFrame) -> str:
    parts = []
    unfair = frame[frame["p_adjusted"] < FDR]
    if unfair.empty:
        parts.append("no player count shows unequal seats at FDR 5%")
    else:
        parts.append(f"seats differ ({SIGNIFICANT}) at " + ", ".join(
            f"{int(r.players)} players ({_q(r.p_adjusted)}; {r.largest_gap_group} {_pp(r.largest_gap)} points)"
            for r in unfair.itertuples()))
    adv = frame.dropna(subset=["advantage"])
    if not adv.empty:
        texts = [f"{int(r.players)}: {_pp(r.advantage)}{'*' if _sig(r.advantage_p_adjusted) else ''} "
                 f"[{_bound(r.advantage_ci_low)}, {_bound(r.advantage_ci_high)}]" for r in adv.itertuples()]
        marked = any(_sig(q) for q in adv["advantage_p_adjusted"])
        parts.append("first-mover advantage in points by player count " + "; ".join(texts)
                     + (f" (* {SIGNIFICANT})" if marked else ""))
    rotated = frame["rotations"].max() > 1 if "rotations" in frame else False
    text = "; ".join(parts) + ("; the line-up rotated over the seats at every count" if rotated else "")
    return text[0].upper() + text[1:] + "."


def rules_verdict(frame: pd.DataFrame, groups: pd.DataFrame, skipped: dict, length: str, mixed: bool = False) -> str:
    """The rules verdict, worded by adjusted p-values. With a mixed line-up (played as given, not rotated)
    a seat's change is that of the policy in it, and the verdict says so."""
    if frame.empty:
        why = "; ".join(f"{k}: {v}" for k, v in skipped.items()) or "the game has no rule settings"
        return f"No rule setting to vary ({why})."
    rows = frame[~frame["baseline"]]
    bal, neutral, lengths, calm, same, unchanged = [], [], [], [], [], []
    for r in rows.itertuples():
        name = f"{r.setting}={r.value}"
        if r.identical:
            same.append(name)
            continue
        texts = []
        if _sig(r.first_mover_change_p_adjusted):
            texts.append(f"first mover {_pp(r.first_mover_change)} [{_bound(r.first_mover_change_ci_low)}, "
                         f"{_bound(r.first_mover_change_ci_high)}]")
        moved = groups[(groups["setting"] == r.setting) & (groups["value"] == r.value)
                       & (groups["win_diff_p_adjusted"] < FDR)] if not groups.empty else groups
        texts += [f"{g.group} {_pp(g.win_diff)} [{_bound(g.win_diff_ci_low)}, {_bound(g.win_diff_ci_high)}]"
                  for g in moved.itertuples()]
        (bal if texts else neutral).append(f"{name} ({', '.join(texts)} points)" if texts else name)
        if r.length_change == r.length_change_ci_low == r.length_change_ci_high == 0:
            unchanged.append(name)
        elif _sig(r.length_change_p_adjusted):
            lengths.append(f"{name} {num(r.length_change, 1, True)} [{bound(r.length_change_ci_low, 1, True)}, "
                           f"{bound(r.length_change_ci_high, 1, True)}]")
        elif r.length_change == r.length_change:
            calm.append(name)
    out = [f"seat balance moves ({SIGNIFICANT}) under " + "; ".join(bal) if bal else
           "no setting moves seat balance at FDR 5%"]
    if neutral and bal:
        out.append("no clear effect on seats: " + ", ".join(neutral))
    if lengths:
        out.append(f"length ({length}) changes ({SIGNIFICANT}) under " + "; ".join(lengths))
    if calm:
        out.append("no clear change in length under " + ", ".join(calm))
    if unchanged:
        out.append(f"length ({length}) is the same in every deal under " + ", ".join(unchanged))
    if same:
        out.append(", ".join(same) + " played every deal exactly as before (no effect in this configuration)")
    if mixed and bal:
        out.append("the line-up is played as given, so a seat's change is that of the policy in it")
    text = "; ".join(out)
    return text[0].upper() + text[1:] + "."


def _alike(names: set) -> str:
    """", as is X (one policy with the reference)", or nothing."""
    if not names:
        return ""
    return f", as {'is' if len(names) == 1 else 'are'} {' and '.join(sorted(names))}, one policy with it"


def policies_verdict(summary: dict) -> str:
    """Which policy to play first (the tournament's answer, from the head-to-head and the equilibrium); then
    the head to head, the ratings only as far as their fit allows, the equilibrium where given."""
    ratings, duel, fit = summary["ratings"], summary["duel"], summary.get("fit") or {}
    poor = fit.get("fits") is False
    text = ""
    if summary.get("same"):
        text += "The names " + "; ".join(f"{a} and {b} are one policy (the same function and parameters, or "
                                         f"identical play on every deal)" for a, b in summary["same"]) + ". "
    if poor:
        warning = (fit.get("warning") or (
            f"the ratings do not fit the results: misfit chi2 / df {fit.get('dispersion', float('nan')):.3g}; "
            f"the results are not transitive, so one number per policy misleads: read the head-to-head "
            f"matrix")).rstrip(".")
        text += warning[:1].upper() + warning[1:] + ". "
    if duel:
        q = duel.get("p_adjusted")
        clear = (f"{duel['best']} beats {duel['second']}" if duel["win_diff"] > 0 else
                 f"{duel['second']} beats {duel['best']}") + f" ({SIGNIFICANT})" if _sig(q) else \
            f"no clear difference between {duel['best']} and {duel['second']} ({_q(q)})"
        ahead, diff, low, high = (duel["best"], duel["win_diff"], duel["ci_low"], duel["ci_high"]) \
            if duel["win_diff"] >= 0 else (duel["second"], -duel["win_diff"], -duel["ci_high"], -duel["ci_low"])
        lone = not _sig(q) and (low > 0 or high < 0)       # excludes 0 alone, not among the report's tests
        text += (f"Head to head, {clear}: {_pp(diff)} points of win share for {ahead} [{_pp(low)}, {_pp(high)}"
                 f"{', an unadjusted interval' if lone else ''}]; ")
    best, worst, ref = ratings.iloc[0], ratings.iloc[-1], summary["model"]["reference"]
    one = {ref} | {b if a == ref else a for a, b in summary.get("same") or () if ref in (a, b)}
    others = [r for _, r in ratings.iterrows() if r["policy"] not in one]     # a rating of its own against ref
    shown = best if best["policy"] not in one else (others[0] if others else None)
    text += f"{'the ratings (not to be trusted here)' if poor else 'the ratings'} put {best['policy']} first"
    if shown is None:
        text += " (the reference, Elo 0: every policy here is one with it)"
    else:
        ahead = shown is not best
        text += ((f" (the reference, Elo 0{_alike(one - {ref})}), {shown['policy']} the runner-up" if ahead else "")
                 + f" (Elo {shown['elo']:+.0f} [{shown['elo_ci_low']:+.0f}, {shown['elo_ci_high']:+.0f}] relative "
                   f"to {ref})" + ("" if worst["policy"] == shown["policy"] else
                                   f" and {worst['policy']} last (Elo {worst['elo']:+.0f})"))
    eq = summary.get("equilibrium")
    if eq is not None and len(eq):
        mix = eq[eq["weight"] > 0.005].sort_values("weight", ascending=False)
        text += ("; the meta-game's equilibrium (a mix no policy beats on average) is "
                 + ", ".join(f"{r.policy} {_pc(r.weight)}" for r in mix.itertuples()))
    return text[0].upper() + text[1:] + "."


VERDICTS = {
    "seats": lambda r: seat_verdict(r.parts["seats"], r.meta["unit"]),
    "players": lambda r: (f"not applicable: {r.parts['players']['skipped']}." if "skipped" in r.parts["players"]
                          else players_verdict(r.parts["players"]["frame"])),
    "rules": lambda r: rules_verdict(r.parts["rules"]["frame"], r.parts["rules"]["groups"],
                                     r.parts["rules"]["skipped"], r.meta.get("length") or "length",
                                     len(set(r.meta["policies"])) > 1),
    "policies": lambda r: ("not applicable: the game has one policy." if "skipped" in r.parts["policies"]
                           else f"{r.parts['policies']['answer']} {policies_verdict(r.parts['policies'])}"
                           + _dominance(r.parts["policies"])),
    "skill": skill_verdict,
    "shape": lambda r: _shape_verdict(r),
}


def _dominance(part: dict) -> str:
    """The dominant-strategy sentence (report.shape_section), once the p-values are adjusted."""
    from analyser.analyses.report.shape_section import dominant_text

    return " " + dominant_text(part["strategy"]) if part.get("strategy") else ""


def _shape_verdict(report) -> str:
    from analyser.analyses.report.shape_section import verdict

    return verdict(report)
