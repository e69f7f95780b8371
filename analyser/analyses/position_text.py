"""A position in words, as one seat sees it (its cards, the public ones, the sizes of the rest):
what ``rollout`` prints above its table, in the names the replay page gives the places."""
from __future__ import annotations

import re

from analyser.errors import UserError, counted

SEAT_PLACE = re.compile(r"^([a-z_]+?)(\d+)(?:_(\d+))?$")       # hand2, payoff_top1, side0_3


def game_view(spec):
    """The game's replay view (GameSpec.view); a game without one is refused in one line."""
    if spec.view is None:
        raise UserError(f"{spec.name} has no replay view: its GameSpec names no view "
                        "(analyser.games.view.GameView)")
    return spec.view()


def label(name: str, view) -> str:
    """``hand2`` -> "hand" (it is drawn in seat 2's box), ``side0_3`` -> "side 3", ``build1`` -> "build 1"."""
    m = SEAT_PLACE.match(name)
    if m is None:
        return view.labels.get(name, name.replace("_", " "))
    base = view.labels.get(m.group(1), m.group(1).replace("_", " "))
    index = m.group(3) if m.group(3) is not None else None if m.group(1) in view.seat_places else m.group(2)
    return base if index is None else f"{base} {index}"


def position_lines(position, seat: int, view, players: int) -> list[str]:
    """One line a seat's places ("seat 0 (to move): hand 2H JH QS | face up 9D JD | face down 3 cards"),
    then one a shared place ("pile: 3D 4D", "draw pile (top first): 12 cards"): the cards ``seat``
    sees, the count of the others; an empty place it cannot see is left out."""
    places, seen = position.locations(), position.seen_by(seat)

    def shown(name: str) -> str | None:
        cards = places[name]
        if name in seen:
            return " ".join(view.card(c) for c in view.shown(name, cards)) or "-"
        return counted(len(cards), "card") if cards else None

    boxes: list[list[str]] = [[] for _ in range(players)]
    shared = []
    for name in places:
        m, text = SEAT_PLACE.match(name), shown(name)
        if text is None:
            continue
        if m and m.group(1) in view.seat_places and int(m.group(2)) < players:
            boxes[int(m.group(2))].append(f"{label(name, view)} {text}")
        else:
            shared.append(f"{label(name, view)}: {text}")
    seats = [f"seat {s}{' (to move)' * (s == seat)}: " + " | ".join(box) for s, box in enumerate(boxes)]
    return seats + shared
