"""Palace on a replay page (analyser.games.view)."""
from analyser.games.view import GameView, tagged_lines, to_move
from analyser.kernels.cards import card_name


class PalaceView(GameView):
    seat_places = ("hand", "up", "down")
    labels = {"up": "face up", "down": "face down", "pile": "pile (top last)", "draw": "draw pile (top first)"}
    top_last = ("draw",)

    def card(self, card: int) -> str:
        return card_name(card)

    def red(self, card: int) -> bool:
        return card & 3 in (1, 2)

    def status(self, position) -> dict:
        pb = position.pub[0]
        out = [f"out, place {int(p)}" if p else "" for p in pb["place"][: pb["players"]]]
        return {"seats": out, "info": ", ".join(to_move(position)) or "the game is over"}

    def lines(self, events, text):
        plays = sum(e["type"] in ("play", "pickup") for e in events)
        return tagged_lines(text, [(None, f"{k}.") for k in range(1, 1 + plays)])
