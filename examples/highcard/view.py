"""High card on a replay page (analyser.games.view)."""
from analyser.games.view import GameView
from analyser.kernels.cards import card_name

from .rules import SEATS


class HighCardView(GameView):
    seat_places = ("hand",)

    def card(self, card):
        return card_name(card + 32)          # ranks 10..A of the 52-card names, as its trace names them

    def red(self, card):
        return card & 3 in (1, 2)

    def status(self, position):
        t = position.table[0]
        return {"seats": [f"team {s % 2}" for s in range(SEATS)], "sub": int(t["hand"]),
                "info": f"hand {int(t['hand']) + 1} of {int(t['n_hands'])}, hands won {int(t['won'][0])}-"
                        f"{int(t['won'][1])}, seat {int(t['seat'])} to play"}

    def lines(self, events, text):
        return [k for k, e in enumerate(events) if e["type"] == "play"]    # its trace text is a line an event
