"""High card's hooks for the analyser's game checks and replay pages (see analyser.games.kit).

It has no compiled play-out of worlds (``RolloutKit.play_worlds``), so ``analyser rollout``
and ``review`` say so; everything that reads only its positions (``replay``, ``rollout
--list``) works."""
import numpy as np

from analyser.games.kit import GameKit, Position, RolloutKit

from . import rules
from .rules import DECK, SEATS, TABLE_DTYPE


class HighCardPosition(Position):
    def __init__(self, table):
        self.table = table

    def locations(self):
        t = self.table[0]
        out = {f"hand{s}": [int(c) for c in t["hands"][s, : t["hand_len"][s]]] for s in range(SEATS)}
        out["played"] = [int(c) for c in t["played"] if c >= 0]
        out["stock"] = [int(c) for c in t["stock"]]
        return out

    def deck(self):
        return list(range(DECK))

    def seen_by(self, seat):
        return {f"hand{seat}", "played"}

    def decision(self, forced=False):
        t = self.table[0]
        if t["over"] or t["actions"] >= t["max_actions"] or t["hand_len"][t["seat"]] < (1 if forced else 2):
            return None
        seat = int(t["seat"])
        return seat, (t, seat, np.arange(rules.HAND) < t["hand_len"][seat])

    def relocate(self, locations):
        table = self.table.copy()
        t = table[0]
        for s in range(SEATS):
            t["hands"][s, : t["hand_len"][s]] = locations[f"hand{s}"]
        t["stock"][:] = locations["stock"]
        return HighCardPosition(table)

    def memory(self, seat):
        return self.table[0]["memory"][seat]


class HighCardKit(GameKit, RolloutKit):
    honest_args = False          # a policy is handed the whole table: only decisions can be compared
    fixed_policy = "high"

    def cases(self, game):
        return [(4, {}), (4, {"hands": 4})]     # an even number of hands: drawn matches without tied hands

    def aborting_rules(self):
        return {"max_actions": 7}

    def action_text(self, action):
        return f"play the card in slot {action}"

    def shuffled(self, before, after):
        return before.table[0]["hand"] != after.table[0]["hand"]     # every hand is dealt anew

    def play(self, seed, unit, players, settings, fns, params, streams):
        table = np.zeros(1, TABLE_DTYPE)
        legal = np.zeros(rules.HAND, np.bool_)
        rules.start(seed, unit, settings, streams, table)
        yield HighCardPosition(table)
        over = False
        while not over:
            over = rules.step(fns, params, table, legal)
            yield HighCardPosition(table)


