"""The people's form of a Palace trace: replays the events and shows the table as it goes."""
from __future__ import annotations

from analyser.errors import counted
from analyser.kernels.cards import parse_card


def _cards(cards) -> str:
    return " ".join(cards) if cards else "-"


def _sorted(cards) -> list[str]:
    return sorted(cards, key=parse_card)


class _Table:
    """The table as the events describe it (hands, face-up, face-down, pile)."""

    def __init__(self, setup: dict):
        self.hands = [list(h) for h in setup["hands"]]
        self.up = [list(u) for u in setup["face_up"]]
        self.down = [list(d) for d in setup["face_down"]]
        self.draw = list(setup["draw_pile"])
        self.pile: list[str] = []

    def seat_line(self, s: int) -> str:
        return (f"hand {_cards(_sorted(self.hands[s]))} | up {_cards(self.up[s])} | "
                f"down {len(self.down[s])}")

    def apply(self, e: dict):
        s, t = e.get("seat"), e["type"]
        if t == "swap":
            self.hands[s], self.up[s] = list(e["hand"]), list(e["face_up"])
        elif t == "play":
            where = {"hand": self.hands, "face_up": self.up, "face_down": self.down}[e["source"]][s]
            for c in e["cards"]:
                where.remove(c)
            self.pile += e["cards"]
        elif t == "pickup":
            if "face_down" in e:
                self.down[s].remove(e["face_down"])
            self.hands[s] += e["cards"]
            self.pile = []
        elif t == "draw":
            self.hands[s] += e["cards"]
            del self.draw[: len(e["cards"])]
        elif t == "burn":
            self.pile = []


def render(events: list[dict]) -> str:
    setup = events[0]
    settings = ", ".join(f"{k}={v}" for k, v in setup["settings"].items())
    lines = [f"Palace, {setup['players']} players, seed {setup['seed']}, deal {setup['deal']} ({settings})",
             "Seats: " + ", ".join(f"{s}={p}" for s, p in enumerate(setup["policies"])), "", "Deal:"]
    table = _Table(setup)
    for s in range(setup["players"]):
        lines.append(f"  seat {s}: {table.seat_line(s)}   face-down {_cards(setup['face_down'][s])}")
    lines.append(f"  draw pile (top first): {_cards(setup['draw_pile'])}")
    lines += ["", "Swaps:"]
    move = 0
    for e in events[1:]:
        t, s = e["type"], e.get("seat")
        if t == "swap":
            table.apply(e)
            lines.append(f"  seat {s}: {table.seat_line(s)}")
            continue
        if t in ("play", "pickup"):
            move += 1
            if move == 1:
                lines += ["", "Play:"]
            before = table.seat_line(s)
            table.apply(e)
            if t == "play":
                lines.append(f"  {move:>4}. seat {s} [{before}] plays {_cards(e['cards'])} from "
                             f"{e['source'].replace('_', '-')}  -> pile {len(table.pile)}, top {table.pile[-1]}")
            else:
                how = ("turns over " + e["face_down"] + ", cannot play it, and takes"
                       if "face_down" in e else "picks up" + (" by choice" if e["voluntary"] else ""))
                lines.append(f"  {move:>4}. seat {s} [{before}] {how} {len(e['cards'])} cards: "
                             f"{_cards(_sorted(e['cards']))}")
        elif t == "draw":
            table.apply(e)
            lines.append(f"        seat {s} draws {_cards(e['cards'])} ({len(table.draw)} left)")
        elif t == "burn":
            table.apply(e)
            lines.append(f"        seat {s} burns the pile")
        elif t == "out":
            lines.append(f"        seat {s} is out in place {e['place']}")
        elif t == "result":
            lines += ["", "Result: " + ("ABORTED at the action cap; " if e["aborted"] else "")
                      + f"places {e['places']}, loser seat {e['loser']}, after {counted(move, 'turn')} "
                      + f"({counted(e['actions'], 'action')} with the swap's "
                      + f"{counted(e['actions'] - move, 'exchange')})"]
    return "\n".join(lines)
