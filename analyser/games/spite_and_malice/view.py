"""Spite & Malice on a replay page (analyser.games.view)."""
from analyser.games.spite_and_malice.constants import card_name
from analyser.games.view import GameView, tagged_lines, to_move


class SpiteView(GameView):
    seat_places = ("payoff_top", "payoff", "hand", "side")
    labels = {"payoff": "payoff (face down)", "stock": "stock (top first)"}
    top_last = ("stock",)

    def card(self, card: int) -> str:
        return card_name(card)

    def status(self, position) -> dict:
        pb = position.pub[0]
        return {"seats": [f"{int(p)} points" for p in pb["points"]], "sub": int(pb["round"]),
                "info": ", ".join([f"round {int(pb['round'])}, turn {int(pb['turn'])}", *to_move(position, "to act"),
                                   f"match to {int(pb['target'])} points"])}

    def lines(self, events, text):
        tags, turn = [], 0
        for e in events:
            if e["type"] == "turn":
                turn = e["turn"]
            elif e["type"] in ("build", "discard", "stop"):
                tags.append((e["round"], f"t{turn}"))
        return tagged_lines(text, tags)
