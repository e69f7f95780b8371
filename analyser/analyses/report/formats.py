"""How the report prints a number, an interval and a table (the template's and its sections' words share them)."""
from __future__ import annotations

from analyser.io.numbers import bound, hundred, missing, p_text, percent
from analyser.io.numbers import num as number


def pc(x, digits: int = 1) -> str:
    return percent(x, digits)


def pts(x, digits: int = 1) -> str:
    return hundred(x, digits, sign=True)


def interval(lo, hi, fmt=pc) -> str:
    """``[lo, hi]``; a share's (pc) or a difference's (pts) bound that is not 0 never prints as 0
    (io.numbers.bound), so an interval that excludes 0 does not read as touching it."""
    if missing(lo) or missing(hi):
        return "-"
    if fmt in (pc, pts):
        return f"[{bound(lo, 1, fmt is pts, 100, '%' if fmt is pc else '')}, " \
               f"{bound(hi, 1, fmt is pts, 100, '%' if fmt is pc else '')}]"
    return f"[{fmt(lo)}, {fmt(hi)}]"


def num(x, digits: int = 1, sign: bool = False) -> str:
    return number(x, digits, sign, grouped=True)


def bare(p) -> str:
    """A p-value in a table cell."""
    return p_text(p).removeprefix("= ")


def md_table(headers: list[str], rows: list[list], right: set[int] | None = None) -> str:
    """A Markdown table; columns in ``right`` (default: all but the first) are right-aligned."""
    right = set(range(1, len(headers))) if right is None else right
    cells = [[str(c).replace("|", "\\|") for c in row] for row in rows]
    line = "| " + " | ".join(headers) + " |"
    rule = "|" + "|".join("---:" if i in right else ":---" for i in range(len(headers))) + "|"
    return "\n".join([line, rule] + ["| " + " | ".join(r) + " |" for r in cells])
