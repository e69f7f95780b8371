"""Enemy Anemone on a replay page (analyser.games.view)."""
from analyser.games.enemy_anemone.constants import card_name
from analyser.games.view import GameView, tagged_lines, to_move, trick_tags


class AnemoneView(GameView):
    seat_places = ("hand", "discards", "won")
    labels = {"draw": "draw pile"}

    def card(self, card: int) -> str:
        return card_name(card)

    def status(self, position) -> dict:
        pb = position.pub[0]
        n = int(pb["players"])
        seats = [f"won {int(pb['won_points'][s])} pts, total {int(pb['totals'][s])}, tokens "
                 + ("+2" * int(pb["twos"][s]) + "+1" * int(pb["ones"][s]) or "none") for s in range(n)]
        return {"seats": seats, "sub": int(pb["hand"]),
                "info": ", ".join([f"hand {int(pb['hand'])} of {int(pb['hands'])}, trick {int(pb['trick']) + 1}",
                                   *to_move(position), f"token supply {int(pb['supply'])}"])}

    def lines(self, events, text):
        return tagged_lines(text, trick_tags(events, ("play", "discard"), "hand", "trick"))
