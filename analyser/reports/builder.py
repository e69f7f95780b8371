"""The balance report: is a seat, a player count, a rule setting or a policy unfair, and by how much?

``report(game, policies=None, players=None, deals=50_000, seed=0, rules=None)``
answers four questions for one game and one line-up (default: the game's
default policy in every seat), each with a verdict in words, the size of the
effect and a 95% interval:

1. seats: each seat's (team's) win share against the fair share, a test that
   every seat has the same share, and the first mover's advantage;
2. player counts: the same for every player count the game allows;
3. rule settings: what each on/off or choice setting (and a step either side
   of a whole-number one; caps such as ``max_actions`` are left out) does to the
   first mover's share, to each seat's share and to length, paired on the same
   deals;
4. policies: a tournament of the game's built-in policies (and any other policy
   of the line-up), rated by Bradley-Terry with intervals.

Every run uses the report's seed, so every run plays the same deals: a rule
value's run is paired deal by deal with the report's own run. The statistics
are the analyser's own (see analyser.reports.sections). The result holds the
tables (pandas), renders as Markdown (analyser.reports.template) and is written
all at once or not at all (analyser.reports.writer).
"""
from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analyser.core.config import RunConfig, whole_number
from analyser.core.errors import Interrupted, UserError, choices
from analyser.core.registry import plural
from analyser.reports import sections as sec

DEFAULT_DEALS = 50_000
TOURNAMENT_SHARE = 5           # the tournament plays deals // 5 per pair (each in every arrangement)
SECTIONS = ("seats", "players", "rules", "policies")
TITLES = {"seats": "Seats", "players": "Player counts", "rules": "Rule settings", "policies": "Policies"}


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
        from analyser.reports.template import render_markdown

        return render_markdown(self, figures or {})

    def figures(self) -> dict:
        """name -> a matplotlib Figure (seats, players, rules, policies, head_to_head: those that apply)."""
        from analyser.plots.report import report_figures

        return report_figures(self)

    def to_dict(self) -> dict:
        """Every table and figure of the report with its metadata (the JSON written beside the Markdown)."""
        from analyser.reports.template import report_dict

        return report_dict(self)

    def save(self, path: str | Path = None) -> Path:
        """Write ``path`` (Markdown; default ``reports/<game>.md``), ``<stem>.json`` and the figures in
        ``<stem>/``, all at once: nothing is replaced until everything is ready."""
        from analyser.reports.writer import write_report

        return write_report(self, Path(path) if path is not None else default_path(self.meta["game"]))

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def _repr_html_(self) -> str:
        from analyser.reports.template import render_html

        return render_html(self)

    def __repr__(self) -> str:
        m = self.meta
        lines = [f"<BalanceReport {m['game']}: {m['players']} players, line-up {m['lineup_text']}, "
                 f"{m['deals']:,} {plural(m['unit'])} per run, seed {m['seed']}>"]
        lines += [f"  {TITLES[k]}: {v}" for k, v in self.verdicts.items()]
        lines.append("  .verdicts .seats .seat_test .first_mover .player_counts .rules .ratings .head_to_head "
                     ".markdown() .figures() .save(path)")
        return "\n".join(lines)


def default_path(game: str) -> Path:
    return Path("reports") / f"{game}.md"


def check_out(path) -> Path:
    """The Markdown file to write, checked before any run."""
    from analyser.results_file import check_target

    path = Path(path)
    if path.suffix.lower() != ".md":
        raise UserError(f"a report is Markdown: name a .md file, not {path}")
    check_target(path)
    for other in (path.with_suffix(".json"), path.with_suffix("")):
        if other.is_symlink() or (other == path.with_suffix(".json") and other.is_dir()) or \
                (other == path.with_suffix("") and other.exists() and not other.is_dir()):
            raise UserError(f"cannot write the report beside {other}: it is in the way (a link, or a file where "
                            f"the figures' folder goes)")
    return path


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
    from analyser.core.progress import in_notebook

    if n is not None and deals is not None and n != deals:
        raise UserError(f"give the number of deals once (n={n!r}, deals={deals!r})")
    count = n if n is not None else deals if deals is not None else DEFAULT_DEALS
    config = RunConfig.build(game, players, policies, whole_number(count, "the number of deals", 1), seed, rules)
    count = config.deals
    t_deals = whole_number(tournament_deals if tournament_deals is not None else max(1, count // TOURNAMENT_SHARE),
                           "the tournament's deals per pair", 1)
    todo = _sections(sections)
    if threads is not None:
        from analyser.core.runner import set_threads

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
            "teams": bool(spec.teams), "sections": list(todo), "versions": _versions(info["versions"]),
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


def _simulate(ctx: dict, players: int, policies, rules, keep=True):
    from analyser.api import simulate

    result = simulate(ctx["config"].game.name, players=players, policies=policies, deals=ctx["count"],
                      seed=ctx["seed"], rules=rules, threads=ctx["threads"], progress=ctx["progress"],
                      keep_records=keep)
    ctx["threads_used"] = result.meta.get("threads")
    return result


# ---------------------------------------------------------------------- sections

def _seats(report: BalanceReport, ctx: dict) -> None:
    config = ctx["config"]
    run = ctx.get("base_run") or _simulate(ctx, config.players, list(config.seats), ctx["rules"])
    ctx["base_run"] = run
    summary = sec.seat_summary(run)
    report.parts["seats"] = summary
    report.meta["ran"]["seats"] = {"runs": 1, "deals": ctx["count"], "players": config.players,
                                   "policies": report.meta["policies"], "test": summary["test"]["test"],
                                   "test_method": sec.TEST_TEXT.format(what=summary["what"])}
    report.verdicts["seats"] = seat_verdict(summary, run.game.unit)


def _players(report: BalanceReport, ctx: dict) -> None:
    config = ctx["config"]
    spec = config.game
    counts = list(range(spec.min_players, spec.max_players + 1))
    if len(counts) == 1:
        report.parts["players"] = {"skipped": f"{spec.title} is played by {counts[0]} players only"}
        report.meta["ran"]["players"] = {"runs": 0, "skipped": report.parts["players"]["skipped"]}
        report.verdicts["players"] = f"not applicable: {spec.title} is played by {counts[0]} players only."
        return
    seat = config.seats[0] if ctx["uniform"] else spec.policy_map[spec.default_policy].bind()
    rows, seat_rows, summaries = [], [], {}
    for p in counts:
        if p == config.players and ctx["uniform"] and ctx.get("base_run") is not None:
            run = ctx["base_run"]
        else:
            run = _simulate(ctx, p, [seat], ctx["rules"], keep=True)
            if p == config.players and ctx["uniform"]:
                ctx["base_run"] = run
        summary = sec.seat_summary(run)
        summaries[p] = summary
        rows.append(sec.player_count_row(p, summary))
        seat_rows.append(summary["frame"].assign(players=p))
    frame = pd.DataFrame(rows)
    report.parts["players"] = {"frame": frame, "seats": pd.concat(seat_rows, ignore_index=True), "policy": seat.label(),
                               "summaries": summaries}
    report.meta["ran"]["players"] = {"runs": len(counts), "counts": counts, "deals": ctx["count"],
                                     "policy": seat.label(),
                                     "why": "the line-up's one policy" if ctx["uniform"] else
                                     "the game's default policy (the line-up differs by seat)"}
    report.verdicts["players"] = players_verdict(frame)


def _rules(report: BalanceReport, ctx: dict) -> None:
    config = ctx["config"]
    spec = config.game
    effects, skipped = [], {}
    base = ctx.get("base_run")
    for setting in spec.settings:
        why = sec.skip_reason(setting, spec.fixed)
        if why is not None:
            skipped[setting.name] = why
            continue
        current = config.settings[setting.name]
        if setting.kind == "int":
            values = sec.int_values(setting, current)
        else:
            values = [current] + [v for v in (range(2) if setting.kind == "bool" else range(len(setting.options)))
                                  if v != current]
        if len(values) < 2:
            skipped[setting.name] = "only one value is allowed"
            continue
        if base is None:
            base = _simulate(ctx, config.players, list(config.seats), ctx["rules"])
            ctx["base_run"] = base
        results = [base]
        for value in values[1:]:
            given = {**(ctx["rules"] or {}), setting.name: setting.show(value)}
            results.append(_simulate(ctx, config.players, list(config.seats), given))
        effects.append(sec.rule_effect(setting, values, results, config))
    frame = pd.concat([e["frame"] for e in effects], ignore_index=True) if effects else pd.DataFrame()
    groups = pd.concat([e["groups"].assign(setting=e["setting"]) for e in effects if e["groups"] is not None],
                       ignore_index=True) if effects else pd.DataFrame()
    report.parts["rules"] = {"frame": frame, "groups": groups, "skipped": skipped, "effects": effects}
    report.meta["ran"]["rules"] = {"runs": sum(len(e["values"]) - 1 for e in effects), "deals": ctx["count"],
                                   "varied": {e["setting"]: e["values"] for e in effects}, "skipped": skipped,
                                   "policies": report.meta["policies"], "players": config.players,
                                   "pairing": "every value on the same deals as the report's own run (the first "
                                              "value); a deal aborted under any value is dropped"}
    report.verdicts["rules"] = rules_verdict(frame, skipped, spec.length)


def _policies(report: BalanceReport, ctx: dict) -> None:
    from analyser.tournaments import tournament

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
        report.verdicts["policies"] = "not applicable: the game has one policy."
        return
    league = tournament(spec.name, entrants, players=config.players, deals=ctx["t_deals"], seed=ctx["seed"],
                        rules=ctx["rules"], threads=ctx["threads"], progress=ctx["progress"])
    summary = sec.policy_summary(league)
    summary["meta"] = {k: league.meta.get(k) for k in ("arrangements", "method", "model", "stopped", "cell",
                                                        "fair_share", "deals", "plays")}
    report.parts["policies"] = summary
    report.meta["ran"]["policies"] = {"policies": names, "deals_per_pair": ctx["t_deals"],
                                      "arrangements": league.meta["arrangements"]["name"],
                                      "plays": league.meta.get("plays"), "model": league.meta["model"]["text"],
                                      "players": config.players}
    report.verdicts["policies"] = policies_verdict(summary)


BUILDERS = {"seats": _seats, "players": _players, "rules": _rules, "policies": _policies}


# ---------------------------------------------------------------------- verdicts

def _pp(x) -> str:
    return "-" if x is None or x != x else f"{100 * x:+.1f}"


def _pc(x) -> str:
    return "-" if x is None or x != x else f"{100 * x:.1f}%"


def _p(p) -> str:
    return "-" if p is None or p != p else "< 0.0001" if p < 1e-4 else f"= {p:.2g}"


def seat_verdict(summary: dict, unit: str) -> str:
    test, frame, what = summary["test"], summary["frame"], summary["what"]
    fair = summary["fair_share"]
    fm = summary["first_mover"]
    first = ""
    if fm["first_mover_win_rate"] == fm["first_mover_win_rate"]:
        lo, hi = fm["advantage_ci_low"], fm["advantage_ci_high"]
        sign = "an advantage" if lo > 0 else "a disadvantage" if hi < 0 else "no clear advantage"
        first = (f" The first mover has {sign}: {_pc(fm['first_mover_win_rate'])} of wins against a fair "
                 f"{_pc(fair)}, {_pp(fm['advantage'])} points [{_pp(lo)}, {_pp(hi)}].")
    stat = (f"{test['test'].split(' (')[0]}: chi2 = {test['statistic']:.1f}, {test['df']} df, "
            f"p {_p(test['p_value'])}")
    off = frame[frame["finding"] != "fair within noise"]
    if test["p_value"] < sec.ALPHA:
        worst = summary["worst"]
        head = (f"Unfair: the {what}s' win shares differ ({stat}). Largest gap: {worst['group']} "
                f"({worst['policies']}) wins {_pc(worst['win_share'])} against a fair {_pc(fair)}, "
                f"{_pp(worst['excess'])} points [{_pp(worst['excess_ci_low'])}, {_pp(worst['excess_ci_high'])}].")
        if len(off) > 1:
            head += " Outside fair: " + ", ".join(f"{r.group} {_pp(r.excess)}" for r in off.itertuples()) + "."
    else:
        worst = summary["worst"]
        head = (f"No {what} is shown to be unfair ({stat}); the largest gap from the fair {_pc(fair)} is "
                f"{worst['group']}'s {_pp(worst['excess'])} points [{_pp(worst['excess_ci_low'])}, "
                f"{_pp(worst['excess_ci_high'])}].")
    return head + first


def players_verdict(frame: pd.DataFrame) -> str:
    parts = []
    unfair = frame[frame["p_value"] < sec.ALPHA]
    if unfair.empty:
        parts.append("no player count shows unequal seats (each test at the 5% level)")
    else:
        parts.append("seats differ at " + ", ".join(
            f"{int(r.players)} players (p {_p(r.p_value)}; {r.largest_gap_group} {_pp(r.largest_gap)} points)"
            for r in unfair.itertuples()))
    adv = frame.dropna(subset=["advantage"])
    if not adv.empty:
        texts = []
        for r in adv.itertuples():
            mark = "" if r.advantage_ci_low <= 0 <= r.advantage_ci_high else "*"
            texts.append(f"{int(r.players)}: {_pp(r.advantage)}{mark} [{_pp(r.advantage_ci_low)}, "
                         f"{_pp(r.advantage_ci_high)}]")
        marked = any(t.split(" [")[0].endswith("*") for t in texts)
        parts.append("first-mover advantage in points by player count " + "; ".join(texts)
                     + (" (* interval excludes 0)" if marked else ""))
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def rules_verdict(frame: pd.DataFrame, skipped: dict, length: str) -> str:
    if frame.empty:
        why = "; ".join(f"{k}: {v}" for k, v in skipped.items()) or "the game has no rule settings"
        return f"No rule setting to vary ({why})."
    rows = frame[~frame["baseline"]]
    bal, neutral, lengths, same, unchanged = [], [], [], [], []
    for r in rows.itertuples():
        name = f"{r.setting}={r.value}"
        if r.identical:
            same.append(name)
            continue
        moved = [c for c, lo, hi in (("first mover", r.first_mover_change_ci_low, r.first_mover_change_ci_high),
                                     (r.largest_group_change_group, r.largest_group_change_ci_low,
                                      r.largest_group_change_ci_high))
                 if c is not None and lo == lo and (lo > 0 or hi < 0)]
        if moved:
            texts = []
            if "first mover" in moved:
                texts.append(f"first mover {_pp(r.first_mover_change)} [{_pp(r.first_mover_change_ci_low)}, "
                             f"{_pp(r.first_mover_change_ci_high)}]")
            if r.largest_group_change_group in moved:
                texts.append(f"{r.largest_group_change_group} {_pp(r.largest_group_change)} "
                             f"[{_pp(r.largest_group_change_ci_low)}, {_pp(r.largest_group_change_ci_high)}]")
            bal.append(f"{name} ({', '.join(texts)} points)")
        else:
            neutral.append(name)
        if r.length_change == r.length_change:
            if r.length_change == r.length_change_ci_low == r.length_change_ci_high == 0:
                unchanged.append(name)
            else:
                lengths.append(f"{name} {r.length_change:+.1f} [{r.length_change_ci_low:+.1f}, "
                               f"{r.length_change_ci_high:+.1f}]")
    out = []
    out.append("seat balance moves under " + "; ".join(bal) if bal else
               "no setting moves seat balance beyond noise")
    if neutral and bal:
        out.append("no clear effect on seats: " + ", ".join(neutral))
    if lengths:
        out.append(f"length ({length}): " + "; ".join(lengths))
    if unchanged:
        out.append(f"length ({length}) is the same in every deal under " + ", ".join(unchanged))
    if same:
        out.append(", ".join(same) + " played every deal exactly as before (no effect in this configuration)")
    text = "; ".join(out)
    return text[0].upper() + text[1:] + "."


def policies_verdict(summary: dict) -> str:
    ratings = summary["ratings"]
    best = ratings.iloc[0]
    ref = summary["model"]["reference"]
    tied = len(ratings) > 1 and best["elo_ci_low"] <= ratings.iloc[1]["elo_ci_high"]
    if best["policy"] == ref:
        second = ratings.iloc[1]
        text = (f"{best['policy']} rates best (the reference, Elo 0); the runner-up {second['policy']} is at Elo "
                f"{second['elo']:+.0f} [{second['elo_ci_low']:+.0f}, {second['elo_ci_high']:+.0f}]")
    else:
        head = (f"{best['policy']} and {ratings.iloc[1]['policy']} rate best, not told apart by their rating "
                f"intervals ({best['policy']}: " if tied else f"{best['policy']} rates best (")
        text = (f"{head}Elo {best['elo']:+.0f} [{best['elo_ci_low']:+.0f}, {best['elo_ci_high']:+.0f}] relative to "
                f"{ref})")
    duel = summary["duel"]
    if duel:
        second = duel["second"]
        clear = f"it beats {second} directly" if duel["ci_low"] > 0 else \
            f"yet {second} beats it directly (the ratings pool every pair)" if duel["ci_high"] < 0 else \
            "no clear difference directly"
        against = second if best["policy"] == ref else f"the runner-up {second}"
        text += (f"; head to head against {against}: {_pp(duel['win_diff'])} points of win "
                 f"share [{_pp(duel['ci_low'])}, {_pp(duel['ci_high'])}], {clear}")
    worst = ratings.iloc[-1]
    text += f"; {worst['policy']} rates worst (Elo {worst['elo']:+.0f})."
    return text
