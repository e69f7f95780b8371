"""Plackett-Luce ratings from finishing orders: choix fits them; the interval allows for shared deals.

Plackett-Luce: a finishing order is a sequence of choices, the best first,
each from the policies not yet placed, with P(x chosen from S) = w_x / sum_S w.
A policy's rating is beta = log w, the reference's fixed at 0. Two policies
alone follow Bradley-Terry, P(x above y) = 1 / (1 + exp(-(beta_x - beta_y))),
so ratings and the Elo scale (400 / ln 10 * beta) read as in
analyser.stats.ratings. In a team game the items are teams of one policy.

Ties (``top1_choices``): every policy that finished strictly above at least
one other is *chosen from itself and every policy that finished strictly below
it*. Policies tied with it are in neither its choice nor it in theirs; the last
place, and a table where all tie, give no choice. An order without ties gives
exactly the Plackett-Luce stages, so the product is the PL likelihood and the
estimate its maximum. With ties the product is a composite likelihood, a
convention rather than the likelihood of a model of ties: it uses every "x
finished above all of L" the order shows, treats tied policies alike (no seat
or input order breaks a tie), and the robust interval below does not assume it
is a true likelihood. Palace ranks by the order of going out (rank = place,
the loser last, no ties), so its orders are the plain PL stages; ranks that
tied every non-loser at 1 would give each non-loser chosen over the loser,
n - 1 choices of two (the stages before the first tie alone would give
nothing). Enemy Anemone (ranks by match score, ties possible): the stages of
the strict order, and tied policies each chosen over those below them.

Fit: ``choix.ilsr_top1`` (iterative Luce spectral ranking: the maximum-
likelihood estimate) on one row per choice, plus PSEUDO choice each way for
every two policies that were ever in one choice set, so a policy that always
finishes first keeps a finite rating (against thousands of choices it moves
nothing).

Interval: a sandwich over deals. H is the observed information (minus the
Hessian of the log-likelihood above, pseudo choices included) at choix's
estimate; s_c is the score of cluster c, all the choices of one deal (every
table and rotation plays the same deals, so they are dependent);
V = H^-1 (C / (C - 1) sum_c s_c s_c^T) H^-1 over the ratings other than the
reference (scipy.linalg), and a rating's 95% interval is beta +- z sqrt(V_ii),
relative to the reference. ``variance_ratio`` is the mean of V's diagonal over
H^-1's: how far the shared deals and the composite likelihood move the naive
interval (below 1 the duplicate deals narrow it).
"""
from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import version

import numpy as np

from analyser.stats.intervals import Z95
from analyser.stats.ratings import RatingFit, connected, rating_table

PSEUDO = 1
TIES = ("each policy is chosen from itself and the policies that finished strictly below it (ties: neither chosen "
        "over the other; last place gives no choice)")


def model_name() -> str:
    return f"Plackett-Luce (choix {version('choix')} ilsr_top1)"


def top1_choices(ranks: np.ndarray, items: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(winner, losers, row)`` of every choice in ``ranks`` (plays x slots, 1 = best) whose
    slots hold ``items`` (same shape, or one row for every play): losers is a bit mask of items."""
    ranks = np.asarray(ranks)
    items = np.broadcast_to(np.asarray(items, np.int64), ranks.shape)
    bits = np.left_shift(np.int64(1), items)
    winners, losers, rows = [], [], []
    for i in range(ranks.shape[1]):
        mask = ((ranks > ranks[:, i: i + 1]) * bits).sum(axis=1)
        row = np.flatnonzero(mask)
        winners.append(items[row, i])
        losers.append(mask[row])
        rows.append(row)
    return np.concatenate(winners), np.concatenate(losers), np.concatenate(rows)


def plackett_luce(names: Sequence[str], winners: Sequence[int], losers: Sequence[int], clusters: Sequence[int],
                  reference: str | None = None, z: float = Z95) -> RatingFit:
    """Fit Plackett-Luce strengths to top-1 choices (see the module).

    winners: the item chosen (an index into names); losers: a bit mask of the items it was chosen
    over; clusters: the deal of each choice. reference: the item rated 0 (default: the first).
    """
    import choix
    from scipy import linalg

    names = [str(n) for n in names]
    k = len(names)
    if k < 2 or len(set(names)) != k or k > 62:
        raise ValueError(f"ratings need 2 to 62 distinct names, not {names}")
    ref_name = names[0] if reference is None else str(reference)
    if ref_name not in names:
        raise ValueError(f"the reference {reference!r} is not among {names}")
    ref = names.index(ref_name)
    winners, losers = np.asarray(winners, np.int64), np.asarray(losers, np.int64)
    if winners.size == 0:
        raise ValueError("no finishing order puts one policy above another")
    keys, inverse, counts = np.unique(np.column_stack([winners, losers]), axis=0, return_inverse=True,
                                      return_counts=True)
    sets = [[int(w)] + [i for i in range(k) if mask >> i & 1] for w, mask in keys]
    pairs = sorted({(a, b) for s in sets for a in s for b in s if a < b})
    if not connected(k, np.array([a for a, _ in pairs]), np.array([b for _, b in pairs])):
        raise ValueError("the finishing orders do not connect every policy: their ratings are not comparable")
    rows = [(s, int(c)) for s, c in zip(sets, counts, strict=True)]
    rows += [(s, PSEUDO) for a, b in pairs for s in ([a, b], [b, a])]
    data = [entry for s, c in rows for entry in [(s[0], np.array(s[1:]))] * c]
    try:
        params = np.asarray(choix.ilsr_top1(k, data, max_iter=1000), float)
    except RuntimeError as err:
        raise ValueError(f"the Plackett-Luce fit did not converge: {err}") from None
    info, scores = np.zeros((k, k)), np.zeros((len(sets), k))
    for j, (s, c) in enumerate(rows):
        p = np.exp(params[s] - params[s].max())
        p /= p.sum()
        info[np.ix_(s, s)] += c * (np.diag(p) - np.outer(p, p))
        if j < len(sets):
            scores[j, s] -= p
            scores[j, s[0]] += 1
    _, cluster = np.unique(np.asarray(clusters), return_inverse=True)
    per = np.column_stack([np.bincount(cluster, weights=scores[inverse.ravel(), i]) for i in range(k)])
    free = [i for i in range(k) if i != ref]
    naive = linalg.inv(info[np.ix_(free, free)])
    c = per.shape[0]
    meat = per[:, free].T @ per[:, free] * (c / (c - 1) if c > 1 else np.nan)
    robust = naive @ meat @ naive
    beta, se = params - params[ref], np.zeros(k)
    se[free] = np.sqrt(np.maximum(np.diag(robust), 0))
    stats = {"choices": int(winners.size), "pseudo_choices": 2 * PSEUDO * len(pairs), "clusters": int(c),
             "variance_ratio": float(np.mean(np.diag(robust) / np.diag(naive))), "ties": TIES,
             "interval": "sandwich over deals (observed information, per-deal scores)"}
    return RatingFit(rating_table(names, beta, se, z), model_name(), names[ref], True, stats, names)
