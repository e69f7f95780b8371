"""The balance report: is a seat, a player count, a rule setting or a policy unfair, and by how much?

``report(game, policies=None, players=None, deals=50_000, seed=0, rules=None)``
answers four questions for one game and one line-up (default: the game's
default policy in every seat), each with a verdict in words, the size of the
effect and a 95% interval:

1. seats: each seat's (team's) win share against the fair share, a test that
   every seat has the same share, and the first mover's advantage. A line-up
   of different policies is rotated over the seats (every rotation, teams as
   teams, on the same deals) and each seat's share averaged over the
   rotations, so the verdict is about the seat, not the policy sitting in it;
2. player counts: the same for every player count the game allows (the
   line-up cycled over the seats, rotated the same way);
3. rule settings: what each on/off or choice setting (and the ``report_values``
   a whole-number one declares; caps such as ``max_actions`` are left out) does
   to the first mover's share, to each seat's share and to length, paired on
   the same deals;
4. policies: a tournament of the game's built-in policies (and any other policy
   of the line-up): the head-to-head matrix first, then the ratings, their fit
   and the meta-game's equilibrium where the tournament gives them.

Every test the report makes joins one family, adjusted by Benjamini-Hochberg
(analyser.stats.multiple); the verdicts call a finding significant at a false
discovery rate of 5% and say how many tests were made.

Every run uses the report's seed, so every run plays the same deals: a rule
value's run is paired deal by deal with the report's own run. The statistics
are the analyser's own (see analyser.analyses.report.sections). The result holds the
tables (pandas), renders as Markdown (analyser.analyses.report.template) and is written
all at once or not at all (analyser.analyses.report.writer).
"""
from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analyser.analyses.report import sections as sec
from analyser.analyses.report.titles import TITLES
from analyser.analyses.report.writer import check_out
from analyser.engine.config import RunConfig, whole_number
from analyser.errors import Interrupted, UserError, choices
from analyser.io.numbers import plural
from analyser.stats.effects import outcome_groups
from analyser.stats.multiple import FDR, bh_adjust

DEFAULT_DEALS = 50_000
TOURNAMENT_SHARE = 5           # the tournament plays deals // 5 per pair (each in every arrangement)
SECTIONS = ("seats", "players", "rules", "policies")


@dataclass(eq=False)
class BalanceReport:
    """A balance report (see the module docstring).

    verdicts        section -> the one-line answer in words
    seats           per seat (team): win share, 95% interval, fair share, excess over fair and its interval
    seat_test       the test that every seat has the same win share (statistic, df, p_value)
    first_mover     the first mover's win share and advantage over the fair share, with intervals
    player_counts   per player count: first-mover advantage, Balance, the test, the largest seat gap
    player_seats    per player count and seat: the seats table
    rules           per setting and value: first mover's share, its paired change, length and its paired
                    change, the seat (team) whose share moved most, Balance
    rule_groups     per setting, value and seat (team): vary's table (win share, paired change)
    ratings         the tournament's ratings (Bradley-Terry, Elo), best first
    head_to_head    the tournament's matrix: the row policy's win share against the column policy
    meta            game, players, line-up, seed, deals, settings, what each section ran, versions
    """
    meta: dict
    verdicts: dict = field(default_factory=dict)
    parts: dict = field(default_factory=dict)      # section -> its numbers (see the builder)

    # ------------------------------------------------------------------ tables
    def _part(self, name: str, key: str):
        part = self.parts.get(name)
        return None if part is None else part.get(key)

    @property
    def seats(self) -> pd.DataFrame | None:
        return self._part("seats", "frame")

    @property
    def seat_test(self) -> dict | None:
        return self._part("seats", "test")

    @property
    def first_mover(self) -> dict | None:
        return self._part("seats", "first_mover")

    @property
    def player_counts(self) -> pd.DataFrame | None:
        return self._part("players", "frame")

    @property
    def player_seats(self) -> pd.DataFrame | None:
        return self._part("players", "seats")

    @property
    def rules(self) -> pd.DataFrame | None:
        return self._part("rules", "frame")

    @property
    def rule_groups(self) -> pd.DataFrame | None:
        return self._part("rules", "groups")

    @property
    def ratings(self) -> pd.DataFrame | None:
        return self._part("policies", "ratings")

    @property
    def head_to_head(self) -> pd.DataFrame | None:
        return self._part("policies", "matrix")

    # ------------------------------------------------------------------ output
    def markdown(self, figures: dict[str, str] | None = None) -> str:
        """The report as Markdown; ``figures`` maps a figure name to the path the text links to."""
        from analyser.analyses.report.template import render_markdown

        return render_markdown(self, figures or {})

    def figures(self) -> dict:
        """name -> a matplotlib Figure (seats, players, rules, policies, head_to_head: those that apply)."""
        from analyser.plots.report import report_figures

        return report_figures(self)

    def to_dict(self) -> dict:
        """Every table and figure of the report with its metadata (the JSON written beside the Markdown)."""
        from analyser.analyses.report.template import report_dict

        return report_dict(self)

    def save(self, path: str | Path = None) -> Path:
        """Write ``path`` (Markdown; default ``reports/<game>.md``), ``<stem>.json`` and the figures in
        ``<stem>/``, all at once: nothing is replaced until everything is ready."""
        from analyser.analyses.report.writer import default_path, write_report

        return write_report(self, Path(path) if path is not None else default_path(self.meta["game"]))

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def _repr_html_(self) -> str:
        from analyser.analyses.report.template import render_html

        return render_html(self)

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<BalanceReport {m['game']}: {m['players']} players, line-up {m['lineup_text']}, "
                 f"{m['deals']:,} {plural(m['unit'])} per run, seed {m['seed']}>"]
        lines += [f"  {TITLES[k]}: {v}" for k, v in self.verdicts.items()]
        lines.append("  .verdicts .seats .seat_test .first_mover .player_counts .rules .ratings .head_to_head "
                     ".markdown() .figures() .save(path)")
        return "\n".join(lines)


def _sections(value) -> tuple[str, ...]:
    if value is None:
        return SECTIONS
    items = [value] if isinstance(value, str) else list(value)
    bad = [s for s in items if s not in SECTIONS]
    if bad or not items:
        raise UserError(f"unknown report section {', '.join(map(str, bad)) or '(none)'}; valid: {choices(SECTIONS)}")
    return tuple(s for s in SECTIONS if s in items)


def report(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
           seed: int = 0, rules: dict | None = None, threads: int | None = None, progress: bool | None = None,
           tournament_deals: int | None = None, sections=None, out=None, n: int | None = None,
           announce=None, command: str | None = None) -> BalanceReport:
    """Build a balance report of ``game`` for one line-up (see the module docstring).

    policies: the line-up as ``simulate`` takes it (default: the game's default policy in every seat).
    deals (or n): units per run (default 50,000): the seats run, each player count, each rule value.
    tournament_deals: deals per pair of policies (default deals // 5), each played in every seat arrangement.
    sections: some of "seats", "players", "rules", "policies" (default: all).
    out: also write the report there (Markdown, with ``.json`` and a folder of figures beside it);
    an existing report is replaced only when the new one is complete.
    announce: called with a line as each section starts (the CLI prints it).
    command: the command line that made the report, recorded in it (the CLI gives it).
    """
    from analyser.engine.progress import in_notebook

    if n is not None and deals is not None and n != deals:
        raise UserError(f"give the number of deals once (n={n!r}, deals={deals!r})")
    count = n if n is not None else deals if deals is not None else DEFAULT_DEALS
    config = RunConfig.build(game, players, policies, whole_number(count, "the number of deals", 1), seed, rules)
    count = config.deals
    t_deals = whole_number(tournament_deals if tournament_deals is not None else max(1, count // TOURNAMENT_SHARE),
                           "the tournament's deals per pair", 1)
    todo = _sections(sections)
    if threads is not None:
        from analyser.engine.pipeline import set_threads

        threads = set_threads(threads)
    out = check_out(out) if out is not None else None
    progress = in_notebook() if progress is None else bool(progress)
    spec = config.game
    info = config.metadata()
    labels = info["policies"]
    uniform = len(set(labels)) == 1
    meta = {"kind": "report", "game": spec.name, "title": spec.title, "unit": spec.unit, "outcome": spec.outcome,
            "players": config.players, "seed": config.seed, "deals": count, "tournament_deals": t_deals,
            "settings": info["settings"], "policies": labels, "params": info["params"],
            "lineup_text": labels[0] + " in every seat" if uniform else ", ".join(labels),
            "teams": bool(spec.teams), "length": spec.length, "sections": list(todo),
            "versions": _versions(info["versions"]),
            "generated": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "ran": {}}
    if command:
        meta["command"] = command
    result = BalanceReport(meta)
    context = {"config": config, "seed": config.seed, "rules": rules, "threads": threads, "progress": progress,
               "count": count, "t_deals": t_deals, "uniform": uniform}
    start = time.perf_counter()
    current = None
    try:
        for name in todo:
            current = TITLES[name].lower() + " section"
            if announce:
                announce(f"{TITLES[name].lower()} ...")
            t0 = time.perf_counter()
            BUILDERS[name](result, context)
            meta["ran"].setdefault(name, {})["seconds"] = time.perf_counter() - t0
        _adjust(result, context)
        result.verdicts.update({name: VERDICTS[name](result) for name in todo})
        meta["seconds"] = time.perf_counter() - start
        meta["threads"] = context.get("threads_used")
        if out is not None:
            current = "writing of the report"
            result.save(out)
    except (KeyboardInterrupt, Interrupted) as err:
        kept = f"; {out} was left as it was" if out is not None and out.exists() else \
            "; no report was written" if out is not None else ""
        done = f" ({err})" if isinstance(err, Interrupted) and " after 0 " not in str(err) else ""
        raise Interrupted(f"report interrupted in the {current}{done}{kept}") from None
    return result


def _versions(versions: dict) -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = dict(versions)
    for package in ("pandas", "scipy", "statsmodels", "matplotlib"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            pass
    return out


def _simulate(ctx: dict, players: int, policies, rules, streams=None):
    from analyser.analyses.simulate import simulate

    result = simulate(ctx["config"].game.name, players=players, policies=policies, deals=ctx["count"],
                      seed=ctx["seed"], rules=rules, threads=ctx["threads"], progress=ctx["progress"],
                      keep_records=True, streams=streams)
    ctx["threads_used"] = result.meta.get("threads")
    return result


def _lineup_runs(ctx: dict, players: int) -> list:
    """The line-up's runs at ``players`` on the report's deals (the line-up cycled over the seats at
    another count): one run for a line-up of one policy; for a mixed one, one per distinct rotation over
    the seats (teams as teams), so every seat holds every policy equally often."""
    cache = ctx.setdefault("lineups", {})
    if players not in cache:
        config = ctx["config"]
        seats = [config.seats[s % config.players] for s in range(players)]
        if ctx["uniform"] and players == config.players and ctx.get("base_run") is not None:
            runs = [ctx["base_run"]]
        elif ctx["uniform"]:
            runs = [_simulate(ctx, players, seats, ctx["rules"])]
        else:
            groups = outcome_groups(config.game, players)
            runs = [_simulate(ctx, players, lineup, ctx["rules"], streams=home)
                    for lineup, home in sec.rotated_lineups(seats, groups)]
        if players == config.players and ctx.get("base_run") is None:
            ctx["base_run"] = runs[0]          # the first rotation is the line-up as given
        cache[players] = runs
    return cache[players]


def _summary(ctx: dict, players: int) -> dict:
    """The seats summary of the line-up at ``players`` (computed once; the seats and players sections share it)."""
    done = ctx.setdefault("summaries", {})
    if players not in done:
        runs = _lineup_runs(ctx, players)
        done[players] = sec.seat_summary(runs)
        done[players]["arrangements"] = [", ".join(r.meta["policies"]) for r in runs]
    return done[players]


def _register(ctx: dict, key: str, section: str, what: str, p: float, *where) -> None:
    """Add a test to the report's family (once per key); ``where``: (dict or frame, row, column) places
    that receive its adjusted p-value."""
    entry = ctx.setdefault("tests", {}).setdefault(key, {"section": section, "test": what, "p_value": p,
                                                          "where": []})
    entry["where"].extend(where)


def _nan_columns(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    for c in columns:
        frame[c] = float("nan")
    return frame


def _seat_tests(ctx: dict, section: str, players: int, summary: dict, *, test_at=(), first_at=()) -> None:
    what = summary["what"]
    _register(ctx, f"seats@{players}", section, f"equal {what} win shares at {players} players",
              summary["test"]["p_value"], (summary["test"], None, "p_adjusted"), *test_at)
    if summary["first_mover"]["advantage_p"] == summary["first_mover"]["advantage_p"]:
        _register(ctx, f"first_mover@{players}", section, f"no first-mover advantage at {players} players",
                  summary["first_mover"]["advantage_p"], (summary["first_mover"], None, "advantage_p_adjusted"),
                  *first_at)


# ---------------------------------------------------------------------- sections

def _seats(report: BalanceReport, ctx: dict) -> None:
    config = ctx["config"]
    summary = _summary(ctx, config.players)
    report.parts["seats"] = summary
    _seat_tests(ctx, "seats", config.players, summary)
    report.meta["ran"]["seats"] = {"runs": len(summary["arrangements"]), "deals": ctx["count"],
                                   "players": config.players, "policies": report.meta["policies"],
                                   "arrangements": summary["arrangements"], "test": summary["test"]["test"],
                                   "test_method": sec.TEST_TEXT.format(what=summary["what"])}


def _players(report: BalanceReport, ctx: dict) -> None:
    config = ctx["config"]
    spec = config.game
    counts = list(range(spec.min_players, spec.max_players + 1))
    if len(counts) == 1:
        report.parts["players"] = {"skipped": f"{spec.title} is played by {counts[0]} players only"}
        report.meta["ran"]["players"] = {"runs": 0, "skipped": report.parts["players"]["skipped"]}
        return
    summaries = {p: _summary(ctx, p) for p in counts}
    frame = _nan_columns(pd.DataFrame([sec.player_count_row(p, summaries[p]) for p in counts]),
                         "p_adjusted", "advantage_p_adjusted")
    for i, p in enumerate(counts):
        _seat_tests(ctx, "players", p, summaries[p], test_at=[(frame, i, "p_adjusted")],
                    first_at=[(frame, i, "advantage_p_adjusted")])
    seats = pd.concat([summaries[p]["frame"].assign(players=p) for p in counts], ignore_index=True)
    lineups = {p: summaries[p]["arrangements"] for p in counts}
    report.parts["players"] = {"frame": frame, "seats": seats, "policy": report.meta["lineup_text"],
                               "summaries": summaries}
    report.meta["ran"]["players"] = {"runs": sum(len(v) for v in lineups.values()), "counts": counts,
                                     "deals": ctx["count"], "policy": report.meta["lineup_text"],
                                     "arrangements": lineups,
                                     "why": "the line-up's one policy" if ctx["uniform"] else
                                     "the line-up cycled over the seats and rotated, so every seat holds every "
                                     "policy equally often"}


def _rules(report: BalanceReport, ctx: dict) -> None:
    config = ctx["config"]
    spec = config.game
    effects, skipped = [], {}
    for setting in spec.settings:
        why = sec.skip_reason(setting, spec.fixed)
        values = sec.setting_values(setting, config.settings[setting.name]) if why is None else []
        if why is None and len(values) < 2:
            why = "only one value is allowed"
        if why is not None:
            skipped[setting.name] = why
            continue
        if ctx.get("base_run") is None:
            ctx["base_run"] = _simulate(ctx, config.players, list(config.seats), ctx["rules"])
        results = [ctx["base_run"]]
        for value in values[1:]:
            given = {**(ctx["rules"] or {}), setting.name: setting.show(value)}
            results.append(_simulate(ctx, config.players, list(config.seats), given))
        effects.append(sec.rule_effect(setting, values, results, config))
    frame = pd.concat([e["frame"] for e in effects], ignore_index=True) if effects else pd.DataFrame()
    groups = pd.concat([e["groups"].assign(setting=e["setting"]) for e in effects if e["groups"] is not None],
                       ignore_index=True) if effects else pd.DataFrame()
    if effects:
        _rule_tests(ctx, _nan_columns(frame, "first_mover_change_p_adjusted", "length_change_p_adjusted",
                                      "largest_group_change_p_adjusted"),
                    _nan_columns(groups, "win_diff_p_adjusted") if not groups.empty else groups)
    report.parts["rules"] = {"frame": frame, "groups": groups, "skipped": skipped, "effects": effects}
    report.meta["ran"]["rules"] = {"runs": sum(len(e["values"]) - 1 for e in effects), "deals": ctx["count"],
                                   "varied": {e["setting"]: e["values"] for e in effects}, "skipped": skipped,
                                   "policies": report.meta["policies"], "players": config.players,
                                   "pairing": "every value on the same deals as the report's own run (the first "
                                              "value); a deal aborted under any value is dropped"}


def _rule_tests(ctx: dict, frame: pd.DataFrame, groups: pd.DataFrame) -> None:
    """Every rule value x quantity is a test: the first mover's share, each seat's (team's) share, length."""
    for i, r in frame[~frame["baseline"]].iterrows():
        name = f"{r['setting']}={r['value']}"
        if r["first_mover_change_p"] == r["first_mover_change_p"]:
            _register(ctx, f"rules:{name}:first mover", "rules", f"{name}: the first mover's win share",
                      r["first_mover_change_p"], (frame, i, "first_mover_change_p_adjusted"))
        _register(ctx, f"rules:{name}:length", "rules", f"{name}: length", r["length_change_p"],
                  (frame, i, "length_change_p_adjusted"))
    if groups.empty:
        return
    for i, g in groups[groups["win_diff_p"].notna()].iterrows():
        name = f"{g['setting']}={g['value']}"
        largest = frame.index[(frame["setting"] == g["setting"]) & (frame["value"] == g["value"])
                              & (frame["largest_group_change_group"] == g["group"])]
        _register(ctx, f"rules:{name}:{g['group']}", "rules", f"{name}: {g['group']}'s win share", g["win_diff_p"],
                  (groups, i, "win_diff_p_adjusted"), *[(frame, j, "largest_group_change_p_adjusted") for j in largest])


def _policies(report: BalanceReport, ctx: dict) -> None:
    from analyser.analyses.tournament import tournament

    config = ctx["config"]
    spec = config.game
    entrants = [spec.default_policy] + [p.name for p in spec.policies if p.name != spec.default_policy]
    names = list(entrants)
    for seat in config.seats:            # the line-up's own policies join the built-in ones
        if seat.label() not in names:
            entrants.append(seat.label() if isinstance(seat.spec.fn, str) else seat)
            names.append(seat.label())
    if len(entrants) < 2:
        report.parts["policies"] = {"skipped": "the game has one policy"}
        return
    league = tournament(spec.name, entrants, players=config.players, deals=ctx["t_deals"], seed=ctx["seed"],
                        rules=ctx["rules"], threads=ctx["threads"], progress=ctx["progress"])
    summary = sec.policy_summary(league)
    summary["meta"] = {k: league.meta.get(k) for k in ("arrangements", "method", "model", "stopped", "cell",
                                                        "fair_share", "deals", "plays")}
    pairs = _nan_columns(summary["pairs"], "p_adjusted")
    for i, r in pairs.iterrows():
        duel = summary["duel"]
        _register(ctx, f"policies:{r['a']} vs {r['b']}", "policies", f"{r['a']} against {r['b']} head to head",
                  r["p_value"], (pairs, i, "p_adjusted"), *([(duel, None, "p_adjusted")] if duel.get("pair") == i
                                                            else []))
    report.parts["policies"] = summary
    report.meta["ran"]["policies"] = {"policies": names, "deals_per_pair": ctx["t_deals"],
                                      "arrangements": league.meta["arrangements"]["name"],
                                      "plays": league.meta.get("plays"), "model": league.meta["model"]["text"],
                                      "players": config.players}


def _adjust(report: BalanceReport, ctx: dict) -> None:
    """Benjamini-Hochberg over every test the report made: adjusted p-values into its tables and a table
    of the tests (the JSON's ``tests``)."""
    tests = ctx.get("tests", {})
    keys = list(tests)
    adjusted = bh_adjust([tests[k]["p_value"] for k in keys])
    for key, q in zip(keys, adjusted, strict=True):
        for container, row, column in tests[key]["where"]:
            if row is None:
                container[column] = float(q)
            else:
                container.at[row, column] = float(q)
    frame = pd.DataFrame({"test": [tests[k]["test"] for k in keys], "section": [tests[k]["section"] for k in keys],
                          "p_value": [tests[k]["p_value"] for k in keys], "p_adjusted": adjusted})
    frame["significant"] = frame["p_adjusted"] < FDR
    report.parts["tests"] = {"frame": frame}
    report.meta["tests"] = {"made": len(frame), "significant": int(frame["significant"].sum()),
                            "exact_ties": int((frame["p_value"] == 1).sum()), "fdr": FDR, "method": FDR_TEXT}


BUILDERS = {"seats": _seats, "players": _players, "rules": _rules, "policies": _policies}
FDR_TEXT = ("Benjamini-Hochberg over every test the report made (each seat test and first-mover test, per "
            "player count, every rule value x quantity: the first mover's share, each seat's or team's share, "
            "length; every pair of policies head to head); a finding is significant when its adjusted p-value "
            "is below 5%, which keeps the expected share of false findings among the findings at most 5%. "
            "Each p-value is two-sided, from the same floored variance as its interval (analyser.stats.multiple); "
            "an exact tie has p = 1 and counts as a test.")


# ---------------------------------------------------------------------- verdicts

def _pp(x) -> str:
    return "-" if x is None or x != x else f"{100 * x:+.1f}"


def _pc(x) -> str:
    return "-" if x is None or x != x else f"{100 * x:.1f}%"


def _p(p) -> str:
    return "-" if p is None or p != p else "< 0.0001" if p < 1e-4 else f"= {p:.2g}"


def _sig(q) -> bool:
    return q is not None and q == q and q < FDR


def _q(q) -> str:
    return f"adjusted p {_p(q)}"


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
                 f"{_pc(fair)}, {_pp(fm['advantage'])} points [{_pp(fm['advantage_ci_low'])}, "
                 f"{_pp(fm['advantage_ci_high'])}].")
    stat = (f"{test['test'].split(' (')[0]}: chi2 = {test['statistic']:.1f}, {test['df']} df, "
            f"p {_p(test['p_value'])}, {_q(test.get('p_adjusted'))}")
    worst = summary["worst"]
    if worst is None:
        return note + f"No completed {unit} to judge the {what}s by."
    gap = (f"{worst['group']} ({worst['policies']}) wins {_pc(worst['win_share'])} against a fair {_pc(fair)}, "
           f"{_pp(worst['excess'])} points [{_pp(worst['excess_ci_low'])}, {_pp(worst['excess_ci_high'])}]")
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
                 f"[{_pp(r.advantage_ci_low)}, {_pp(r.advantage_ci_high)}]" for r in adv.itertuples()]
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
            texts.append(f"first mover {_pp(r.first_mover_change)} [{_pp(r.first_mover_change_ci_low)}, "
                         f"{_pp(r.first_mover_change_ci_high)}]")
        moved = groups[(groups["setting"] == r.setting) & (groups["value"] == r.value)
                       & (groups["win_diff_p_adjusted"] < FDR)] if not groups.empty else groups
        texts += [f"{g.group} {_pp(g.win_diff)} [{_pp(g.win_diff_ci_low)}, {_pp(g.win_diff_ci_high)}]"
                  for g in moved.itertuples()]
        (bal if texts else neutral).append(f"{name} ({', '.join(texts)} points)" if texts else name)
        if r.length_change == r.length_change_ci_low == r.length_change_ci_high == 0:
            unchanged.append(name)
        elif _sig(r.length_change_p_adjusted):
            lengths.append(f"{name} {r.length_change:+.1f} [{r.length_change_ci_low:+.1f}, "
                           f"{r.length_change_ci_high:+.1f}]")
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


def policies_verdict(summary: dict) -> str:
    """Head to head first; the ratings only as far as their fit allows; the equilibrium where given."""
    ratings, duel, fit = summary["ratings"], summary["duel"], summary.get("fit") or {}
    poor = fit.get("fits") is False
    text = ""
    if summary.get("same"):
        text += "The names " + "; ".join(f"{a} and {b} are one policy (the same function and parameters, or "
                                         f"identical play on every deal)" for a, b in summary["same"]) + ". "
    if poor:
        warning = (fit.get("warning") or (
            f"the ratings do not fit the results: dispersion {fit.get('dispersion', float('nan')):.3g}; the results "
            f"are not transitive, so one number per policy misleads: read the head-to-head matrix")).rstrip(".")
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
    shown = ratings.iloc[1] if best["policy"] == ref and len(ratings) > 1 else best
    where = "the runner-up, at" if shown is not best else "first, at"
    text += (f"{'the ratings (not to be trusted here)' if poor else 'the ratings'} put {best['policy']} first"
             + (f" (the reference, Elo 0), {shown['policy']} {where.split(',')[0]}" if shown is not best else "")
             + f" (Elo {shown['elo']:+.0f} [{shown['elo_ci_low']:+.0f}, {shown['elo_ci_high']:+.0f}] relative to "
               f"{ref}) and {worst['policy']} last (Elo {worst['elo']:+.0f})")
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
                           else policies_verdict(r.parts["policies"])),
}
