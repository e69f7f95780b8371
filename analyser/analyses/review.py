"""Reviews: every real decision of one seat in one unit rolled out, and what its choices cost.

A decision's cost is the best action's win share less the played one's, from that decision's own
rollout (COST). The costs of a unit's decisions do not add up to anything a designer can read:
each is measured from its own position with the rest of the unit played by the line-up, so their
sum is no change in the unit's win share (summed, they reach figures beyond the whole stake). The
win share the seat would have had playing the best at every decision needs play-outs in which it
plays the best at every later decision too, which independent rollouts do not make. So a review
reports (MEANING):

- **the costly decisions**: the one-sided test of each decision's paired difference (its score test,
  stats.intervals.difference_p) that the played action is worse than the best, Holm-adjusted over
  the decisions reviewed (stats.multiple.holm): every decision flagged costly is one, with 95%
  confidence for the whole list at once;
- **the mean cost per decision**, with its 95% interval (the rollouts are independent, so their
  variances add): what the seat's choice gave up against the best found, on average over its decisions.

A review of a long unit is costly (decisions x worlds play-outs, each to the unit's end), so it is
said up front on stderr, with a word when the unit hit the action cap; ``steps`` bounds it.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.analyses.rollout import (
    OPEN_CARDS,
    SAMPLER,
    STATISTICS,
    Progress,
    RolloutResult,
    Stopping,
    pick_best,
    position_at,
    roll,
)
from analyser.analyses.rollout import steps as step_count
from analyser.engine.config import RunConfig, whole_number
from analyser.engine.progress import in_notebook, progress_bar
from analyser.errors import UserError, counted
from analyser.games.common import quiet_first_class
from analyser.io.results_file import read_results, write_frame
from analyser.stats.intervals import Z95, differences_ci
from analyser.stats.multiple import holm

LEVEL = 0.05                   # Holm's family-wise level for "costly"


@dataclass
class ReviewResult:
    """A review: the decisions reviewed (``table``: one row a decision, costliest first, ``costly``
    where Holm's test says the played action is worse than the best) and the mean cost per decision
    (``meta["mean_cost"]``, with its interval)."""
    table: pd.DataFrame
    meta: dict
    rollouts: list

    def to_dict(self) -> dict:
        return {**self.meta, "decisions": self.table.to_dict(orient="records")}

    def plot(self):
        from analyser.plots.rollout import review_figure

        return review_figure(self)

    def save(self, path) -> Path:
        """The table and the metadata as a results file (``analyser show`` and ``plot`` read it)."""
        path = Path(path)
        write_frame(path, self.table, {**self.meta, "kind": "review"})
        return path

    def __repr__(self) -> str:
        m = self.meta
        return (f"<ReviewResult {m['game']} seed {m['seed']} {m['unit']} {m['first_deal']}: seat {m['seat']}, "
                f"{counted(len(self.table), 'decision')}, {m['costly']} costly, mean cost "
                f"{100 * m['mean_cost']:.1f} points>")


def review(game: str = "palace", seed: int = 0, deal: int = 0, seat: int = 0, policies=None,
           players: int | None = None, rules: dict | None = None, trials: int | None = None,
           precision: float | None = None, drop: bool = False, top: int | None = None, rollout_seed: int = 0,
           threads: int | None = None, open_cards: bool = False, steps: str | tuple | None = None,
           progress: bool | None = None) -> ReviewResult:
    """Roll out every real decision (two or more legal actions) of ``seat`` in unit ``deal`` of
    ``seed`` as :func:`analyser.analyses.rollout.rollout` would (the same worlds for the same step),
    costliest first, with the costly ones and the mean cost (see the module docstring). ``steps``
    "A..B" (or (A, B)): only the decisions at the positions after A to B steps (either end may be
    left out). ``progress``: what it will cost on stderr, then a bar (default: in a notebook)."""
    from analyser.engine.pipeline import set_threads

    rule = Stopping.of(trials, precision, drop, top, open_cards)
    rollout_seed = whole_number(rollout_seed, "the rollout seed")
    config = RunConfig.build(game, players=players, policies=policies, deals=1, seed=seed, rules=rules, first_deal=deal)
    seat = whole_number(seat, "the seat", 0, config.players - 1)
    threads = set_threads(threads)
    shown = in_notebook() if progress is None else bool(progress)
    with quiet_first_class():
        history, kit, runner = position_at(config, None, worlds=True)
        last = len(history) - 1
        low, high = step_range(steps, last, kit)
        mine = [k for k, p in enumerate(history) if (d := p.decision()) is not None and d[0] == seat]
        chosen = [k for k in mine if low <= k <= high]
        capped = bool(runner.run(config.first_deal, 1)["aborted"][0])  # the unit's record: it hit the action cap
        where = f"{config.game.unit} {deal} of seed {seed}" + (f", steps {low} to {high}" if steps is not None else "")
        if not chosen:
            raise UserError(f"seat {seat} has no real decision in {where}")
        if shown:
            print(cost_note(len(chosen), len(mine), rule, capped, step_count(kit, last), config, steps is not None),
                  file=sys.stderr)
        label = Progress.label(f"reviewing {counted(len(chosen), 'decision')}", rule)
        with progress_bar(len(chosen) * Progress.first(rule), label, shown) as bar:
            track = Progress(bar, len(chosen), rule)
            rollouts = [roll(history[: k + 1], kit, runner, rule, rollout_seed, k, threads, track) for k in chosen]
    table = cost_table(chosen, rollouts)
    meta = {"kind": "review", **config.metadata(), "seat": seat, "decisions": len(chosen),
            "decisions_in_unit": len(mine), "steps_reviewed": [low, high] if steps is not None else None,
            "aborted": capped, **summary(table), "rollout_seed": rollout_seed, "threads": threads,
            "stopping": rule.text(), "sampler": OPEN_CARDS if open_cards else SAMPLER, "statistics": STATISTICS,
            "cost": COST, "meaning": MEANING}
    return ReviewResult(table, meta, rollouts)


STEPS = re.compile(r"\s*(\d*)\s*\.\.\s*(\d*)\s*")


def step_range(steps: str | tuple | None, last: int, kit) -> tuple[int, int]:
    """The steps A..B (positions after A to B steps, as rollout's --step numbers them) in a unit whose
    last position is ``last``; None: all of them."""
    if steps is None:
        return 0, last
    if isinstance(steps, tuple) and len(steps) == 2:
        low, high = (whole_number(s, "a step") if s is not None else None for s in steps)
    elif isinstance(steps, str) and (m := STEPS.fullmatch(steps)):
        low, high = (int(g) if g else None for g in m.groups())
    else:
        raise UserError(f"the steps are A..B (the positions after A to B steps; 10..40, ..100 or 200..), not {steps!r}")
    low, high = 0 if low is None else low, last if high is None else high
    if low > last:
        raise UserError(f"the unit ends at step {last} (after {step_count(kit, last)}), so there is no step {low}")
    if low > high:
        raise UserError(f"the steps {low}..{high} are empty: the first is after the last")
    return low, min(high, last)


def cost_note(chosen: int, mine: int, rule: Stopping, capped: bool, length: str, config: RunConfig,
              bounded: bool) -> str:
    """What a review will cost, said before it starts: decisions x worlds, and a unit cut at the action cap
    (with how to bound the review, unless ``bounded`` already)."""
    worlds = f"{rule.trials:,} worlds" if rule.precision is None else f"up to {rule.trials:,} worlds"
    head = (f"review: {counted(chosen, 'decision')}" + (f" of the seat's {mine:,}" if chosen < mine else "")
            + f" x {worlds}, every legal action played out on each world to the {config.game.unit}'s end")
    if not capped:
        return head + f" (the {config.game.unit} took {length})."
    return (head + f"; this {config.game.unit} never ended: it hit the action cap after {length}, so every play-out "
            "may run to the cap too." + ("" if bounded else " Bound it with --steps A..B (the positions after A to B "
                                         "steps)."))


COST = ("a decision's cost is the best action's win share less the played one's: the best picked on the even "
        "worlds, the difference measured on the odd ones (paired), so picking the best among noisy means does "
        "not inflate it; an estimate, negative when the played action did better there")
MEANING = ("a decision is costly when the one-sided test that the played action is worse than the best rejects "
           "at 5% after Holm's adjustment over the decisions reviewed, so the whole list of costly decisions holds "
           "with 95% confidence. The mean cost is what the seat's choice gave up against the best action found, on "
           "average over its decisions, each from its own position with the line-up playing the rest. Costs do not "
           "add up to a change in the unit's win share, and the win share with the best action at every decision "
           "is not estimated: that needs play-outs in which the seat plays the best at every later decision too, "
           "which independent rollouts do not make")


def cost_table(chosen: list[int], rollouts: list[RolloutResult]) -> pd.DataFrame:
    """One row a decision, costliest first, with Holm's adjusted one-sided p-value and ``costly``."""
    rows = pd.DataFrame([dict(step=k, **decision_cost(r)) for k, r in zip(chosen, rollouts, strict=True)])
    rows["p_holm"] = holm(rows["p"].to_numpy(float))
    rows["costly"] = rows["p_holm"] < LEVEL
    return rows.sort_values("cost", ascending=False, kind="stable").reset_index(drop=True)


def summary(table: pd.DataFrame) -> dict:
    """The mean cost per decision with its 95% interval (independent rollouts: variances add) and the
    number of costly decisions."""
    n = len(table)
    mean = float(table["cost"].mean())
    se = float(np.sqrt(np.nansum(table["cost_se"] ** 2))) / n
    return {"mean_cost": mean, "mean_cost_ci": [mean - Z95 * se, mean + Z95 * se], "costly": int(table["costly"].sum())}


def decision_cost(r: RolloutResult) -> dict:
    """One decision's cost (see COST) from its rollout, and the one-sided p-value that it is above 0."""
    played = int(r.table.loc[r.table["played"], "id"].iloc[0])
    p = int(np.flatnonzero(r.actions == played)[0])
    complete = ~np.isnan(r.wins).any(axis=0)             # actions played on every world (not dropped)
    judge = r.wins[1::2]
    best = pick_best(r.wins, complete)                   # the rollout table's best (its `best` row)
    text = r.table.set_index("id")["action"]
    row = {"played": text[played], "best": text[int(r.actions[best])], "actions": len(r.actions)}
    if best == p or judge.shape[0] < 2:
        return {**row, "cost": 0.0, "cost_se": 0.0, "cost_ci_low": 0.0, "cost_ci_high": 0.0, "p": 1.0}
    c = differences_ci(judge[:, best] - judge[:, p], 1.0)
    se = c["sd"] / np.sqrt(c["n"])
    worse = c["p"] / 2 if c["mean"] > 0 else 1 - c["p"] / 2      # one-sided, from the two-sided score test
    return {**row, "cost": c["mean"], "cost_se": se, "cost_ci_low": c["low"], "cost_ci_high": c["high"], "p": worse}


def load_review(path) -> ReviewResult:
    """Read a file written by ``review(...).save`` / ``analyser review --out`` back."""
    meta, frame, path = read_results(path, "review", "a review (written by `analyser review --out`)")
    if "total_cost" in meta and "mean_cost" not in meta:
        raise UserError(f"{path} is a review by an older version (a sum of costs, no costly decisions): run "
                        "`analyser review` again")
    if not {"step", "played", "best", "cost", "costly"} <= set(frame.columns) or "mean_cost" not in meta:
        raise UserError(f"{path} has damaged review columns or metadata")
    return ReviewResult(frame, meta, [])
