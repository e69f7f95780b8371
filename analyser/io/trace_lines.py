"""Lines of the text traces, at most 80 columns: what every game's trace_text shares."""
from __future__ import annotations

WIDTH = 80


def pack(first: str, pieces: list[str], indent: int) -> list[str]:
    """``first`` then the pieces, space separated, broken between pieces to keep
    lines within WIDTH; continuation lines start ``indent`` spaces in."""
    lines, line = [], first
    for piece in pieces:
        if line.strip() and len(line) + 1 + len(piece) > WIDTH:
            lines.append(line)
            line = " " * indent + piece
        else:
            line = line + (" " if line.strip() else "") + piece
    lines.append(line)
    return lines


def listing(label: str, items: list[str]) -> list[str]:
    """``Settings: a=1, b=2`` packed, continuation lines under the first item."""
    if not items:
        return []
    lines = pack(label, [f"{item}," for item in items], len(label) + 1)
    lines[-1] = lines[-1].rstrip(",")
    return lines


def run_header(setup: dict) -> list[str]:
    """The settings and seats lines of a trace's setup (empty when the setup lacks them)."""
    settings = [f"{k}={v}" for k, v in setup.get("settings", {}).items()]
    seats = [f"s{s} {p}" for s, p in enumerate(setup.get("policies", []))]
    return listing("Settings:", settings) + listing("Seats:", seats)
