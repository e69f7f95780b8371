"""``trace``: one unit played with logging on, move by move, for people (text) and programs (JSON lines)."""
from __future__ import annotations

import json
from dataclasses import dataclass

from analyser.engine.config import RunConfig, whole_number
from analyser.engine.local import ChunkRunner
from analyser.errors import UserError


@dataclass
class Trace:
    events: list[dict]
    text_renderer: object

    def jsonl(self) -> str:
        return "\n".join(json.dumps(e) for e in self.events)

    def text(self) -> str:
        return self.text_renderer(self.events)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<Trace: {len(self.events)} events; .text() for people, .jsonl() for programs>"


def trace(game: str = "palace", seed: int = 0, deal: int = 0, players: int | None = None,
          policies=None, rules: dict | None = None, hand: int | None = None, streams=None,
          unit: str | None = None) -> Trace:
    """Play unit ``deal`` of ``seed`` with logging on: exactly the unit simulate plays
    (with the same ``unit``). ``hand`` keeps the setup and the events of that hand
    (round) of a match only."""
    config = RunConfig.build(game, players=players, policies=policies, deals=1, seed=seed, rules=rules, first_deal=deal,
                             streams=streams, unit=unit)
    if hand is not None and config.game.sub_unit is None:   # before compiling anything
        raise UserError(f"{config.game.name} has no hands or rounds: a {config.game.unit} is played whole")
    runner = ChunkRunner(config)
    events, _ = config.game.trace(config.seed, config.first_deal, config.players, runner.settings, runner.fns,
                                  runner.params, runner.streams)
    meta = config.metadata()
    head = {"type": "setup", "game": meta["game"], "players": config.players, "seed": config.seed,
            "unit": config.game.unit, "deal": config.first_deal, "settings": meta["settings"],
            "policies": meta["policies"]}
    events[0] = {**head, **{k: v for k, v in events[0].items() if k != "type"}}
    if hand is not None:
        events = _one_hand(events, hand, config.game)
    return Trace(events, config.game.trace_text)


def _one_hand(events: list[dict], hand, game) -> list[dict]:
    """The setup line (the run's configuration) and the events of one hand (round):
    the events inside a unit carry their sub-unit's index under its name."""
    key = game.sub_unit
    hand = whole_number(hand, f"the {key}")
    played = sorted({e[key] for e in events if key in e})
    if hand not in played:
        have = f"{key}s {played[0]}..{played[-1]}" if played else f"no {key}s"
        raise UserError(f"this {game.unit} has {have}, not {hand}")
    return [events[0]] + [e for e in events[1:] if e.get(key) == hand]
