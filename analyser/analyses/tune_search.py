"""A tuning's search over its space (see analyser.analyses.tune): Optuna's TPE or random sampler
with its Wilcoxon pruner, or an NTBEA-style bandit search for small discrete spaces.

Every trial is kept in an Optuna study, in memory or in a JournalStorage file under the study
directory, so a study that was stopped resumes. Its numbers depend on the seed alone:

- a trial's sampler is seeded from (seed, run, k), k the count of the run's finished trials (a
  trial cut by Ctrl-C is marked failed when the study resumes, and it is never counted), so the
  k-th trial of a resumed study is suggested as the uninterrupted one was;
- a trial plays the search stream's blocks of duplicate deals in an order shuffled from (seed, run,
  k); each block is one instance of Optuna's WilcoxonPruner (the step is the block's index), so a
  trial is stopped when it is worse than the best trial on the blocks both played.

NTBEA (the N-Tuple Bandit Evolutionary Algorithm, Lucas, Liu and Perez-Liebana 2018, as TAG runs it):
a model of the mean per value of each parameter and per pair of values of each two parameters; each
step mutates the current point into neighbours, evaluates the one of highest upper confidence bound
on one block, and moves there. Several independent runs; each run's candidates are its evaluated
points ranked by the model's mean (what the run recommends).
"""
from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyser.errors import UserError

OPTIMIZERS = ("tpe", "ntbea", "random")
PRUNE_P = 0.1                 # WilcoxonPruner's p threshold
NEIGHBOURS = 50               # NTBEA: mutations of the current point looked at per step
STUDY_FILE = "study.log"


@dataclass(frozen=True)
class Space:
    """The tuned parameters and each one's values; ``default``: the policy's defaults."""
    names: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    default: tuple[float, ...]

    @property
    def size(self) -> int:
        return math.prod(len(v) for v in self.values)


def trial_seed(seed: int, run: int, k: int) -> int:
    """A 32-bit seed from (seed, run, k): a trial's sampler and its block order."""
    return int(np.random.SeedSequence([seed, run, k]).generate_state(1)[0])


def load_optuna():
    """Optuna, imported without tqdm's warning that a notebook lacks ipywidgets (Optuna draws no bar here)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="IProgress not found")
        import optuna
    return optuna


@contextmanager
def quiet_optuna():
    """Optuna's per-trial log lines off while a search runs (restored after)."""
    optuna = load_optuna()
    before = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        yield optuna
    finally:
        optuna.logging.set_verbosity(before)


def _storage(study_dir: Path | None):
    optuna = load_optuna()
    from optuna.storages.journal import JournalFileBackend, JournalStorage

    if study_dir is None:
        return optuna.storages.InMemoryStorage()
    study_dir = Path(study_dir)
    if study_dir.exists() and not study_dir.is_dir():
        raise UserError(f"--study {study_dir} is a file: give a directory (it holds {STUDY_FILE})")
    if not study_dir.parent.is_dir():
        raise UserError(f"cannot make the study directory {study_dir}: no directory {study_dir.parent}")
    study_dir.mkdir(exist_ok=True)
    return JournalStorage(JournalFileBackend(str(study_dir / STUDY_FILE)))


def _suggest(trial, name: str, values: tuple[float, ...]) -> float:
    """A value of ``name`` as Optuna's distributions see it: a whole-number range as an int range, an evenly
    stepped one as a stepped float range, any other list as categories."""
    steps = np.diff(values)
    if len(values) > 2 and np.allclose(steps, steps[0]) and steps[0] > 0 or len(values) == 2 and values[1] > values[0]:
        whole = all(float(v).is_integer() for v in values) and float(steps[0]).is_integer()
        if whole:
            got = trial.suggest_int(name, int(values[0]), int(values[-1]), step=int(steps[0]))
        else:
            got = trial.suggest_float(name, values[0], values[-1], step=float(steps[0]))
        return min(values, key=lambda v: abs(v - got))
    return float(trial.suggest_categorical(name, list(values)))


def _sampler(optimizer: str, seed: int, startup: int):
    """The trial's sampler; TPE samples at random for its first ``startup`` trials (Optuna's 10, fewer when the
    budget holds fewer than 40 full trials: a quarter of them, at least 3)."""
    import optuna

    if optimizer == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    return optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup)


class Search:
    """One study per run; ``evaluate(point, block) -> float`` scores a point on one search block."""

    def __init__(self, space: Space, evaluate: Callable[[dict, int], float], *, optimizer: str, budget: int,
                 block: int, blocks: int, seed: int, runs: int, study_dir=None, identity: dict | None = None):
        self.space, self.evaluate, self.optimizer = space, evaluate, optimizer
        self.budget, self.block, self.blocks, self.seed, self.runs = budget, block, blocks, seed, runs
        self.storage, self.identity = _storage(study_dir), identity or {}

    def _study(self, run: int):
        import optuna
        from optuna.pruners import NopPruner, WilcoxonPruner

        with warnings.catch_warnings():             # experimental in Optuna 4 and 5: said once, in the docs
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            pruner = NopPruner() if self.optimizer == "ntbea" else WilcoxonPruner(p_threshold=PRUNE_P)
        study = optuna.create_study(storage=self.storage, study_name=f"{self.optimizer}-{run}", direction="maximize",
                                    pruner=pruner, load_if_exists=True)
        made_for = study.user_attrs.get("identity")
        if made_for is None:
            study.set_user_attr("identity", self.identity)
        elif made_for != self.identity:
            changed = sorted(k for k in set(made_for) | set(self.identity) if made_for.get(k) != self.identity.get(k))
            raise UserError(f"the study directory holds another tuning (it differs in {', '.join(changed)}); "
                            f"give another --study directory")
        for t in study.get_trials(deepcopy=False):     # cut by Ctrl-C: never counted
            if t.state == optuna.trial.TrialState.RUNNING:
                study.tell(t.number, state=optuna.trial.TrialState.FAIL)
        return study

    def run(self) -> list[dict]:
        """Every run's finished trials: run, number, k, state, params, values (per block), blocks, value."""
        share = self.budget // self.runs
        with quiet_optuna():
            out = []
            for run in range(self.runs):
                study = self._study(run)
                if self.optimizer == "ntbea":
                    self._ntbea(study, run, share)
                else:
                    self._optuna(study, run, share)
                out += trials_of(study, run)
        return out

    def _finished(self, study) -> list:
        import optuna

        done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
        return [t for t in study.get_trials(deepcopy=False, states=done)]

    def _optuna(self, study, run: int, budget: int) -> None:
        import optuna

        while True:
            finished = self._finished(study)
            room = (budget - sum(t.user_attrs["deals"] for t in finished)) // self.block
            if room < 1:
                return
            k = len(finished)
            startup = min(10, max(3, budget // (self.block * self.blocks) // 4))
            study.sampler = _sampler(self.optimizer, trial_seed(self.seed, run, k), startup)
            trial = study.ask()
            point = {n: _suggest(trial, n, v) for n, v in zip(self.space.names, self.space.values, strict=True)}
            order = np.random.default_rng(trial_seed(self.seed, run, k)).permutation(self.blocks)
            values = []
            for b in order[:room]:             # the budget's last trial may be cut short: counted as pruned
                values.append(self.evaluate(point, int(b)))
                trial.report(values[-1], step=int(b))
                if len(values) < self.blocks and trial.should_prune():
                    break
            pruned = len(values) < self.blocks
            trial.set_user_attr("deals", self.block * len(values))
            trial.set_user_attr("k", k)
            trial.set_user_attr("blocks", [int(b) for b in order[: len(values)]])
            trial.set_user_attr("values", values)
            if pruned:
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            else:
                study.tell(trial, float(np.mean(values)))

    def _ntbea(self, study, run: int, budget: int) -> None:
        model = TupleModel(self.space)
        current = None
        for t in self._finished(study):                 # a resumed study: the model rebuilt in order
            model.add(t.user_attrs["point"], t.user_attrs["values"][0])
            current = t.user_attrs["point"]
        while True:
            k = model.count
            if (k + 1) * self.block > budget:
                return
            rng = np.random.default_rng(trial_seed(self.seed, run, k))
            if current is None:
                current = [int(rng.integers(len(v))) for v in self.space.values]
            else:
                current = model.pick(current, rng)
            point = {n: self.space.values[i][j] for i, (n, j) in enumerate(zip(self.space.names, current, strict=True))}
            b = int(np.random.default_rng(trial_seed(self.seed, run, k // self.blocks)).permutation(self.blocks)
                    [k % self.blocks])
            study.enqueue_trial(point)
            trial = study.ask()
            for n, v in zip(self.space.names, self.space.values, strict=True):
                _suggest(trial, n, v)
            value = self.evaluate(point, b)
            model.add(current, value)
            for key, item in (("deals", self.block), ("k", k), ("blocks", [b]), ("values", [value]),
                              ("point", current)):
                trial.set_user_attr(key, item)
            study.tell(trial, value)


def trials_of(study, run: int) -> list[dict]:
    out = []
    for t in study.get_trials(deepcopy=False):
        if t.state.name not in ("COMPLETE", "PRUNED"):
            continue
        out.append({"run": run, "number": t.number, "k": t.user_attrs["k"], "state": t.state.name.lower(),
                    "params": {k: float(v) for k, v in t.params.items()}, "blocks": t.user_attrs["blocks"],
                    "values": t.user_attrs["values"], "value": float(np.mean(t.user_attrs["values"])),
                    "point": t.user_attrs.get("point")})
    return out


def ranked(space: Space, trials: list[dict], optimizer: str, run: int) -> list[tuple[dict, float]]:
    """A run's distinct points, best first, each with its search estimate: for TPE and random search the
    mean of its completed trials' blocks; for NTBEA the model's mean (what the run recommends)."""
    mine = [t for t in trials if t["run"] == run]
    if optimizer == "ntbea":
        model = TupleModel(space)
        for t in sorted(mine, key=lambda t: t["k"]):
            model.add(t["point"], t["values"][0])
        points = {tuple(t["point"]): t["params"] for t in mine}
        scored = [(params, model.estimate(list(key))) for key, params in points.items()]
    else:
        pooled: dict = {}
        for t in mine:
            if t["state"] == "complete":
                pooled.setdefault(tuple(sorted(t["params"].items())), []).extend(t["values"])
        scored = [(dict(key), float(np.mean(v))) for key, v in pooled.items()]
    return sorted(scored, key=lambda item: -item[1])


class TupleModel:
    """NTBEA's model: per 1-tuple and 2-tuple of parameter values, the sum and count of the values seen."""

    def __init__(self, space: Space):
        d = len(space.names)
        self.space = space
        self.tuples = [(i,) for i in range(d)] + list(itertools.combinations(range(d), 2))
        self.stats: dict = {}
        self.count, self.values = 0, []

    def add(self, point, value: float) -> None:
        self.count += 1
        self.values.append(value)
        for tup in self.tuples:
            key = (tup, tuple(point[i] for i in tup))
            s, n = self.stats.get(key, (0.0, 0))
            self.stats[key] = (s + value, n + 1)

    def estimate(self, point) -> float:
        """The model's mean at ``point``: the average over its tuples seen of their means."""
        means = [s / n for tup in self.tuples if (s_n := self.stats.get((tup, tuple(point[i] for i in tup))))
                 for s, n in [s_n]]
        return float(np.mean(means)) if means else -math.inf

    def ucb(self, point, c: float) -> float:
        total = 0.0
        for tup in self.tuples:
            s, n = self.stats.get((tup, tuple(point[i] for i in tup)), (0.0, 0))
            total += (s / n if n else 0.0) + c * math.sqrt(math.log(self.count + 1) / (n + 1e-6))
        return total / len(self.tuples)

    def pick(self, current, rng) -> list[int]:
        """The neighbour of ``current`` (each parameter mutated with chance 1/d, at least one) of highest UCB;
        c is the spread of the values seen, so it keeps the values' scale."""
        d = len(current)
        c = float(np.std(self.values)) if len(self.values) > 1 else 1.0
        c = c if c > 0 else 1.0
        best, best_value = None, -math.inf
        for _ in range(NEIGHBOURS):
            moved = rng.random(d) < 1.0 / d
            moved[rng.integers(d)] = True
            point = [int(rng.integers(len(self.space.values[i]))) if moved[i] else current[i] for i in range(d)]
            value = self.ucb(point, c)
            if value > best_value:
                best, best_value = point, value
        return best
