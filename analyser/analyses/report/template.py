"""The report's words and tables: Markdown for the file, HTML for a notebook, a dict for JSON
(analyser.analyses.report.html renders the Markdown's sections as one HTML page).

The template is plain Python string building: a Markdown table is a few
lines, and no template engine is a dependency. Every number printed is a
column of the report's tables, so the Markdown, the JSON and the figures say
the same thing.
"""
from __future__ import annotations

import html

import pandas as pd

from analyser.analyses.report.formats import bare, interval, md_table, num, pc, pts
from analyser.analyses.report.titles import TITLES
from analyser.errors import counted
from analyser.games.registry import length_text
from analyser.io.jsonable import jsonable_tree
from analyser.io.numbers import missing, p_text, plural

INTERVALS = ("Intervals are 95% (analyser.stats.intervals). A win share's interval is Wilson's when every value "
             "is 0 or 1 (a win or not), else Wilson's at the effective sample size of a mean within [0, 1] "
             "(shared wins, team games, shares averaged over rotations), its variance floored (s^2 + 1/n), "
             "so a run that happens to be constant (all wins after 300 matches) still gets an honest, non-zero "
             "interval. A difference gets Tango's score interval on the deals where it is not 0, so a rare "
             "difference is neither missed nor padded. An excess over the fair share is that interval shifted by "
             "the fair share (the deal's win "
             "total over the seats: exact without draws). Units that hit the action cap are aborted and left out "
             "of every share, and counted.")
PAIRED = ("A rule value's change is paired by deal: every value plays the same deals (the same seed) with the "
          "same seats, policies and random streams, and the interval is that of the mean per-deal difference "
          "(Tango's score interval on the deals where it is not 0: within [-1, 1] for shares, the lengths' "
          "range for length); a difference that is exactly 0 on every deal was played identically on these "
          "deals and keeps an interval for the deals not seen (about ±3.84/n of the range), never [0, 0]. "
          "The per-seat changes are `vary`'s table.")
ROTATION = ("A line-up of different policies is rotated over the seats: every rotation (teams as teams) is "
            "played on the same deals, each policy keeping its own random stream, and a seat's share is averaged "
            "over the rotations, so every seat holds every policy equally often. Without it a seat's share would "
            "be its policy's; rotating (rather than refusing a seat verdict for a mixed line-up) keeps the seat "
            "question answerable: a seat effect common to all policies is what remains.")


# ---------------------------------------------------------------------- tables as rows

def seat_rows(frame: pd.DataFrame) -> tuple[list[str], list[list]]:
    headers = ["seat" if frame["group"].iloc[0].startswith("seat") else "team", "policy", "win share", "95% interval",
               "fair share", "excess (points)", "95% interval", "finding"]
    rows = [[r.group, r.policies, pc(r.win_share), interval(r.ci_low, r.ci_high), pc(r.fair_share),
             pts(r.excess), interval(r.excess_ci_low, r.excess_ci_high, pts), r.finding] for r in frame.itertuples()]
    return headers, rows


def player_rows(frame: pd.DataFrame) -> tuple[list[str], list[list]]:
    headers = ["players", "fair share", "first mover wins", "advantage (points)", "95% interval", "adj. p",
               "Balance", "95% interval", "chi2 (df)", "p", "adj. p", "largest gap (points)", "95% interval",
               "mean length"]
    rows = [[int(r.players), pc(r.fair_share), pc(r.first_mover_win_share), pts(r.advantage),
             interval(r.advantage_ci_low, r.advantage_ci_high, pts), bare(r.advantage_p_adjusted), num(r.balance, 3),
             interval(r.balance_ci_low, r.balance_ci_high, lambda x: num(x, 3)), f"{num(r.chi2)} ({r.df})",
             bare(r.p_value), bare(r.p_adjusted), f"{r.largest_gap_group} {pts(r.largest_gap)}",
             interval(r.largest_gap_ci_low, r.largest_gap_ci_high, pts), num(r.length_mean)]
            for r in frame.itertuples()]
    return headers, rows


def rule_rows(frame: pd.DataFrame, what: str) -> tuple[list[str], list[list]]:
    headers = ["setting", "value", "first mover wins", "change (points)", "95% interval", "adj. p",
               f"{what} moved most", "change (points)", "95% interval", "adj. p", "mean length", "change",
               "95% interval", "adj. p", "Balance"]
    rows = []
    for r in frame.itertuples():
        base = bool(r.baseline)
        value = f"{r.value} (this report)" if base else r.value
        rows.append([r.setting, value, pc(r.first_mover_win_share),
                     "" if base else pts(r.first_mover_change),
                     "" if base else interval(r.first_mover_change_ci_low, r.first_mover_change_ci_high, pts),
                     "" if base else bare(r.first_mover_change_p_adjusted),
                     "" if base else (r.largest_group_change_group or "-"),
                     "" if base else pts(r.largest_group_change),
                     "" if base else interval(r.largest_group_change_ci_low, r.largest_group_change_ci_high, pts),
                     "" if base else bare(r.largest_group_change_p_adjusted),
                     num(r.length_mean), "" if base else num(r.length_change, 1, True),
                     "" if base else interval(r.length_change_ci_low, r.length_change_ci_high,
                                              lambda x: num(x, 1, True)),
                     "" if base else bare(r.length_change_p_adjusted), num(r.balance, 3)])
    return headers, rows


def rating_rows(ratings: pd.DataFrame, reference: str | None = None) -> tuple[list[str], list[list]]:
    """The ratings table; the reference is 0 by definition, so its row says so instead of an interval."""
    headers = ["rank", "policy", "rating", "95% interval", "Elo", "95% interval"]
    rows = []
    for r in ratings.itertuples():
        ref = r.policy == reference
        rows.append([int(r.rank), r.policy, "0 (reference)" if ref else num(r.rating, 3, True),
                     "-" if ref else interval(r.ci_low, r.ci_high, lambda x: num(x, 3, True)),
                     "0 (reference)" if ref else num(r.elo, 0, True),
                     "-" if ref else interval(r.elo_ci_low, r.elo_ci_high, lambda x: num(x, 0, True))])
    return headers, rows


def matrix_rows(matrix: pd.DataFrame, low: pd.DataFrame, high: pd.DataFrame) -> tuple[list[str], list[list]]:
    names = list(matrix.columns)
    rows = []
    for a in matrix.index:
        cells = [a]
        for b in names:
            v = matrix.loc[a, b]
            cells.append("" if missing(v) else f"{pc(v)} {interval(low.loc[a, b], high.loc[a, b])}")
        rows.append(cells)
    return ["policy \\ against"] + names, rows


# ---------------------------------------------------------------------- Markdown

def _units(meta: dict, n: int) -> str:
    return f"{counted(n, meta['unit'])}"


def _head(report) -> list[str]:
    m = report.meta
    v = m["versions"]
    settings = ", ".join(f"{k}={val}" for k, val in m["settings"].items())
    made = ", ".join(f"{k} {val}" for k, val in v.items() if k != "analyser")
    took = f" in {m['seconds']:,.0f} s" if m.get("seconds") else ""
    lines = [f"# Balance report: {m['title']}", "",
             f"**Line-up:** {m['lineup_text']} · **players:** {m['players']} · "
             f"**{plural(m['unit'])} per run:** {m['deals']:,} · **seed:** {m['seed']}  ",
             f"**Settings:** {settings}  ",
             f"**A win is:** {m['outcome']}.  ",
             f"Generated {m['generated']}{took} by analyser {v['analyser']} ({made})."]
    if m.get("command"):
        lines += ["", "```sh", m["command"], "```"]
    return lines


def render_markdown(report, figures: dict[str, str]) -> str:
    return "\n".join(_head(report) + glance_block(report) + ["", "## Verdicts", ""] + verdict_lines(report)
                     + body_lines(report, figures))


def glance_block(report) -> list[str]:
    """The "At a glance" heading and its sentences (report.shape_section), first after the head."""
    from analyser.analyses.report.shape_section import glance_lines

    lines = glance_lines(report)
    return ["", "## At a glance", ""] + lines if lines else []


def verdict_lines(report) -> list[str]:
    """The verdicts as a Markdown list, the tests line last."""
    out = [f"- **{TITLES[key]}:** {text}" for key, text in report.verdicts.items()]
    return out + [f"- **Tests:** {tests_line(report.meta)}"]


def body_lines(report, figures: dict[str, str]) -> list[str]:
    """Every section after the verdicts, then How to read it: the Markdown the HTML page renders too."""
    m = report.meta
    out = []
    for index, key in enumerate(m["sections"], 1):
        out += ["", f"## {index}. {TITLES[key]}", ""]
        out += SECTION_TEXT[key](report, figures)
    rotated = len(set(m["policies"])) > 1 and any(k in m["ran"] for k in ("seats", "players"))
    out += ["", "## How to read it", "", INTERVALS, "", PAIRED, ""] + ([ROTATION, ""] if rotated else []) + \
        _shape_read(m) + [m["tests"]["method"], ""]
    return out


def tests_line(meta: dict) -> str:
    """The one line that says how many tests the report made and how many are significant."""
    t = meta["tests"]
    none = t.get("no_difference", t.get("exact_ties"))       # a report written before the key's rename
    ties = f", {none} of them on differences that were 0 on every deal (p = 1)" if none else ""
    return (f"this report made {counted(t['made'], 'test')}{ties}; {t['significant']} significant at a false "
            f"discovery rate of {100 * t['fdr']:.0f}% (Benjamini-Hochberg adjusted p below {t['fdr']:g}).")


def _figure(figures: dict, name: str, alt: str) -> list[str]:
    return ["", f"![{alt}]({figures[name]})"] if name in figures else []


def _seats_text(report, figures) -> list[str]:
    m, part = report.meta, report.parts["seats"]
    ran = m["ran"]["seats"]
    test, fm, bal = part["test"], part["first_mover"], part["balance"]
    headers, rows = seat_rows(part["frame"])
    runs = ran.get("arrangements") or [m["lineup_text"]]
    how = f"one run of {_units(m, ran['deals'])}" if len(runs) == 1 else \
        (f"{len(runs)} runs of the same {_units(m, ran['deals'])}, the line-up rotated over the seats ("
         + "; ".join(runs) + "; see How to read it)")
    lines = [f"*Ran:* {how} at {m['players']} players, {m['lineup_text']}, seed {m['seed']}, the settings above; "
             f"{part['completed']:,} completed, {part['aborted']:,} aborted (in any run).",
             "",
             f"**Verdict.** {report.verdicts['seats']}", "", md_table(headers, rows, set(range(2, 7))), ""]
    if fm.get("withheld"):
        lines.append(f"- First mover: {fm['withheld']}")
    elif not missing(fm["first_mover_win_rate"]):
        lines.append(f"- First mover (whoever moved first in a {m['unit']}): wins {pc(fm['first_mover_win_rate'])} "
                     f"{interval(fm['first_mover_win_ci_low'], fm['first_mover_win_ci_high'])}; advantage over the "
                     f"fair share {pts(fm['advantage'])} points "
                     f"{interval(fm['advantage_ci_low'], fm['advantage_ci_high'], pts)} "
                     f"({counted(fm['first_mover_units'], m['unit'])}; adjusted p "
                     f"{p_text(fm.get('advantage_p_adjusted'))}).")
    else:
        lines.append("- First mover: this game's record does not say who moved first.")
    lines.append(f"- Balance (Ludii: 1 minus the largest gap between seats): {num(bal['balance'], 3)} "
                 f"{interval(bal['balance_ci_low'], bal['balance_ci_high'], lambda x: num(x, 3))} "
                 f"(conservative simultaneous interval).")
    lines.append(f"- Test across {part['what']}s: {test['test']}: chi2 = {num(test['statistic'], 2)}, "
                 f"{test['df']} df, p {p_text(test['p_value'])}, adjusted p {p_text(test.get('p_adjusted'))}. "
                 f"{ran['test_method']}")
    return lines + _figure(figures, "seats", "win share per seat against the fair share")


def _players_text(report, figures) -> list[str]:
    m, part = report.meta, report.parts["players"]
    if "skipped" in part:
        return [f"*Skipped:* {part['skipped']}."]
    ran = m["ran"]["players"]
    headers, rows = player_rows(part["frame"])
    counts = ", ".join(map(str, ran["counts"]))
    runs = sum(len(v) for v in (ran.get("arrangements") or {}).values())
    lines = [f"*Ran:* {runs} runs of {_units(m, ran['deals'])} over {counts} players, {ran['policy']} ({ran['why']}), "
             f"seed {m['seed']}, the settings above.", "",
             f"**Verdict.** {report.verdicts['players']}", "", md_table(headers, rows), "",
             "Advantage: the first mover's win share minus the fair share. chi2 and p: the test across seats "
             "(as in section 1); adj. p: Benjamini-Hochberg over the report's tests. Largest gap: the seat "
             "furthest from the fair share, with its interval."]
    lines += _figure(figures, "players", "seat excess over the fair share by player count")
    seats = part["seats"]
    lines += ["", "<details><summary>Every seat at every player count</summary>", ""]
    h, r = seat_rows(seats)
    lines.append(md_table(["players"] + h, [[int(p)] + row for p, row in zip(seats["players"], r, strict=True)]))
    lines += ["", "</details>"]
    return lines


def _rules_text(report, figures) -> list[str]:
    m, part = report.meta, report.parts["rules"]
    ran = m["ran"]["rules"]
    skipped = "; ".join(f"`{k}` ({v})" for k, v in part["skipped"].items())
    if part["frame"].empty:
        return [f"*Skipped:* no setting to vary{': ' + skipped if skipped else ''}."]
    varied = "; ".join(f"`{k}` = {' / '.join(map(str, v))}" for k, v in ran["varied"].items())
    what = "team" if m["teams"] else "seat"
    headers, rows = rule_rows(part["frame"], what)
    lines = [f"*Ran:* {varied}: {ran['runs']} more run{'s' if ran['runs'] != 1 else ''} of "
             f"{_units(m, ran['deals'])} at {m['players']} players, {m['lineup_text']}, seed {m['seed']}, the other "
             f"settings as above, each on the same deals as the report's own run (the first value of each "
             f"setting). "
             + (f"Not varied: {skipped}." if skipped else ""), "",
             f"**Verdict.** {report.verdicts['rules']}", "", md_table(headers, rows, set(range(2, 15))), "",
             f"Changes are from the first value, paired by deal. \"{what.capitalize()} moved most\": the {what} "
             f"whose win share changed most (vary's paired change). adj. p: Benjamini-Hochberg over the report's "
             f"tests. Length counts {length_text(report.meta['game'])}."]
    lines += _figure(figures, "rules", "effect of each rule setting on the first mover and on length")
    groups = part["groups"]
    if not groups.empty:
        rows = [[r.setting, r.value, r.group, r.policies, pc(r.win_mean), interval(r.win_ci_low, r.win_ci_high),
                 "" if missing(r.win_diff) else pts(r.win_diff),
                 "" if missing(r.win_diff) else interval(r.win_diff_ci_low, r.win_diff_ci_high, pts),
                 "" if missing(r.win_diff) else bare(r.win_diff_p_adjusted)]
                for r in groups.itertuples()]
        lines += ["", f"<details><summary>Every {what} under every value (vary's table)</summary>", "",
                  md_table(["setting", "value", what, "policy", "win share", "95% interval", "change (points)",
                            "95% interval", "adj. p"], rows, {4, 5, 6, 7, 8}), "", "</details>"]
    return lines


def _policies_text(report, figures) -> list[str]:
    m, part = report.meta, report.parts["policies"]
    if "skipped" in part:
        return [f"*Skipped:* {part['skipped']}."]
    ran = m["ran"]["policies"]
    headers, rows = rating_rows(part["ratings"], part["model"].get("reference"))
    mh, mr = matrix_rows(part["matrix"], part["ci_low"], part["ci_high"])
    meta = part["meta"]
    fit = part.get("fit") or {}
    warning = fit.get("warning") or ("the ratings do NOT fit the results (not transitive): they are a transitive "
                                     "summary only, and the head-to-head matrix above is the result to read")
    fit_line = "" if not fit else (
        f"Fit: {fit.get('model', 'the model')}, misfit chi2 / df {num(fit.get('dispersion'), 3)}: the ratings "
        "describe the results." if fit.get("fits") else f"Fit: {warning[:1].upper()}{warning[1:]}.")
    lines = [f"*Ran:* a tournament of {', '.join(ran['policies'])} at {ran['players']} players: every pair on the "
             f"same {_units(m, ran['deals_per_pair'])}, each deal in every seat arrangement "
             f"({ran['arrangements']}), seed {m['seed']}, the settings above; {ran['plays']:,} plays.", "",
             f"**Verdict.** {report.verdicts['policies']}", "",
             f"Head to head: {meta['cell']} (fair share {pc(meta['fair_share'])}):", "", md_table(mh, mr), "",
             *_pair_lines(part), f"Ratings ({ran['model']}; Elo = 400 / ln 10 x rating):", "",
             md_table(headers, rows, {2, 3, 4, 5}), ""] + ([fit_line, ""] if fit_line else []) + \
        _equilibrium_lines(part.get("equilibrium")) + _strategy_lines(part) + [f"Method: {meta['method']}"]
    lines += _figure(figures, "head_to_head", "head-to-head matrix")      # the result to read, before the ratings
    lines += _figure(figures, "policies", "policy ratings with intervals")
    return lines


def _pair_lines(part: dict) -> list[str]:
    """Each pair's paired difference with its p-values, a table under the matrix."""
    rows = [[f"{r.a} - {r.b}", pts(r.win_diff), interval(r.ci_low, r.ci_high, pts), bare(r.p_value),
             bare(r.p_adjusted)] for r in part["pairs"].itertuples()]
    same = "".join(f" {a} and {b} are one policy (the same function and parameters)."
                   for a, b in part.get("same") or [])
    return ["Pairs: win share difference (points), paired by deal:" + same, "",
            md_table(["pair", "difference", "95% interval", "p", "adj. p"], rows), ""]


def _equilibrium_lines(eq) -> list[str]:
    """The meta-game's equilibrium (Nash averaging over the head-to-head matrix), where the tournament gives it."""
    if eq is None or not len(eq):
        return []
    rows = [[r.policy, pc(r.weight), interval(r.weight_ci_low, r.weight_ci_high), pts(r.value),
             interval(r.value_ci_low, r.value_ci_high, pts)] for r in eq.itertuples()]
    return ["Equilibrium of the meta-game (a mix of policies no policy beats on average; it assumes no "
            "transitivity): each policy's weight in it and its value against it (points of win share):", "",
            md_table(["policy", "weight", "95% interval", "value", "95% interval"], rows), ""]


def _strategy_lines(part: dict) -> list[str]:
    from analyser.analyses.report.shape_section import strategy_lines

    return strategy_lines(part)


def _shape_read(meta: dict) -> list[str]:
    from analyser.analyses.report.shape_section import READ

    return [READ, ""] if "shape" in meta["ran"] else []


def _shape_text(report, figures) -> list[str]:
    from analyser.analyses.report.shape_section import text_lines

    return text_lines(report, figures)


def _skill_text(report, figures) -> list[str]:
    """Skill and luck (analyses.report.skill_section runs it): what ran and took, the verdict, the three tables."""
    if "skipped" in report.parts["skill"]:
        return [f"*Skipped:* {report.parts['skill']['skipped']}."]
    m, ran = report.meta, report.meta["ran"]["skill"]
    result = report.parts["skill"]["result"]
    r, sm = result.relative, result.meta
    took = ", ".join(f"{k} {v:,.0f} s" for k, v in ran["seconds_by_part"].items())
    unit = ran.get("unit", m["unit"])
    units = plural(unit)
    single = "" if unit == m["unit"] else (f" (single {units} from fresh deals, not whole {plural(m['unit'])}: a "
                                           f"search player is slow on these)")
    lines = [f"*Ran:* `analyser skill` at report size{single}: the strong player {ran['strong']}, its open-cards "
             f"variant {ran['open']}, the beginner {ran['beginner']}, each against {ran['field']} (the game's best "
             f"heuristic) on the same {ran['deals']:,} {units} in every seat arrangement, at {ran['players']} "
             f"players, seed {m['seed']}; the luck share from {ran['deals']:,} {units} x {ran['replays']} replays; "
             f"the ladder from {ran['budgets'][0]} to {2 * ran['budgets'][-1]} worlds at most. It took {took} "
             f"(a search player is the report's dearest part per {unit}; `analyser skill` plays larger budgets and "
             f"more {units}).", "",
             f"**Verdict.** {report.verdicts['skill']}", ""]
    rows = [[x.role, x.policy, pts(x.result), interval(x.ci_low, x.ci_high, pts)] for x in result.players.itertuples()]
    lines += [f"Against the field ({sm['result']}; points):", "",
              md_table(["player", "policy", "result", "95% interval"], rows, {2, 3}), "",
              f"- Learning effect LE (strong - beginner) {pts(r['le'])} points "
              f"{interval(r['le_ci_low'], r['le_ci_high'], pts)}; random effect RE (open - strong) {pts(r['re'])} "
              f"{interval(r['re_ci_low'], r['re_ci_high'], pts)}; RS = LE / (LE + RE).", ""]
    rows = [[x.level, x.policy, f"{x.deals:,} x {x.replays}", pc(x.luck_share), interval(x.ci_low, x.ci_high),
             "yes" if x.identical else "no"] for x in result.luck.itertuples()]
    lines += ["Luck share (the deal's part of a seat's win variance):", "",
              md_table(["level", "in every seat", f"{units} x replays", "luck share", "95% interval",
                        "every replay alike"], rows, {2, 3, 4}), ""]
    rows = [[f"{x.a} - {x.b}", f"{x.deals:,}", pts(x.estimate), interval(x.ci_low, x.ci_high, pts),
             "yes" if x.significant else "no"] for x in result.ladder.itertuples()]
    lines += ["Skill ladder (2B against B, until a rung is not significant):", "",
              md_table(["rung", units, "difference (points)", "95% interval", "significant"], rows, {1, 2, 3}), "",
              f"- Relative skill: {r['method']}", f"- {sm['luck_method']}", f"- Ladder: {sm['ladder_method']}.", "",
              "These figures are descriptive, each with its own interval: they are not among the report's tests."]
    return lines


SECTION_TEXT = {"seats": _seats_text, "players": _players_text, "rules": _rules_text, "policies": _policies_text,
                "skill": _skill_text, "shape": _shape_text}


# ---------------------------------------------------------------------- HTML (notebooks)

def render_html(report) -> str:
    m = report.meta
    settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
    parts = [f"<h3>Balance report: {html.escape(m['title'])}</h3>",
             f"<p>{html.escape(m['lineup_text'])}; {m['players']} players; {counted(m['deals'], m['unit'])} per "
             f"run; seed {m['seed']}; {html.escape(settings)}</p><ul>"]
    glance = glance_block(report)
    if glance:
        from analyser.analyses.report.markup import to_html

        parts[-1] = parts[-1].removesuffix("<ul>")
        parts += ["<p><b>At a glance</b></p>", to_html(glance[3:]), "<ul>"]
    parts += [f"<li><b>{TITLES[k]}:</b> {html.escape(v)}</li>" for k, v in report.verdicts.items()]
    if "tests" in m:
        parts.append(f"<p><b>Tests:</b> {html.escape(tests_line(m))}</p>")
    reference = (report.parts.get("policies") or {}).get("model", {}).get("reference")
    tables = [("Seats", report.seats, seat_rows), ("Player counts", report.player_counts, player_rows),
              ("Rule settings", report.rules, lambda f: rule_rows(f, "team" if m["teams"] else "seat")),
              ("Policy ratings", report.ratings, lambda f: rating_rows(f, reference))]
    for title, frame, rows_of in tables:
        if frame is None or frame.empty:
            continue
        headers, rows = rows_of(frame)
        parts.append(f"<p><b>{title}</b></p>" + pd.DataFrame(rows, columns=headers).to_html(index=False))
    return "".join(parts)


# ---------------------------------------------------------------------- JSON

def report_dict(report) -> dict:
    out = {"meta": jsonable_tree(report.meta), "verdicts": dict(report.verdicts)}
    p = report.parts
    if "tests" in p:
        out["tests"] = jsonable_tree(p["tests"]["frame"])
    if "seats" in p:
        s = p["seats"]
        out["seats"] = jsonable_tree({"table": s["frame"], "test": s["test"], "fair_share": s["fair_share"],
                              "first_mover": s["first_mover"], "balance": s["balance"],
                              "length_mean": s["length_mean"], "completed": s["completed"], "aborted": s["aborted"]})
    if "players" in p:
        s = p["players"]
        out["players"] = {"skipped": s["skipped"]} if "skipped" in s else \
            jsonable_tree({"table": s["frame"], "seats": s["seats"], "policy": s["policy"]})
    if "rules" in p:
        s = p["rules"]
        out["rules"] = jsonable_tree({"table": s["frame"], "groups": s["groups"], "skipped": s["skipped"]})
    if "policies" in p:
        s = p["policies"]
        if "skipped" in s:
            out["policies"] = {"skipped": s["skipped"]}
        else:
            h2h = pd.concat([f.stack().rename(n) for f, n in ((s["matrix"], "win_share"), (s["ci_low"], "ci_low"),
                                                               (s["ci_high"], "ci_high"))], axis=1).reset_index()
            out["policies"] = jsonable_tree({"head_to_head": h2h, "pairs": s["pairs"], "ratings": s["ratings"],
                                     "fit": s.get("fit"), "equilibrium": s.get("equilibrium"), "same": s.get("same"),
                                     "best_vs_second": s["duel"], "model": s["model"], "method": s["meta"],
                                     "strategy": s.get("strategy")})
    if "shape" in p:
        from analyser.analyses.report.shape_section import to_json

        out["shape"] = jsonable_tree(to_json(p["shape"]))
    if "skill" in p:
        s = p["skill"]
        out["skill"] = {"skipped": s["skipped"]} if "skipped" in s else s["result"].to_dict()
    return out

