"""The shape of a game: how long its units run, how they end, and how their result unfolds step by step.

``game_shape(game, ...)`` (and the balance report's "Shape of a game" section) reads one run:

- **length**: the distribution of the completed units' length (quantiles with intervals, and the
  lengths for a histogram), and **how units end**: each way's share (the game's words, its kit's
  ``end_ways``: a Palace loser's seat, an Enemy Anemone tie broken by tokens, aborts at the cap);
- **a per-step estimate** of each side's chance to be *the one*: the winner, or in a game whose win
  is "not being the loser" (Palace at 3+ players) the loser. A sample of the run's units (``sample``,
  default 300: the first ones of the seed) is played again step by step by the game's kit (its
  compiled playout, the same units as the run: one is seeded from (seed, index) alone), and at
  ``points`` evenly spaced steps of each the features the game declares (its kit's
  ``step_features``: cards left, tokens, points) are read; a conditional logit
  (analyser.stats.evaluator) is fitted on them against the units' outcomes, cross-fitted over two
  halves of the units, so every estimate is out of sample; its Brier score is shown against the
  base rate's with a reliability table;
- from those estimates, **lead changes, the comeback rate, the decisive point and drama**
  (analyser.stats.shape), with intervals over units.

Teams are sides (their seats' features averaged); a unit whose win is shared or drawn trains the
estimate (a share counts as a share) but has no one eventual winner to follow and is left out of
the four measures (counted).
"""
from __future__ import annotations

import numpy as np

from analyser.errors import UserError
from analyser.games.kit import DECIDED, ended_by_cap
from analyser.stats.effects import outcome_groups
from analyser.stats.evaluator import Evaluator, brier, cross_fit, reliability
from analyser.stats.shape import end_shares, length_summary, shape_summary
from analyser.stats.sides import group_features, orientation, targets

SAMPLE = 300           # units played again step by step for the estimate
POINTS = 40            # evenly spaced steps a unit is read at


def length_and_ends(records: np.ndarray, spec, players: int) -> dict:
    """The completed units' length summary and every unit's way of ending (the kit's words)."""
    kit = spec.kit() if spec.kit is not None else None
    done = ~records["aborted"].astype(bool)
    lengths = records["length"][done].astype(float)
    declared = getattr(kit, "end_ways", None)           # a kit of its own (not a GameKit) may not say
    ways = declared(records, players) if declared else ended_by_cap(records, np.full(records.size, DECIDED, object))
    return {"length": length_summary(lengths), "lengths": lengths,
            "ends": end_shares(ways, getattr(kit, "end_order", ())), "units": int(records.size)}


def sample_steps(config, records: np.ndarray, sample: int = SAMPLE, points: int = POINTS) -> dict | None:
    """Features, progress and targets at ``points`` evenly spaced steps of the first ``sample``
    completed, decided units of ``records`` (the run of ``config``), each played again by the kit.
    None when the game's kit declares no step features."""
    from analyser.engine.local import ChunkRunner
    from analyser.games.common import quiet_first_class

    spec, players = config.game, config.players
    kit = spec.kit() if spec.kit is not None else None
    if not getattr(kit, "feature_names", ()):
        return None
    y_all = targets(records, spec, players)
    chosen = np.flatnonzero(y_all.sum(axis=1) > 0)[:sample]
    runner = ChunkRunner(config)
    xs, ys, units, progress, steps = [], [], [], [], []
    with quiet_first_class():
        for i in chosen:
            n, kept = read_steps(kit, kit.play(config.seed, int(records["unit"][i]), players, runner.settings,
                                               runner.fns, runner.params, runner.streams), points)
            at = sorted(kept)
            at = [at[j] for j in np.unique(np.round(np.linspace(0, len(at) - 1, points)).astype(int))]
            rows = [kept[t] for t in at]
            at = np.array(at)
            xs.append(group_features(np.stack([r[0] for r in rows]), spec, players))
            progress.append([r[1] for r in rows])
            ys.append(np.repeat(y_all[i][None, :], len(at), axis=0))
            units.append(np.full(len(at), i))
            steps.append(at / max(n - 1, 1))
    return {"x": np.concatenate(xs), "y": np.concatenate(ys), "unit": np.concatenate(units),
            "progress": np.concatenate(progress).astype(float), "step": np.concatenate(steps),
            "features": list(kit.feature_names), "sides": [n for n, _ in outcome_groups(spec, players)]}


def read_steps(kit, positions, points: int) -> tuple[int, dict]:
    """``(n, {step: features})``: a unit's positions counted and the features read at evenly spaced
    steps (every k-th, k doubling whenever more than 2 x ``points`` are kept, so a match of thousands of
    moves costs a few hundred reads) and at the last. The features are read as the position is yielded
    (a kit's position may be live); the last is read once the unit is over."""
    kept, k, n, last = {}, 1, 0, None
    for n, position in enumerate(positions, 1):
        last = position
        if (n - 1) % k == 0:
            kept[n - 1] = kit.step_features(position)
            if len(kept) > 2 * points:
                k *= 2
                kept = {t: v for t, v in kept.items() if t % k == 0}
    if n and n - 1 not in kept:
        kept[n - 1] = kit.step_features(last)
    return n, kept


def estimate(steps: dict) -> dict:
    """The cross-fitted estimate of a sample (sample_steps), its Brier score and reliability, and the
    shape measures of its units with one eventual winner (or loser)."""
    probs, base = cross_fit(steps["x"], steps["y"], steps["unit"], steps["progress"])
    _, inverse, counts = np.unique(steps["unit"], return_inverse=True, return_counts=True)
    model = Evaluator.fit(steps["x"], steps["y"], 1.0 / counts[inverse], steps["progress"])   # on every unit
    score = brier(probs, base, steps["y"], steps["unit"])
    units, single = [], 0
    for u in np.unique(steps["unit"]):
        m = steps["unit"] == u
        y = steps["y"][m][0]
        if y.max() < 1:                      # a shared win: no one eventual side to follow
            continue
        single += 1
        units.append((probs[m], int(np.argmax(y)), steps["step"][m]))
    return {"brier": score, "reliability": reliability(probs, steps["y"]), "shape": shape_summary(units),
            "followed": single, "sampled": int(np.unique(steps["unit"]).size), "probs": probs, "model": model,
            "last": int(steps["unit"].max()),
            "features": steps["features"], "sides": steps["sides"]}


def shape_of_run(config, records: np.ndarray, sample: int = SAMPLE, points: int = POINTS,
                 check: bool = False) -> dict:
    """Everything above for one run's records (the report's section reads it); ``check``: also the
    estimate against rollouts on units after its sample (analyser.analyses.shape_check)."""
    spec, players = config.game, config.players
    out = length_and_ends(records, spec, players)
    out["orientation"] = orientation(spec, players)
    steps = sample_steps(config, records, sample, points)
    if steps is None:
        out["skipped"] = f"{spec.title}'s kit declares no step features (GameKit.step_features)"
    elif np.unique(steps["unit"]).size < 20:
        out["skipped"] = f"only {np.unique(steps['unit']).size} decided units to fit the estimate on (20 at least)"
    else:
        out["estimate"] = estimate(steps)
        out["points"] = points
        if check:
            from analyser.analyses.shape_check import rollout_check

            out["check"] = rollout_check(config, records, out["estimate"]["model"], out["estimate"]["last"])
    return out


def game_shape(game: str = "palace", policies=None, players: int | None = None, deals: int = 2000, seed: int = 0,
               rules: dict | None = None, sample: int = SAMPLE, points: int = POINTS, check: bool = False) -> dict:
    """The shape of ``game`` for one line-up (a notebook's call): one run of ``deals`` units, then
    shape_of_run on its records (see the module docstring; ``check``: the rollout check too)."""
    from analyser.analyses.simulate import simulate
    from analyser.engine.config import RunConfig

    if sample < 20:
        raise UserError(f"the estimate needs a sample of at least 20 units, not {sample}")
    result = simulate(game, players=players, policies=policies, deals=deals, seed=seed, rules=rules,
                      keep_records=True, progress=False)
    config = RunConfig.build(game, players=players, policies=policies, deals=deals, seed=seed, rules=rules)
    out = shape_of_run(config, result.records, sample, points, check)
    out["meta"] = {**result.meta, "sample": sample, "points": points}
    return out
