"""How many units a run plays: the count arguments every command checks alike (the count,
the first unit, the chunk size, a precision target and its cap), and the stop rules.

A stop rule (:class:`StopRule`) is asked after each batch how many units to add
(0: stop) and, at the end, for the stop's record (``result``), which the results
carry; :func:`stop_rule` picks the one a precision target asks for.

- FIXED: the count asked for, once.
- :class:`Precision`: batches until the watched Chow-Robbins half-width
  z sqrt((s^2 + 1/n) / n) (intervals.stop_half_width: the variance floor 1/n
  keeps a batch that happens to be constant from stopping at once) is at most
  the target H after at least MIN_STOP_UNITS units, or the cap was played. It
  never stops on "A is better": a fixed-width stopping rule keeps the
  interval's coverage, a significance one would not. A batch is the predicted
  remainder (n * (h / H)^2 * 1.1 - n: at least a tenth of n, and at least what
  MIN_STOP_UNITS needs) and at most n (so the run at most doubles), within the cap.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Protocol

from analyser.engine.config import MAX_INDEX, whole_number
from analyser.errors import UserError, counted
from analyser.io.jsonable import jsonable
from analyser.io.numbers import plural
from analyser.stats.intervals import MIN_STOP_UNITS

DEFAULT_COUNT = 10_000
DEFAULT_FIRST_BATCH = 1_000
DEFAULT_MAX_COUNT = 10_000_000
STOP_RULE = (f"Chow-Robbins: z sqrt((s^2 + 1/n) / n) <= H (the variance floor 1/n), after at least "
             f"{MIN_STOP_UNITS} deals")


def one_count(n, deals, unit: str):
    """The number of units, given as ``n`` or under the name ``deals`` (never both, unless equal)."""
    if n is not None and deals is not None and n != deals:
        raise UserError(f"give the number of {plural(unit)} once (n={n!r}, deals={deals!r})")
    return n if n is not None else deals


def check_chunk_size(chunk_size) -> int:
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise UserError(f"chunk size must be a whole number of at least 1, not {chunk_size!r}")
    return chunk_size


def first_unit(first_deal, unit: str, most: int) -> int:
    """The first unit of a run of at most ``most`` units: a whole number leaving room for them."""
    return whole_number(first_deal, f"the first {unit}", 0, MAX_INDEX - most + 1)


def check_precision(precision) -> float | None:
    if precision is None:
        return None
    if isinstance(precision, bool) or not isinstance(precision, numbers.Real) or not 0 < precision < 1 \
            or not math.isfinite(precision):
        raise UserError(f"precision must be a half-width between 0 and 1 (0.005 is ±0.5 percentage points), "
                        f"not {precision!r}")
    return float(precision)


def count_and_cap(count, precision, max_deals, unit_name: str) -> tuple[int, int]:
    """``(first batch, most units)``: without a precision target both are the count
    (default 10,000); with one, the first batch (default 1,000) and ``--max-deals``."""
    if precision is None:
        count = whole_number(count if count is not None else DEFAULT_COUNT, f"the number of {plural(unit_name)}", 1)
        return count, count
    cap = whole_number(max_deals, "--max-deals", 1)
    count = whole_number(count if count is not None else min(DEFAULT_FIRST_BATCH, cap),
                         f"the first batch of {plural(unit_name)}", 1)
    if count > cap:
        raise UserError(f"the first batch ({counted(count, unit_name)}) is more than --max-deals ({cap:,})")
    return count, cap


def next_batch(done: int, half: float, target: float, cap: int) -> int:
    """How many units to add after ``done`` with half-width ``half`` to reach ``target`` (see the module)."""
    if not math.isfinite(half):
        want = done
    else:
        want = math.ceil(done * (half / target) ** 2 * 1.1) - done
    return min(max(1, MIN_STOP_UNITS - done, min(want, done)), cap - done)


def precision_stop(half: float, done: int, target: float, cap: int) -> dict | None:
    """The stop after ``done`` units at half-width ``half`` (None: go on): reached once the half-width is
    at most the target after at least MIN_STOP_UNITS units, or capped at ``cap``."""
    reached = bool(math.isfinite(half) and half <= target and done >= MIN_STOP_UNITS)
    if not reached and done < cap:
        return None
    return {"rule": "precision", "stopping": STOP_RULE, "reached": reached, "target": target,
            "half_width": jsonable(half), "deals": done, "max_deals": cap}


class StopRule(Protocol):
    """What pipeline.execute asks after each batch: ``next(done)``, the units to add after ``done``
    (0: stop); ``result(done)``, the stop's record; ``batches``, every check made (the metadata's)."""
    batches: Sequence[dict]

    def next(self, done: int) -> int: ...

    def result(self, done: int) -> dict: ...


class Fixed:
    """The count asked for, played once."""
    batches = ()

    def next(self, done: int) -> int:
        return 0

    def result(self, done: int) -> dict:
        return {"rule": "fixed", "deals": done}


FIXED = Fixed()


class Precision:
    """Batches until ``half_width()`` (a Chow-Robbins half-width of the tally so far) is at most
    ``target``, or ``cap`` units were played (see the module). ``batches`` lists every check."""

    def __init__(self, target: float, cap: int, half_width: Callable[[], float]):
        self.target, self.cap, self.half_width = target, cap, half_width
        self.batches: list[dict] = []
        self.stop: dict | None = None

    def next(self, done: int) -> int:
        half = self.half_width()
        self.batches.append({"deals": done, "half_width": jsonable(half)})
        self.stop = precision_stop(half, done, self.target, self.cap)
        return 0 if self.stop is not None else next_batch(done, half, self.target, self.cap)

    def result(self, done: int) -> dict:
        return self.stop


def stop_rule(precision: float | None, cap: int, half_width: Callable[[], float]) -> StopRule:
    """FIXED without a precision target; with one, Precision over ``half_width`` up to ``cap`` units."""
    return FIXED if precision is None else Precision(precision, cap, half_width)


def stop_text(stop: dict, unit: str) -> str:
    """The sentence a result prints about its stop."""
    if stop["rule"] == "fixed":
        return f"fixed: {counted(stop['deals'], unit)}"
    if stop["rule"] == "rerun":
        first, n, before = stop["first_deal"], stop["deals"], stop["precision_stop"]
        return (f"fixed-count rerun: {counted(n, unit)} on fresh deals {first:,} to {first + n - 1:,}, the count "
                f"a precision stop reached (H = {before['target']:g}); unbiased by the stop")
    hw, h = stop["half_width"], stop["target"]    # None: no completed unit yet, so no interval
    rule = "Chow-Robbins" if stop.get("stopping") else "half-width"
    if stop["reached"]:
        return f"stopped: {rule} half-width {hw:.4g} <= {h:g} after {counted(stop['deals'], unit)}"
    shown = "undefined" if hw is None else f"{hw:.4g}"
    if hw is not None and hw <= h:          # narrow enough, but fewer units than the rule's minimum
        return f"stopped at --max-deals {stop['max_deals']:,}: below the {MIN_STOP_UNITS} {plural(unit)} " \
               f"the stopping rule needs"
    return f"stopped at --max-deals {stop['max_deals']:,}: {rule} half-width {shown} > {h:g}"
