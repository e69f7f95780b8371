"""The per-step estimate checked against rollouts, on units it was not fitted on.

At a few evenly spaced steps of each of ``units`` decided units that follow the estimate's sample in
the run, the position is played out ``worlds`` times by the game's compiled ``play_worlds`` (its
RolloutKit), the line-up's policies playing on (the seat to move plays what its policy chose), each
world with the cards no seat sees shuffled anew (analyser.games.kit.shuffle_hidden: the stock's order,
face-down cards; every hand kept; one re-deal for every PLAYS worlds, as re-dealing is the costly part)
and its random streams its own (analyser.kernels.worlds: later deals too). A side's rollout chance
is its share of the worlds (a drawn or aborted world counts for no side).
Both estimates then meet the units' true outcomes: the Brier score of each, the rollout's minus the
cheap one's with a 95% interval over units, and their mean absolute difference per side and step.
Rollouts see every hand, so they know more than any seat: the check is of what the cheap features miss.
"""
from __future__ import annotations

import numpy as np

from analyser.games.kit import shuffle_hidden
from analyser.stats.intervals import values_ci
from analyser.stats.sides import group_features, targets

UNITS = 30
STEPS = 6
WORLDS = 64
PLAYS = 4                      # each re-deal is played out by this many worlds, each with its own streams
CHECK_SEED = 33                # the rollouts' own seed: their worlds share no stream with the run


def rollout_check(config, records: np.ndarray, model, after: int, units: int = UNITS, steps: int = STEPS,
                  worlds: int = WORLDS) -> dict | None:
    """The check (module docstring) on the decided records after index ``after`` of ``records`` (the
    run of ``config``); ``model`` the fitted analyser.stats.evaluator.Evaluator. None when the game's
    kit plays no worlds."""
    from analyser.analyses.rollout import fresh, plays_worlds
    from analyser.engine.local import ChunkRunner
    from analyser.games.common import quiet_first_class

    spec, players = config.game, config.players
    kit = spec.kit() if spec.kit is not None else None
    if not plays_worlds(kit):
        return None
    y_all = targets(records, spec, players)
    chosen = [i for i in np.flatnonzero(y_all.sum(axis=1) > 0) if i > after][:units]
    runner = ChunkRunner(config)
    rng = np.random.default_rng([CHECK_SEED, config.seed])
    cheap, rolled, truth, unit_of = [], [], [], []
    with quiet_first_class():
        for i in chosen:
            play = (config.seed, int(records["unit"][i]), players, runner.settings, runner.fns, runner.params,
                    runner.streams)
            n = sum(1 for _ in kit.play(*play))
            at = set(np.round(np.linspace(0, n - 1, steps + 2)[1:-1]).astype(int).tolist())
            for t, position in enumerate(kit.play(*play)):
                decision = position.decision(forced=True) if t in at else None
                if decision is None:
                    continue
                seat, args = decision
                action = int(runner.fns[seat](*fresh(args), runner.params[seat]))
                seen = set().union(*(position.seen_by(s) for s in range(players)))
                places = position.locations()
                dealt = [position.relocate(shuffle_hidden(places, seen, rng)) for _ in range(worlds // PLAYS)]
                world = [w for w in dealt for _ in range(PLAYS)]      # each re-deal played with PLAYS streams
                out, _ = kit.play_worlds(world, np.array([action]), runner.fns, runner.params, runner.settings,
                                         CHECK_SEED, (int(i) * 64 + t) * worlds)
                x, progress = kit.step_features(position)
                cheap.append(model.predict(group_features(x, spec, players)[None], np.array([progress]))[0])
                rolled.append(targets(out[:, 0], spec, players).mean(axis=0))
                truth.append(y_all[i])
                unit_of.append(i)
    if not cheap:
        return None
    cheap, rolled, truth, unit_of = map(np.array, (cheap, rolled, truth, unit_of))
    err = np.stack([((cheap - truth) ** 2).sum(axis=1), ((rolled - truth) ** 2).sum(axis=1)])
    _, inverse = np.unique(unit_of, return_inverse=True)
    per_unit = np.stack([np.bincount(inverse, weights=e) / np.bincount(inverse) for e in err])
    gain = values_ci(per_unit[0] - per_unit[1])
    return {"units": int(per_unit.shape[1]), "steps": int(len(cheap)), "worlds": worlds,
            "brier_cheap": float(per_unit[0].mean()), "brier_rollout": float(per_unit[1].mean()),
            "gain": gain["mean"], "gain_ci_low": gain["low"], "gain_ci_high": gain["high"],
            "mean_abs_difference": float(np.abs(cheap - rolled).mean())}
