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


def parts_shown(events: list[dict], part: str, lines: list[str]) -> tuple[list[int], bool]:
    """The parts (``part``: "round", "hand") a trace's events cover, and whether it is the whole
    unit (it holds the result); a single part cut out alone says so in ``lines`` ("Round 3 only.")."""
    parts = sorted({e[part] for e in events[1:] if part in e})
    whole = any(e["type"] == "result" for e in events)
    if not whole and len(parts) == 1:
        lines.append(f"{part.capitalize()} {parts[0]} only.")
    return parts, whole
