"""``analyser rollout``: which action is best at one position of a traced unit, and by how much."""
from __future__ import annotations

from typing import Annotated

import numpy as np
import typer

from analyser.cli import common, output
from analyser.cli.simulate import PLAYERS_HELP, POLICY_HELP
from analyser.io.numbers import hundred, num

STEP_HELP = ("The position: step K of the unit, after K of the trace's numbered moves (0: the start, as the replay "
             "page numbers its steps), whose decision makes move K + 1; --list shows every decision's K. "
             "Required unless --list.")

# rollout's and review's options alike
DealOpt = Annotated[int, typer.Option("--deal", "-d", metavar=common.N, show_default=False,
                                      help="The unit (game or match) of the seed, as in `trace`. Default: 0.")]
RolloutSeedOpt = Annotated[int, typer.Option("--rollout-seed", metavar=common.N, show_default=False,
                                             help="Seed of the worlds. Default: 0.")]
OutOpt = common.out_option("the table and the configuration", " `show` and `plot` read it.")
FormatOpt = Annotated[common.Format, typer.Option("--format", "-f", show_default=False,
                                                  help="How to print the result. Default: table.")]


@common.user_errors
def rollout(
    game: common.GameArg,
    step: Annotated[int | None, typer.Option("--step", "-k", metavar="K", show_default=False,
                                             help=STEP_HELP)] = None,
    seed: common.SeedOpt = 0,
    deal: DealOpt = 0,
    seat: Annotated[int | None, typer.Option(
        "--seat", metavar=common.N, show_default=False,
        help="The seat whose decision it is (a check: the seat to move). Default: the seat to move.")] = None,
    policy: common.policy_option(POLICY_HELP + " The line-up plays the unit to the step and every world "
                                 "after it.") = None,
    players: common.players_option(PLAYERS_HELP) = None,
    rule: common.RuleOpt = None,
    trials: Annotated[int | None, typer.Option(
        "--trials", metavar=common.N, show_default=False,
        help="Worlds per action (the same worlds for every action); with --precision the cap. "
             "Default: 1,000; with --precision 100,000.")] = None,
    precision: Annotated[float | None, typer.Option(
        "--precision", metavar="H", show_default=False,
        help="Add worlds (2,048 at a time) until every action still rolled out has a 95% half-width of at "
             "most H (0.01 = ±1 point of win share). Default: a fixed number.")] = None,
    drop: Annotated[bool, typer.Option(
        "--drop", show_default=False,
        help="Stop rolling out an action once it is 3 paired standard errors below the best on the even "
             "worlds, after at least 500 worlds (stopping at 2.5 was measured to pick wrongly about 15% of the "
             "time).")] = False,
    top: Annotated[int | None, typer.Option(
        "--top", metavar="K", show_default=False,
        help="After the first 2,048 worlds, roll out only the K best actions (on the even worlds). "
             "Default: all.")] = None,
    rollout_seed: RolloutSeedOpt = 0,
    threads: common.ThreadsOpt = None,
    out: OutOpt = None,
    plot: output.PlotOpt = None,
    open_cards: Annotated[bool, typer.Option(
        "--open-cards", show_default=False,
        help="Play every world with the true hidden cards, every card known (double dummy): overstates what a "
             "player can do, and says so.")] = False,
    listing: Annotated[bool, typer.Option(
        "--list", show_default=False,
        help="List the unit's decisions instead: each one's K, the seat, its choices and what it played.")] = False,
    fmt: FormatOpt = common.Format.table,
    no_progress: common.NoProgressOpt = False,
):
    """Roll out every legal action of one position: its win share with a 95% interval, and the paired
    difference from the best.

    The best (first row) is picked on the even worlds and every difference from it is measured on the
    odd ones, so picking the best of close actions does not bias the differences: each "vs best"
    interval is for the difference from that picked action (as review's cost).

    Each action is played on the same worlds: the cards the seat cannot see dealt anew among those
    consistent with what it knows, then the line-up plays on.
    """
    from analyser.analyses.rollout import rollout as run_rollout
    from analyser.errors import UserError
    from analyser.games.registry import parse_rule_args

    if listing:
        return print_decisions(game, seed, deal, policy, players, parse_rule_args(rule), fmt)
    if step is None:
        raise UserError("give the position as --step K (`--list` shows every decision's K)")
    plot = output.checked_plot_path(plot)
    result = run_rollout(game, seed=seed, deal=deal, step=step, seat=seat, policies=policy, players=players,
                         rules=parse_rule_args(rule), trials=trials, precision=precision, drop=drop, top=top,
                         rollout_seed=rollout_seed, threads=threads, open_cards=open_cards, progress=not no_progress)
    if out is not None:
        result.save(out)
    output.finish(result, print_rollout, fmt, out, plot)


def print_decisions(game, seed, deal, policy, players, rules, fmt) -> None:
    import sys

    from rich.console import Console
    from rich.table import Table

    from analyser.analyses.rollout import decisions
    from analyser.io.jsonable import dumps

    frame = decisions(game, seed=seed, deal=deal, policies=policy, players=players, rules=rules)
    if common.Format(fmt) == common.Format.json:
        typer.echo(dumps(frame.to_dict(orient="records"), indent=2))
    elif common.Format(fmt) == common.Format.csv:
        frame.to_csv(sys.stdout, index=False)
    else:
        table = Table(title=f"{game} seed {seed}, unit {deal}: the decisions (roll one out with --step K)",
                      title_justify="left")
        for name, left in (("K", False), ("seat", False), ("choices", False), ("played", True)):
            table.add_column(name, justify="left" if left else "right")
        for _, row in frame.iterrows():
            table.add_row(str(row["step"]), str(row["seat"]), str(row["choices"]), row["played"])
        Console().print(table)


def print_rollout(result, fmt: common.Format | str = common.Format.table, console=None):
    output.print_analysis(result, fmt, print_rollout_tables, result.table, console)


def half_width(row, name: str) -> float:
    """The larger side of a row's interval for ``name`` (the intervals near a bound are not symmetric)."""
    return max(row[name] - row[f"{name}_ci_low"], row[f"{name}_ci_high"] - row[name])


def _percent(row, name: str) -> str:
    """A win share in percent and the larger side of its interval ("24.2 ±3.9")."""
    return f"{hundred(row[name], 1)} ±{hundred(half_width(row, name), 1)}"


def _score(row, name: str) -> str:
    """A mean score and the larger side of its interval ("12.3 ±0.4"; io.numbers: no "-0.0")."""
    return f"{num(row[name], 1)} ±{num(half_width(row, name), 1)}"


def _signed(x: float) -> str:
    return f"{100 * x:+.1f}"


def print_rollout_tables(result, console=None):
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    m = result.meta
    sub = m.get("current")                   # a match's hand or round, valued beside the match
    frame = result.table
    settings = ", ".join(f"{k}={v}" for k, v in m["settings"].items())
    console.print(f"[bold]{m['game']}[/bold] seed {m['seed']}, {m['unit']} {m['first_deal']}, step {m['step']}"
                  + (f" (after {m['steps']})" if "steps" in m else "")
                  + f": seat {m['seat']} to move ({m['players']} players: {', '.join(m['policies'])}).",
                  highlight=False)
    for line in m.get("position", []):
        console.print("  " + line, highlight=False, markup=False)
    worlds = frame["trials"].nunique() > 1   # else the title says how many
    score = not np.allclose(frame["score"], frame["win"])            # Palace's score is its win
    sub_score = bool(sub) and not np.allclose(frame[f"{sub}_score"], frame[f"{sub}_win"])   # Olenon's round's
    caption = [f"* played by the seat's policy. Win %{' and score' * score}: of the {m['unit']}"
               + (f"; {sub} win %{' and score' * sub_score}: of the {sub} being played" if sub else "") + ".",
               "vs best: points of win share from the best as picked on the even worlds, measured on the odd ones "
               "(paired; so the pick does not bias it); ± is the larger side of the 95% interval."]
    caption += ["worlds: fewer where an action was dropped."] if worlds else []
    caption += [f"Worlds: {m['sampler']}. Rollout seed {m['rollout_seed']}; {settings}."]
    console.print(f"[italic]Each action on the same worlds (95% intervals): {m['stopping']}[/italic]")
    table = Table(box=box.SIMPLE_HEAD, collapse_padding=True, show_edge=False)
    columns = ["action"] + ["worlds"] * worlds + ["win %", "vs best"] + ["score"] * score
    columns += [f"{sub} win %"] * bool(sub) + [f"{sub} score"] * sub_score
    for name in columns:                   # no column rules, so that 80 columns hold a match's seven
        table.add_column(name, justify="left" if name == "action" else "right", overflow="fold")
    for i, row in frame.iterrows():
        diff = "best" if i == 0 else f"{_signed(row['diff'])} ±{100 * half_width(row, 'diff'):.1f}"
        cells = [row["action"] + (" *" if row["played"] else "")] + [f"{row['trials']:,}"] * worlds
        cells += [_percent(row, "win"), diff] + ([_score(row, "score")] if score else [])
        cells += ([_percent(row, f"{sub}_win")] if sub else []) + ([_score(row, f"{sub}_score")] if sub_score else [])
        table.add_row(*cells)
    console.print(table)
    console.print(" ".join(caption), style="dim")      # the width of the screen, not of the table
    if "forced" in m:
        console.print(f"This is {m['forced']}.")
        return
    played = result.table[result.table["played"]].iloc[0]
    best = result.table.iloc[0]["action"]
    console.print(f"The seat's policy chose {played['action']!r}: " + (
        "the best action." if played.get("best", played["diff"] == 0) else
        f"{_signed(played['diff'])} points of win share against the best, {best} [{_signed(played['diff_ci_low'])}, "
        f"{_signed(played['diff_ci_high'])}]."))


@common.user_errors
def review(
    game: common.GameArg,
    seat: Annotated[int, typer.Option("--seat", metavar=common.N, show_default=False,
                                      help="The seat whose decisions are reviewed.")],
    seed: common.SeedOpt = 0,
    deal: DealOpt = 0,
    policy: common.policy_option(POLICY_HELP + " The line-up plays the unit and every world.") = None,
    players: common.players_option(PLAYERS_HELP) = None,
    rule: common.RuleOpt = None,
    trials: Annotated[int | None, typer.Option(
        "--trials", metavar=common.N, show_default=False,
        help="Worlds per action at each decision. Default: 1,000.")] = None,
    drop: Annotated[bool, typer.Option("--drop", show_default=False,
                                       help="As rollout's --drop, at each decision.")] = False,
    open_cards: Annotated[bool, typer.Option(
        "--open-cards", show_default=False,
        help="As rollout's --open-cards: every card known, which overstates what a player can do.")] = False,
    shown: Annotated[int, typer.Option("--show", metavar=common.N, show_default=False,
                                       help="Decisions listed, costliest first. Default: 10.")] = 10,
    steps: Annotated[str | None, typer.Option(
        "--steps", metavar="A..B", show_default=False,
        help="Only the decisions at steps A to B (the positions after A to B steps, as rollout's --step; "
             "10..40, ..100 or 200..). Default: all.")] = None,
    rollout_seed: RolloutSeedOpt = 0,
    threads: common.ThreadsOpt = None,
    out: OutOpt = None,
    plot: output.PlotOpt = None,
    fmt: FormatOpt = common.Format.table,
    no_progress: Annotated[bool, typer.Option(
        "--no-progress", show_default=False,
        help="Say nothing on stderr: neither what the review will cost nor a progress bar.")] = False,
):
    """Roll out every real decision of one seat in one unit and list the costliest: the costly ones
    (played worse than the best, Holm 5% over the decisions) and the mean cost per decision.

    Each decision is rolled out as `analyser rollout` would at that step, on the same worlds. What the
    review will cost (decisions x worlds) is said on stderr first.
    """
    from analyser.analyses.review import review as run_review
    from analyser.games.registry import parse_rule_args

    shown = common_positive(shown)
    plot = output.checked_plot_path(plot)
    result = run_review(game, seed=seed, deal=deal, seat=seat, policies=policy, players=players,
                        rules=parse_rule_args(rule), trials=trials, drop=drop, rollout_seed=rollout_seed,
                        threads=threads, open_cards=open_cards, steps=steps, progress=not no_progress)
    if out is not None:
        result.save(out)
    output.finish(result, lambda r, f: print_review(r, f, shown=shown), fmt, out, plot)


def print_review(result, fmt: common.Format | str = common.Format.table, console=None, shown: int = 10):
    """Print a ReviewResult as a table, one JSON object or CSV of its rows (``show`` calls it)."""
    output.print_analysis(result, fmt, lambda r, c: print_review_tables(r, shown, c), result.table, console)


def common_positive(n: int) -> int:
    from analyser.engine.config import whole_number

    return whole_number(n, "--show", 1)


def print_review_tables(result, shown: int = 10, console=None):
    from rich.console import Console
    from rich.table import Table

    from analyser.errors import counted
    from analyser.io.numbers import p_short

    console = console or Console()
    m = result.meta
    low, high = m["mean_cost_ci"]
    bound = m.get("steps_reviewed")
    made = (f"made {counted(m['decisions'], 'real decision')}" if bound is None else
            f"made {m['decisions_in_unit']:,} real decisions, {m['decisions']:,} of them at steps {bound[0]} to "
            f"{bound[1]} (reviewed)")
    console.print(f"[bold]{m['game']}[/bold] seed {m['seed']}, {m['unit']} {m['first_deal']}: seat {m['seat']} "
                  f"({m['policies'][m['seat']]}) {made}; {m['stopping']}.", highlight=False)
    if m.get("aborted"):
        console.print(f"This {m['unit']} never ended: it hit the action cap.", highlight=False)
    if m["sampler"].startswith("OPEN CARDS"):
        console.print(m["sampler"] + ".")
    table = Table(title=f"The costliest {min(shown, len(result.table))} (points of win share below the best, "
                        f"95% intervals; ! costly: Holm, 5%)", title_justify="left")
    for name, left in (("step", False), ("played", True), ("best", True), ("cost", False), ("Holm p", False),
                       ("", True)):
        table.add_column(name, justify="left" if left else "right", overflow="fold")
    for _, row in result.table.head(shown).iterrows():
        half = 100 * half_width(row, "cost")
        cost = f"{100 * row['cost']:+.1f} ±{half:.1f}"
        if row["cost"] == 0 and half == 0:
            cost = "0 (the best)"
        table.add_row(str(row["step"]), row["played"], "" if row["best"] == row["played"] else row["best"], cost,
                      p_short(row["p_holm"]), "!" if row["costly"] else "")
    console.print(table)
    costly = result.table[result.table["costly"]].sort_values("step")
    console.print(f"Costly: {counted(len(costly), 'decision')} of {m['decisions']:,}"
                  + (f" (steps {', '.join(str(s) for s in costly['step'])})" if len(costly) else "")
                  + f". Mean cost per decision: {100 * m['mean_cost']:.1f} points of win share "
                  f"[{100 * low:.1f}, {100 * high:.1f}].", highlight=False)
    console.print(f"What they mean: {m['meaning']}. Cost: {m['cost']}.", style="dim", highlight=False)
