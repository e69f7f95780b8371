"""Olenon on a replay page (analyser.games.view): its cards are values, named by their number."""
from analyser.games.view import GameView, tagged_lines, to_move, trick_tags


class OlenonView(GameView):
    seat_places = ("hand", "passed")

    def status(self, position) -> dict:
        pb = position.pub[0]
        won = [int(x) for x in pb["team_rounds"]]
        return {"seats": [f"team {s % 2}" for s in range(len(pb["hand_len"]))], "sub": int(pb["round"]),
                "info": ", ".join([f"round {int(pb['round'])}, rounds won {won[0]}-{won[1]} (of {int(pb['rounds'])}), "
                                   f"trick {int(pb['trick']) + 1}", *to_move(position, "to act")])}

    def lines(self, events, text):
        return tagged_lines(text, trick_tags(events, ("play", "pass", "replace"), "round", "trick_end"))
