"""A cheap per-step estimate of each side's chance to be the one (the winner, or the loser), fitted on
simulated outcomes, and how to judge it.

The model is a conditional logit (McFadden): at a step, side g's chance is softmax over the sides
of x_g . beta + r x_g . gamma, with x_g the features the game declares for that side (cards left,
tokens, score, ...), r the step's progress as the game declares it, and a constant per side (so
a model with no feature effect is the base rate, the seats' own shares). One beta for every side
keeps it symmetric and small: a handful of numbers fitted by
L-BFGS (scipy.optimize) on the cross-entropy with soft labels (a shared win counts as a share),
each step weighted 1 / (steps of its unit) so every unit counts once, with a small ridge on the
standardised features.

``cross_fit`` fits on half the units and predicts the other half, both ways (two folds by unit),
so every estimate is out of sample. ``brier`` is the mean over units (each unit's mean over its
steps) of sum_g (p_g - y_g)^2, against the base rate's (the training folds' mean shares) with a
paired interval of the difference over units; ``reliability`` bins the predicted chances and shows
each bin's mean prediction against how often it came true.
"""
from __future__ import annotations

import numpy as np

from analyser.stats.intervals import values_ci, wilson

RIDGE = 1e-3
BINS = (0.0, 0.05, 0.15, 0.3, 0.5, 0.7, 0.85, 0.95, 1.0)


def _design(x: np.ndarray, progress: np.ndarray) -> np.ndarray:
    """Features (steps, sides, k), the same times the step's progress (so a feature may weigh more
    late than early), and a constant per side but the first."""
    n, g, _ = x.shape
    sides = np.broadcast_to(np.eye(g)[None, :, 1:], (n, g, g - 1))
    return np.concatenate([x, x * np.asarray(progress, float)[:, None, None], sides], axis=2)


class Evaluator:
    """A fitted conditional logit: ``predict(features) -> chances`` (steps x sides, rows summing to 1)."""

    def __init__(self, beta: np.ndarray, centre: np.ndarray, scale: np.ndarray):
        self.beta, self.centre, self.scale = beta, centre, scale

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray, w: np.ndarray, progress: np.ndarray, ridge: float = RIDGE) -> Evaluator:
        from scipy.optimize import minimize

        x = np.asarray(x, float)
        centre = x.mean(axis=(0, 1))
        scale = x.std(axis=(0, 1))
        scale[scale == 0] = 1.0
        d = _design((x - centre) / scale, progress)
        w = np.asarray(w, float) / np.sum(w)

        def loss(beta):
            u = d @ beta
            u -= u.max(axis=1, keepdims=True)
            logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
            p = np.exp(logp)
            value = -np.sum(w[:, None] * y * logp) + ridge * beta @ beta
            grad = np.einsum("n,ng,ngk->k", w, p - y, d) + 2 * ridge * beta
            return value, grad

        beta = minimize(loss, np.zeros(d.shape[2]), jac=True, method="L-BFGS-B").x
        return cls(beta, centre, scale)

    def predict(self, x: np.ndarray, progress: np.ndarray) -> np.ndarray:
        u = _design((np.asarray(x, float) - self.centre) / self.scale, progress) @ self.beta
        u -= u.max(axis=1, keepdims=True)
        e = np.exp(u)
        return e / e.sum(axis=1, keepdims=True)


def cross_fit(x: np.ndarray, y: np.ndarray, unit: np.ndarray, progress: np.ndarray,
              folds: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-sample chances and base rates for every step: units split into ``folds`` by their order,
    each fold predicted by the model (and the mean shares) of the others. ``x`` (steps, sides, k),
    ``y`` (steps, sides), ``unit`` (steps,) the unit each step belongs to, ``progress`` (steps,) how
    far the unit has gone by what the step shows (0 to 1, never its future: the game declares it)."""
    units, inverse, counts = np.unique(unit, return_inverse=True, return_counts=True)
    w = 1.0 / counts[inverse]
    fold = inverse % folds
    probs, base = np.zeros_like(y, dtype=float), np.zeros_like(y, dtype=float)
    for f in range(folds):
        train, test = fold != f, fold == f
        model = Evaluator.fit(x[train], y[train], w[train], progress[train])
        probs[test] = model.predict(x[test], progress[test])
        base[test] = np.average(y[train], axis=0, weights=w[train])
    return probs, base


def brier(probs: np.ndarray, base: np.ndarray, y: np.ndarray, unit: np.ndarray) -> dict:
    """The Brier score (sum over sides of the squared error, each unit's mean over its steps, then the
    mean over units) of the chances and of the base rate, and the base rate's minus the chances' with
    a 95% interval over units (positive: the estimate is better); ``skill`` is 1 - B / B_base."""
    _, inverse = np.unique(unit, return_inverse=True)
    per_step = np.stack([((probs - y) ** 2).sum(axis=1), ((base - y) ** 2).sum(axis=1)])
    per_unit = np.stack([np.bincount(inverse, weights=s) / np.bincount(inverse) for s in per_step])
    gain = values_ci(per_unit[1] - per_unit[0])
    b, b0 = float(per_unit[0].mean()), float(per_unit[1].mean())
    return {"brier": b, "base": b0, "gain": gain["mean"], "gain_ci_low": gain["low"], "gain_ci_high": gain["high"],
            "skill": 1 - b / b0 if b0 > 0 else float("nan"), "units": int(per_unit.shape[1])}


def reliability(probs: np.ndarray, y: np.ndarray, bins=BINS) -> list[dict]:
    """Per bin of predicted chance: how many (side, step) predictions, their mean, and the share that
    came true (the mean outcome) with a Wilson interval at the bin's count (steps of a unit are not
    independent, so the interval is narrower than the truth: a guide, not a test)."""
    p, o = np.ravel(probs), np.ravel(y)
    which = np.clip(np.digitize(p, bins[1:-1]), 0, len(bins) - 2)
    rows = []
    for b in range(len(bins) - 1):
        m = which == b
        k = int(m.sum())
        if not k:
            continue
        seen = float(o[m].mean())
        low, high = wilson(seen * k, k)
        rows.append({"bin": f"{bins[b]:.2f}-{bins[b + 1]:.2f}", "predictions": k, "predicted": float(p[m].mean()),
                     "observed": seen, "ci_low": float(low), "ci_high": float(high)})
    return rows
