"""The tournament's two seatings (``tables=``): every pair in compare's arrangements, or mixed tables
of distinct policies in neighbour-balanced orders (see analyser.analyses.tournament). A Seating
holds the runs, the tally they feed and what the tournament reads from it: the watched
half-width, the per-deal cells, the fit (Bradley-Terry or Plackett-Luce) and its metadata.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from analyser.analyses.seatings import (
    arrangements,
    is_team_game,
    neighbour_orders,
    orders_text,
    seat_groups,
    table_design,
    table_seatings,
)
from analyser.errors import UserError
from analyser.stats.intervals import exact
from analyser.stats.orders import OrderTally
from analyser.stats.pairs import PairTally, pair_frame, proportion_influence
from analyser.stats.ratings import misfit_chi2

METHOD = ("Every pair of policies plays the same deals, each deal in every seat arrangement of the pair (as "
          "`compare`). M[X][Y] = mean over kept deals of x[d], x[d] = mean over the arrangements of the mean win "
          "share of X's seats (rounded to 1e-9); effective-n Wilson 95% interval over deals; the pair's difference "
          "M[X][Y] - M[Y][X] gets Tango's score interval on the deals where it is not 0, an exact tie 0 [0, 0] "
          "only for one policy under two names (0 on every deal otherwise: played identically, with the interval "
          "of the deals not seen). Ratings: Bradley-Terry, binomial GLM (logit link, statsmodels), the reference "
          "rated 0; "
          "a pair's observed proportion p = M[X][Y] / (M[X][Y] + M[Y][X]) counts as n_eff = p(1 - p) / var(p) "
          "games (var(p) by the delta method from the paired per-deal values, at most the plays), plus half a win "
          "each side. Rating intervals: ±1.96 standard errors from a sandwich clustered by deal (every pair plays "
          "the same deals), relative to the reference. Elo = 400 / ln 10 * rating. A deal aborted in any "
          "arrangement of a pair is dropped from that pair; bounds over all deals per pair: every aborted play "
          "counted as lost by X (X's seats at win share 0, Y's at 1), then as won, each with its Tango interval.")
METHOD_MIXED = ("Mixed tables: every table of distinct policies (one per seat, or per team) plays the same deals in "
                "neighbour-balanced cyclic orders, each in its rotations. M[X][Y] = mean over deals of x[d], x[d] = "
                "the share of d's plays at kept tables holding X and Y in which X finished above Y (ties half); "
                "95% interval over deals: Tango's score interval of x[d] - 1/2 on the deals where X and Y did "
                "not tie ([1/2, 1/2] only for one policy under two names). "
                "Ratings: Plackett-Luce fitted by choix (ilsr_top1) to the finishing orders (outcome rank), the "
                "reference rated 0. Ties: each policy is a top-1 choice from itself and the policies that finished "
                "strictly below it; tied policies are not compared and last place gives no choice (exactly the PL "
                "stages without ties). One pseudo choice each way "
                "per pair that met keeps ratings finite. Rating intervals: ±1.96 robust standard errors, a "
                "sandwich of the observed information and the per-deal scores (all plays of a deal are one "
                "cluster). Fit: the misfit test on the pairwise shares of the untied plays. "
                "A deal aborted in any seating of a table is dropped from that table; bounds over all deals "
                "per pair: every aborted play at a table holding both counted as X below Y, then as X above, "
                "each with its Tango interval. "
                "Elo = 400 / ln 10 * rating.")

@dataclass
class Seating:
    """One seating design: the runs (rows of (policy index per seat, stream ids)), the tally they feed, how a
    batch is added and watched, the per-deal cells (each pair's first and second policy's values, deals x
    pairs), the fit (the RatingFit, its misfit chi2 and df: ratings.misfit_chi2), and the metadata that names it."""
    rows: list
    tally: PairTally | OrderTally
    add: Callable
    widest: Callable[[], float]
    cells: Callable[[], tuple[np.ndarray, np.ndarray]]
    fit: Callable
    label: str
    per: str
    meta: dict


def pairs_seating(labels: list[str], players: int, teams) -> Seating:
    seats, streams, name = arrangements(players, teams)
    pair_index = list(combinations(range(len(labels)), 2))
    rows = [[([i if c == "A" else j for c in s], st) for s, st in zip(seats, streams, strict=True)]
            for i, j in pair_index]
    a_seats = [[i for i, c in enumerate(s) if c == "A"] for s in seats]
    b_seats = [[i for i, c in enumerate(s) if c == "B"] for s in seats]
    tally = PairTally(len(pair_index), len(seats))

    def fit():
        from analyser.stats.ratings import bradley_terry

        frame = pair_frame(tally, [(labels[i], labels[j]) for i, j in pair_index])
        a, b = tally.sides()
        influence = np.column_stack([proportion_influence(a[:, c], b[:, c]) for c in range(len(pair_index))])
        # the variance floor: a pair constant on every deal (won every time) gets var(p) = 1 / n^2, not 0
        constant = ~(influence != 0).any(axis=0)
        floor = np.where(constant, 1.0 / np.maximum(frame["deals"].to_numpy(float), 1.0), 0.0)
        influence = np.vstack([influence, np.diag(floor)])
        games = frame["effective_games"].to_numpy(float)
        part = frame["a_part"].to_numpy(float)
        result = bradley_terry(labels, frame["a"], frame["b"], part * games, (1 - part) * games,
                               reference=labels[0], influence=influence)
        return (result, *misfit_chi2(len(labels), pair_index, a, b))

    meta = {"method": METHOD,
            "arrangements": {"count": len(seats), "name": name, "seats": list(seats),
                             "streams": [list(s) for s in streams], "applies_to": "every pair (A, B)"}}
    return Seating(rows, tally, lambda p, deals, plays: tally.add(p, deals, plays, a_seats, b_seats),
                tally.widest_half_width, tally.sides, fit, f"{len(pair_index)} pairs x {len(seats)} arrangements",
                "pair", meta)


def mixed_seating(labels: list[str], players: int, teams) -> Seating:
    groups = seat_groups(teams)
    size, what = len(groups), "team" if is_team_game(groups) else "seat"
    if len(labels) < size:
        raise UserError(f"mixed tables at {players} players need at least {size} policies (one per {what}), "
                        f"not {len(labels)}")
    design, name = table_design(len(labels), size)
    rows = table_seatings(design, groups)
    slot_seats = [[[who.index(p) for p in table] for who, _ in row] for table, row in zip(design, rows, strict=True)]
    tally = OrderTally(design, len(rows[0]))

    def cells():
        shares = tally.deal_shares(len(labels))[0]
        return shares, exact(1 - shares)

    def fit():
        from analyser.stats.plackett_luce import plackett_luce

        result = plackett_luce(labels, *tally.choices(), reference=labels[0])
        shares, ties, _ = tally.deal_shares(len(labels))
        pairs = list(combinations(range(len(labels)), 2))
        return (result, *misfit_chi2(len(labels), pairs, shares - ties / 2, 1 - shares - ties / 2))

    meta = {"method": METHOD_MIXED, "fair_share": 0.5,
            "tables": {"count": len(design), "design": name, "rotations": len(rows[0]),
                       "orders": len(neighbour_orders(size)), "balance": orders_text(size, what),
                       "members": [[labels[i] for i in t] for t in design],
                       "seats": [[who for who, _ in row] for row in rows],
                       "streams": [[ids for _, ids in row] for row in rows]}}
    return Seating(rows, tally, lambda p, deals, plays: tally.add(p, deals, plays, slot_seats[p]),
                lambda: tally.widest_half_width(labels), cells, fit,
                f"{len(design)} tables x {len(rows[0])} seatings", "table", meta)


# tables= -> the seating it plays
SEATINGS: dict[str, Callable[..., Seating]] = {"pairs": pairs_seating, "mixed": mixed_seating}
