"""The sweep's value grammar: the values a policy parameter is swept over, written in a policy spec
(``pickup:max_pile=0..12``) with the grammar of analyser.games.policy_specs.

  lo..hi          lo, lo + 1, ..., hi (step 1)
  lo..hi:step     lo, lo + step, ... up to hi (``0..1:0.25``: 0, 0.25, 0.5, 0.75, 1)
  a|b|c           a list (``|``, since commas separate parameters)

At most MAX_VALUES values; a plain value is not swept.
"""
from __future__ import annotations

import math

from analyser.errors import UserError
from analyser.games.policy_specs import split_spec

MAX_VALUES = 10_000
SYNTAX = "lo..hi, lo..hi:step or a|b|c"


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"{where}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise UserError(f"{where}: '{text}' is not a finite number")
    return value


def parse_values(text: str, where: str = "sweep values") -> list[float] | None:
    """The values of ``lo..hi``, ``lo..hi:step`` or ``a|b|c``; None for a plain value (not swept)."""
    text = text.strip()
    if "|" in text:
        items = [s.strip() for s in text.split("|")]
        if any(not s for s in items):
            raise UserError(f"{where}: the list '{text}' has an empty item (lists look like a|b|c)")
        values = [_number(s, where) for s in items]
        if len(set(values)) != len(values):
            raise UserError(f"{where}: the list '{text}' names a value twice")
        return values
    if ".." not in text:
        return None
    span, colon, step_text = text.partition(":")
    lo_text, _, hi_text = span.partition("..")
    lo, hi = _number(lo_text.strip(), where), _number(hi_text.strip(), where)
    step = _number(step_text.strip(), where) if colon else 1.0
    if step <= 0:
        raise UserError(f"{where}: the step of '{text}' must be more than 0")
    if hi < lo:
        raise UserError(f"{where}: the range '{text}' ends below its start ({hi:g} < {lo:g})")
    count = math.floor((hi - lo) / step + 1e-9) + 1
    if count > MAX_VALUES:
        raise UserError(f"{where}: the range '{text}' has {count:,} values; at most {MAX_VALUES:,}")
    return [round(lo + i * step, 12) for i in range(count)]


def has_values(item) -> bool:
    """Whether a policy item (a spec string) gives VALUES for some parameter."""
    if not isinstance(item, str):
        return False
    if ":" not in item:
        return False
    name, values = split_spec(item)
    return any(parse_values(v, f"{name}:{k}") is not None for k, v in values.items())
