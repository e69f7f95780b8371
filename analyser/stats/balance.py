"""Seat and game balance, under the names of Ludii's metrics where they apply.

Everything here reads a Tally (sums and counts that merge exactly), so the
figures are the same for any chunking and for a results file read back by
``analyser show``. Each function says how it relates to Ludii's metric of the
same name (Ludii's ``metrics.single.outcome`` and ``metrics.single.complexity``
packages). The common differences:

- Ludii scores a multi-player result as a partial win from the rank (the
  utility (rank-based, -1..1) mapped to 0..1); here a seat's result is the
  game's own win share from the outcome block (1/k for k tied winners; in
  Palace 1 for every seat but the loser).
- Ludii divides by all trials; here rates are over completed units (units
  that hit the action cap are aborted and counted apart), except completion.
- Ludii's seats are fixed players who also move in a fixed order; here seats
  are fixed but who moves first varies from unit to unit.

A figure that cannot be computed (no completed unit, no ``first`` field, no
``decisions`` column) is NaN, which the JSON writes as null.
"""
from __future__ import annotations

from statistics import NormalDist

import numpy as np

from analyser.stats.tally import Tally, share_interval

NAN = float("nan")


def _rate(k: float, n: int) -> float:
    return k / n if n else NAN


def _mean_with_interval(total: float, squares: float, n: int, z: float | None = None):
    """(mean, low, high) of values in [0, 1] from their sum and sum of squares (tally.share_interval:
    Wilson's interval when every value was 0 or 1, else within [0, 1] with the variance floor)."""
    if n == 0:
        return NAN, NAN, NAN
    low, high = share_interval(total, squares, n, **({} if z is None else {"z": z}))
    return float(total / n), float(low), float(high)


def fair_share(tally: Tally) -> float:
    """What a seat wins per completed unit if no seat is favoured: the mean over
    seats of their win shares. Every decided unit hands out the game's
    ``win_total`` (1; Palace players - 1; a team's size in team games), so this
    is ``win_total / players`` when there are no draws, and less by the draw
    rate otherwise (a draw gives every seat 0, the first mover included)."""
    if tally.completed == 0:
        return NAN
    return float(tally.sums["seat", "win"].sum() / (tally.completed * tally.players))


def first_player_advantage(tally: Tally) -> dict:
    """The first mover's win share, and its excess over the fair share, with 95% intervals.

    Ludii's "Advantage" (AdvantageP1) is the win rate of player 1, who in
    Ludii's alternating-move games is also the one who moves first; 0.5 is fair
    between two players. Here seats are fixed and the first mover varies (a
    game's record names it in a field ``first``: Palace the seat that played
    first, Enemy Anemone the first hand's starter), so this follows the mover,
    not a seat: ``first_mover_win_rate`` is the win share of whichever seat
    moved first (Ludii's figure, read per mover), and ``advantage`` is that
    minus the fair share (see fair_share()), so 0 is fair at any player count
    and in Palace, where three of four seats win. The interval is the first
    mover's (tally.share_interval) shifted by the fair share,
    taken as known (it is exactly win_total / players without draws). Not
    available (NaN) for a record without ``first``.
    """
    n = tally.first_units
    if not tally.first_mover or n == 0:
        rate = low = high = NAN
    else:
        rate, low, high = _mean_with_interval(tally.first_win_sum, tally.first_win_square, n)
    fair = fair_share(tally)
    return {"first_mover_units": n, "first_mover_win_rate": rate, "first_mover_win_ci_low": low,
            "first_mover_win_ci_high": high, "fair_share": fair, "advantage": rate - fair,
            "advantage_ci_low": low - fair, "advantage_ci_high": high - fair}


def balance(tally: Tally) -> dict:
    """Ludii's "Balance": 1 minus the largest gap between two seats' win rates, over seats.

    Ludii compares players' partial wins from ranks; this compares the seats'
    win shares (the per-seat table's win share). A seat's share is at most 1
    whatever the game's win total (Palace: 3 of 4 seats win; a team game:
    partners each win 1), and one seat may win every unit while another wins
    none, so the gap lies in [0, 1] and Balance keeps Ludii's range and meaning
    in every game: 1 = equal seats, 0 = one seat always wins and another never
    does. Normalising the gap by the largest one the outcome allows is therefore
    dividing by 1, and it is left as it is; dividing by the fair share instead
    (win_total / players) would put Balance below 0 and lose that meaning.

    Sampling noise: the estimated gap is biased upward (the largest of several
    noisy shares minus the smallest), so with equal seats Balance falls short of
    1 by a few standard errors. The interval is conservative rather than
    normal-theory on the gap: simultaneous 95% intervals for the seats' shares
    (Bonferroni: each at 1 - 0.05/players; tally.share_interval), from which
    the true gap lies in [max(0, max low - min high), max high - min low], so
    Balance lies in [1 - that upper end, 1 - the lower end] with at least 95%
    confidence. A bootstrap would need the records.
    """
    n, players = tally.completed, tally.players
    if n == 0 or players < 2:
        return {"balance": NAN, "balance_ci_low": NAN, "balance_ci_high": NAN, "balance_gap": NAN}
    z = NormalDist().inv_cdf(1 - 0.025 / players)
    bounds = [_mean_with_interval(tally.sums["seat", "win"][s], tally.squares["seat", "win"][s], n, z)
              for s in range(players)]
    share, low, high = np.array(bounds).T
    gap = float(share.max() - share.min())
    gap_low = max(0.0, float(low.max() - high.min()))
    gap_high = min(1.0, float(high.max() - low.min()))
    return {"balance": 1.0 - gap, "balance_ci_low": 1.0 - gap_high, "balance_ci_high": 1.0 - gap_low,
            "balance_gap": gap}


def decision_moves(tally: Tally) -> float:
    """Ludii's "Decision Moves": the share of moves where the mover had more than one legal move.

    Read from a game's per-unit column named ``decisions`` (policy calls with a
    real choice) over the record's ``length``, pooled over completed units as
    sum(decisions) / sum(length); Ludii averages each trial's share instead
    (the same when every unit has one length, as Enemy Anemone's matches at a
    given player count). What a move is follows the game's length: Enemy
    Anemone counts plays and discards, one choice each, so this is Ludii's
    figure; Palace's length counts swaps, plays and pickups, and its decisions
    also count each seat's choice to end its swaps, which is no action, so
    Palace's figure runs a little high (at most players extra per game).
    NaN when the game declares no per-unit ``decisions`` column.
    """
    if "decisions" not in tally.unit_quantities:
        return NAN
    moves = float((tally.length_hist * np.arange(tally.length_hist.size)).sum())
    return tally.unit_sums["decisions"] / moves if moves else NAN


def endings(tally: Tally) -> dict:
    """How units ended, generic part: Ludii's "Completion" and "Drawishness", and shared wins.

    ``completion`` is the share of units not aborted (Ludii's Completion also
    leaves out draws: "games which have a winner"; that is ``outright_wins``
    plus ``shared_wins`` over ``units``). ``drawishness`` is the draw share of
    completed units (the ``draw_rate``; Ludii divides by all trials).
    ``shared_wins`` counts completed units where two or more seats have a win
    share strictly between 0 and 1: a win shared between tied seats (or tied
    teams) in a game with one winner. In Palace shares are 0 or 1 (every seat
    but the loser wins), so it is 0 there. ``outright_wins`` is the rest of the
    completed units, decided without a draw or a split. The game's own per-unit
    rate columns (Enemy Anemone's ``tiebreak``) are in the run figures beside.
    """
    done = tally.completed
    outright = done - tally.draws - tally.shared_wins
    return {"completion": _rate(done, tally.units), "drawishness": _rate(tally.draws, done),
            "shared_wins": tally.shared_wins, "shared_win_rate": _rate(tally.shared_wins, done),
            "outright_wins": outright, "outright_win_rate": _rate(outright, done)}


def balance_figures(tally: Tally) -> dict:
    """Every figure above, plus Ludii's "Duration" (the mean length of completed
    units, in the game's own steps: Ludii counts turns or moves), for run_figures."""
    return {**endings(tally), "duration": tally.length_mean_sd()[0], **first_player_advantage(tally),
            **balance(tally), "decision_moves": decision_moves(tally)}
