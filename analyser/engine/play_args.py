"""The arguments every analysis that plays units checks alike (simulate, compare, tournament,
sweep, vary, report), checked once and in one order: where the units are played, how many (a
count, or a first batch and a cap for a precision target), from which unit, in what chunks,
and the game, players, rules and seed of a first configuration.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from analyser.engine.backend import check_backend
from analyser.engine.config import DEFAULT_CHUNK, RunConfig
from analyser.engine.run_dir import open_run_dir
from analyser.engine.stopping import (
    DEFAULT_MAX_COUNT,
    StopRule,
    check_chunk_size,
    check_precision,
    count_and_cap,
    first_unit,
    one_count,
    stop_rule,
)


@dataclass(frozen=True)
class PlayArgs:
    """The checked arguments (see :func:`play_args`)."""
    base: RunConfig            # one unit of the first policies: the game as simulated, players, rules, seed
    count: int                 # the first batch: every unit without a precision target
    cap: int                   # the most units a configuration plays (the count without a precision target)
    precision: float | None
    first_deal: int
    chunk_size: int
    backend: object            # as check_backend gives it
    run_dir: Path | None

    @property
    def unit(self) -> str:
        return self.base.game.unit

    @property
    def where(self) -> dict:
        """pipeline.execute's keywords for where the chunks are played and kept."""
        return {"backend": self.backend, "run_dir": self.run_dir}

    def stop_rule(self, half_width: Callable[[], float]) -> StopRule:
        """The stop rule of the precision target (over ``half_width``), or FIXED without one."""
        return stop_rule(self.precision, self.cap, half_width)


def checked_where(backend, run_dir) -> dict:
    """pipeline.execute's ``backend`` and ``run_dir``, checked before anything is compiled."""
    return {"backend": check_backend(backend), "run_dir": open_run_dir(run_dir)}


def play_args(game, players, policies, seed, rules, unit, *, n=None, deals=None, precision=None,
              max_deals=DEFAULT_MAX_COUNT, first_deal=0, chunk_size=DEFAULT_CHUNK, backend=None,
              run_dir=None, streams=None, default_count=None) -> PlayArgs:
    """Check an analysis's arguments: ``n`` or ``deals`` (one count under two names; without
    either and without a precision target ``default_count``, else stopping's defaults), a
    precision target and its cap ``max_deals``, the first unit (leaving room for the cap), the
    chunk size, ``backend`` and ``run_dir``, and the configuration of ``policies`` (seat
    ``streams`` as RunConfig.build takes them)."""
    where = checked_where(backend, run_dir)
    count = one_count(n, deals, "deal")
    precision = check_precision(precision)
    chunk_size = check_chunk_size(chunk_size)
    if count is None and precision is None:
        count = default_count
    base = RunConfig.build(game, players=players, policies=policies, deals=1, seed=seed, rules=rules, unit=unit,
                           streams=streams)
    count, cap = count_and_cap(count, precision, max_deals, base.game.unit)
    first_deal = first_unit(first_deal, base.game.unit, cap)
    return PlayArgs(base, count, cap, precision, first_deal, chunk_size, where["backend"], where["run_dir"])
