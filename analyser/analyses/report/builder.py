"""The balance report: is a seat, a player count, a rule setting or a policy unfair, and by how much?

``report(game, policies=None, players=None, deals=50_000, seed=0, rules=None)``
answers six questions for one game and one line-up (default: the game's
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
   and the meta-game's equilibrium where the tournament gives them;
5. skill and luck: how much skill matters against the deal (relative skill, the luck share, the skill
   ladder of the game's search player: analyser.analyses.report.skill_section, at a report's small
   budget), against the game's best heuristic whatever the line-up;
6. shape of a game: how long units run and how they end, and from a per-step estimate of each side's
   chance, lead changes, comebacks, the decisive point and drama (analyser.analyses.report.shape_section).

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
from dataclasses import replace

import pandas as pd

from analyser.analyses.aborts import require_completed
from analyser.analyses.report import sections as sec
from analyser.analyses.report import shape_section
from analyser.analyses.report.model import BalanceReport
from analyser.analyses.report.skill_section import build_skill
from analyser.analyses.report.titles import TITLES
from analyser.analyses.report.verdicts import VERDICTS
from analyser.analyses.report.writer import check_out
from analyser.engine.config import whole_number
from analyser.errors import Interrupted, some_of, stop_word, was_terminated
from analyser.stats.effects import outcome_groups
from analyser.stats.multiple import FDR, bh_adjust

DEFAULT_DEALS = 50_000
TOURNAMENT_SHARE = 5           # the tournament plays deals // 5 per pair (each in every arrangement)
SECTIONS = ("seats", "players", "rules", "policies", "skill", "shape")


def _sections(value) -> tuple[str, ...]:
    return some_of(value, SECTIONS, "report section")


def report(game: str = "palace", policies=None, players: int | None = None, deals: int | None = None,
           seed: int = 0, rules: dict | None = None, threads: int | None = None, progress: bool | None = None,
           tournament_deals: int | None = None, sections=None, out=None, n: int | None = None,
           announce=None, command: str | None = None, backend=None, run_dir=None,
           skill_deals: int | None = None) -> BalanceReport:
    """Build a balance report of ``game`` for one line-up (see the module docstring).

    policies: the line-up as ``simulate`` takes it (default: the game's default policy in every seat).
    deals (or n): units per run (default 50,000): the seats run, each player count, each rule value.
    tournament_deals: deals per pair of policies (default deals // 5), each played in every seat arrangement.
    sections: some of "seats", "players", "rules", "policies", "skill", "shape" (default: all).
    skill_deals: deals of the skill and luck section (default 100: a search player at 4 worlds plays them).
    out: also write the report there (``.md``: Markdown, with ``.json`` and a folder of figures beside it;
    ``.html``: one self-contained page, with ``.json`` beside it); an existing report is replaced only when
    the new one is complete.
    announce: called with a line as each section starts (the CLI prints it).
    command: the command line that made the report, recorded in it (the CLI gives it).
    backend, run_dir: as simulate's; every run of the report keeps its chunks in the one directory.
    """
    from analyser.engine.play_args import play_args
    from analyser.engine.progress import in_notebook

    args = play_args(game, players, policies, seed, rules, None, n=n, deals=deals, backend=backend, run_dir=run_dir,
                     default_count=DEFAULT_DEALS)
    where, count = args.where, args.count
    config = replace(args.base, deals=count)
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
               "count": count, "t_deals": t_deals, "uniform": uniform,
               "where": where, "skill_deals": None if skill_deals is None else whole_number(
                   skill_deals, "the skill section's deals", 2)}
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
        shape_section.strategy(result)
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
        raise Interrupted(f"report {stop_word(err)} in the {current}{done}{kept}",
                          terminated=was_terminated(err)) from None
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
                      keep_records=True, streams=streams, **ctx["where"])
    ctx["threads_used"] = result.meta.get("threads")
    if rules == ctx["rules"] and players == ctx["config"].players:    # the report's own game: nothing to report
        require_completed(result.tally.completed, result.tally.units, ctx["config"].game.unit,
                          "a report (its line-up under its own rules)")
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
    entrants = [spec.default_policy] + [p.name for p in spec.heuristics if p.name != spec.default_policy]
    names = list(entrants)
    for seat in config.seats:            # the line-up's own policies join the built-in ones
        if seat.label() not in names:
            entrants.append(seat.label() if isinstance(seat.spec.fn, str) else seat)
            names.append(seat.label())
    if len(entrants) < 2:
        report.parts["policies"] = {"skipped": "the game has one policy"}
        return
    league = tournament(spec.name, entrants, players=config.players, deals=ctx["t_deals"], seed=ctx["seed"],
                        rules=ctx["rules"], threads=ctx["threads"], progress=ctx["progress"],
                        **ctx["where"])
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
                            "no_difference": int((frame["p_value"] == 1).sum()), "fdr": FDR, "method": FDR_TEXT}


def _shape(report: BalanceReport, ctx: dict) -> None:
    """Length, ends and the per-step estimate, from the line-up's run as given (its first arrangement)."""
    config = ctx["config"]
    run = _lineup_runs(ctx, config.players)[0]
    report.parts["shape"] = shape_section.build(run.records, config, SHAPE_SAMPLE, SHAPE_POINTS, SHAPE_CHECK)
    report.meta["ran"]["shape"] = {"run": ", ".join(run.meta["policies"]), "deals": ctx["count"],
                                   "sample": SHAPE_SAMPLE, "points": SHAPE_POINTS,
                                   "orientation": report.parts["shape"]["orientation"]}


SHAPE_SAMPLE = 300             # units played again step by step for the shape section's estimate
SHAPE_POINTS = 40              # steps of each read
SHAPE_CHECK = True             # and the estimate checked against rollouts on 30 other units (analyses.shape_check)
BUILDERS = {"seats": _seats, "players": _players, "rules": _rules, "policies": _policies, "skill": build_skill,
            "shape": _shape}
FDR_TEXT = ("Benjamini-Hochberg over every test the report made (each seat test and first-mover test, per "
            "player count, every rule value x quantity: the first mover's share, each seat's or team's share, "
            "length; every pair of policies head to head); a finding is significant when its adjusted p-value "
            "is below 5%, which keeps the expected share of false findings among the findings at most 5%. "
            "Each p-value is two-sided, the score test of its interval (a difference: intervals.difference_p, "
            "McNemar's z on the deals that differ; a seat test: the Wald chi-square below); a difference that "
            "was 0 on every deal has p = 1 and counts as a test.")
