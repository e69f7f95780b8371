"""How a game is shown on a replay page (analyser.analyses.replay): part of what a game declares.

The page is built from the kit's positions (analyser.games.kit), which say where every card
is and what each seat sees; what only the game can add is how it looks to a person: which
places are drawn in a seat's box, the cards' names, the public status line of a position, and
which line of the trace text each action is. ``GameSpec.view()`` returns a ``GameView``; each
built-in game keeps its own in ``games/<game>/view.py`` (plain Python: no kernel lives there,
so editing it recompiles nothing, analyser.kernels.cache.PLAIN_GAME_FILES).
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod

LOG_TAG = re.compile(r"^\s+(t\d+|\d+\.)\s")                      # "  t3 s1: ...", "    12. seat 0 ..."
SECTION = re.compile(r"^(?:Hand|Round) (\d+) ")


class GameView(ABC):
    """``seat_places``: the location names' prefixes drawn in a seat's box (``hand`` of
    ``hand2``, seat 2's); every other location is drawn on the shared table. ``labels``: a
    location's name on the page where it is not its name with spaces ("up": "face up"); a
    ``top_last`` place's label says "top first", the order it is shown in."""

    seat_places: tuple[str, ...] = ()
    labels: dict[str, str] = {}
    top_last: tuple[str, ...] = ()      # places the kit keeps top card last (a stock): shown top first

    def shown(self, name: str, cards: list[int]) -> list[int]:
        """A place's cards in the order a person reads them: a ``top_last`` place top first, as
        the trace lists a draw pile (its label says so)."""
        return cards[::-1] if name in self.top_last else cards

    def card(self, card: int) -> str:
        """A card id as the trace names it ("10S")."""
        return str(card)

    def red(self, card: int) -> bool:
        """Whether the page draws the card in red."""
        return False

    @abstractmethod
    def status(self, position) -> dict:
        """The public status of a kit position: ``{"seats": [a line per seat], "info": a line,
        "sub": the hand or round being played (games with sub-units)}``."""

    @abstractmethod
    def lines(self, events: list[dict], text: list[str]) -> list[int]:
        """The index in ``text`` (the trace text's lines of ``events``) of each action's line, in
        the order the actions were played."""


def to_move(position, verb: str = "to play") -> list[str]:
    """``["seat 3 to play"]`` for a status line's parts, or ``[]`` once the unit is over (no seat
    has a legal action: the kit's decision is None), so that the last step names no seat to move."""
    decision = position.decision(forced=True)
    return [] if decision is None else [f"seat {decision[0]} {verb}"]


def tagged_lines(text: list[str], tags: list[tuple]) -> list[int]:
    """The built-in games' trace texts number their actions: Palace's ``12.`` lines, a match's
    ``t3`` lines within its ``Hand K``/``Round K`` section. ``tags``: per action, (section or
    None, its tag); an action whose tag is not found keeps the line before it."""
    where, section = {}, None
    for k, line in enumerate(text):
        if m := SECTION.match(line):
            section = int(m.group(1))
        elif m := LOG_TAG.match(line):
            where.setdefault((section, m.group(1)), k)
    lines, last = [], 0
    for tag in tags:
        last = where.get(tag, last)
        lines.append(last)
    return lines


def trick_tags(events: list[dict], actions: tuple[str, ...], sub: str, trick_end: str) -> list[tuple]:
    """The tags of a trick game's actions (``t<trick>`` in the section of its hand or round ``sub``)."""
    out, trick = [], 1
    for e in events:
        if e["type"] in ("deal", trick_end):
            trick = 1 if e["type"] == "deal" else trick + 1
        elif e["type"] in actions:
            out.append((e[sub], f"t{trick}"))
    return out
