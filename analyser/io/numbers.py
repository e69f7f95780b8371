"""The one number formatter of tables, summaries and verdicts.

Every missing value (None, NaN, an infinity) prints as "-". Shares and their
differences are printed in percent or percentage points (x 100).
"""
from __future__ import annotations

import math


def plural(unit: str) -> str:
    """``games``, ``matches``, ``hands``: the units a count counts."""
    return unit + ("es" if unit.endswith("ch") else "s")


def missing(x) -> bool:
    return x is None or not math.isfinite(x)


def num(x, digits: int = 2, sign: bool = False, scale: float = 1.0, suffix: str = "", grouped: bool = False) -> str:
    """``x * scale`` with ``digits`` decimals, a + before positives with ``sign``, thousands
    separated with ``grouped``, then ``suffix``. What rounds to zero is 0 without a sign: -0.0001
    is no evidence of a negative effect, so it does not print as "-0.0" ("+0.0" neither)."""
    if missing(x):
        return "-"
    text = f"{scale * x:{'+' if sign else ''}{',' if grouped else ''}.{digits}f}"
    if float(text.replace(",", "")) == 0:
        text = f"{0.0:.{digits}f}"
    return text + suffix


def bound(x, digits: int = 1, sign: bool = False, scale: float = 1.0, suffix: str = "") -> str:
    """An interval's bound as ``num`` prints it, but a bound that is not 0 keeps the digits (up to
    four more) that show its sign: an interval that excludes 0 must not read as touching it
    ("[-0.4, -0.03]", not "[-0.4, 0.0]" beside a verdict that it is below)."""
    text = num(x, digits, sign, scale, suffix)
    if missing(x) or x == 0:
        return text
    for more in range(digits, digits + 5):
        shown = num(x, more, sign, scale, suffix)
        if float(shown.removesuffix(suffix).replace(",", "")) != 0:
            return shown
    return text


def percent(x, digits: int = 2, sign: bool = False) -> str:
    """A share in percent: ``percent(0.1234) == '12.34%'``."""
    return num(x, digits, sign, 100, "%")


def hundred(x, digits: int = 2, sign: bool = False) -> str:
    """A share x 100 without a unit (a table whose header names it): ``hundred(0.1234) == '12.34'``."""
    return num(x, digits, sign, 100)


def points(x, digits: int = 2, sign: bool = True) -> str:
    """A share difference in percentage points: ``points(0.0123) == '+1.23pp'``."""
    return num(x, digits, sign, 100, "pp")


def plus_minus(x, low, high, scale: float = 100.0, sign: bool = False) -> str:
    """``x`` and the larger side of its interval [low, high], both times ``scale``: ``"47.6 ±0.3"``, with
    the half-width's first significant figure (one to three decimals); the value alone for an interval of
    width 0. Narrower than ``x [low, high]``, so a table of them fits 80 columns."""
    if missing(x):
        return "-"
    half = float("nan") if missing(low) or missing(high) else scale * max(x - low, high - x)
    if missing(half) or half <= 0:
        return num(x, 1, sign, scale)
    digits = min(3, max(1, -math.floor(math.log10(half))))
    return f"{num(x, digits, sign, scale)} ±{num(half / scale, digits, False, scale)}"


def p_text(p) -> str:
    """A p-value after "p": ``'< 0.0001'`` or ``'= 0.034'``."""
    return "-" if missing(p) else "< 0.0001" if p < 1e-4 else f"= {p:.2g}"


def general(v) -> str:
    """A parameter value as a user writes it: ``3`` for 3.0, else the shortest form (``0.25``)."""
    return str(int(v)) if float(v).is_integer() else f"{float(v):g}"


def p_short(p) -> str:
    """A p-value in a table cell: two figures, or ``<0.0001``."""
    return "-" if missing(p) else "<0.0001" if p < 1e-4 else f"{p:.2g}"
