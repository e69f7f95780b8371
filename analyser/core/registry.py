"""The game registry: what each game offers, without importing its numba code.

A GameSpec is the whole contract between a game package and the rest of the
analyser: player counts, rule settings, policies, the per-deal record and the
two entry points (simulate a block of deals, trace one deal).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from analyser.core.errors import UserError, choices
from analyser.core.policy import PolicySpec

# name -> module that defines GAME; games load only when asked for.
GAME_MODULES = {
    "palace": "analyser.games.palace",
}

_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"0", "false", "off", "no"}


@dataclass(frozen=True)
class SettingSpec:
    """A rule setting: ``kind`` is 'bool' or 'int'."""

    name: str
    default: int
    description: str
    kind: str = "bool"
    low: int = 0
    high: int = 1

    def parse(self, text) -> int:
        value = str(text).strip().lower()
        if self.kind == "bool":
            if value in _TRUE or text is True:
                return 1
            if value in _FALSE or text is False:
                return 0
            raise UserError(f"rule {self.name} is on or off, not '{text}'")
        try:
            number = int(value)
        except ValueError:
            raise UserError(f"rule {self.name} takes a whole number, not '{text}'") from None
        if not self.low <= number <= self.high:
            raise UserError(f"rule {self.name}={number} is out of range {self.low}..{self.high}")
        return number

    def show(self, value: int):
        return bool(value) if self.kind == "bool" else int(value)


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    default_policy: str
    settings: tuple[SettingSpec, ...]
    policies: tuple[PolicySpec, ...]
    record_dtype: np.dtype
    seat_events: tuple[str, ...]          # per-seat counters in the record, summed in summaries
    game_events: tuple[str, ...]          # per-game counters in the record
    policy_error: Callable[[np.ndarray], str | None]
    simulate: Callable                    # (seed, first_deal, players, settings_row, fns, params, out) -> None
    trace: Callable                       # (seed, deal, players, settings_row, fns, params) -> (events, record)
    trace_text: Callable                  # (events) -> str, the trace for people
    describe_events: dict[str, str] = field(default_factory=dict)

    @property
    def policy_map(self) -> dict[str, PolicySpec]:
        return {p.name: p for p in self.policies}

    def default_settings(self) -> dict[str, int]:
        return {s.name: s.default for s in self.settings}

    def parse_settings(self, given: dict | None) -> dict[str, int]:
        known = {s.name: s for s in self.settings}
        values = self.default_settings()
        for key, text in (given or {}).items():
            if key not in known:
                raise UserError(f"unknown rule '{key}' for {self.name}; valid: {choices(known)}")
            values[key] = known[key].parse(text)
        return values

    def settings_row(self, values: dict[str, int]) -> np.ndarray:
        return np.array([values[s.name] for s in self.settings], dtype=np.int64)

    def check_players(self, players: int) -> int:
        if not self.min_players <= players <= self.max_players:
            raise UserError(f"{self.name} is for {self.min_players} to {self.max_players} players, "
                            f"not {players}; valid: {choices(range(self.min_players, self.max_players + 1))}")
        return players


def get_game(name: str) -> GameSpec:
    if name not in GAME_MODULES:
        raise UserError(f"unknown game '{name}'; valid: {choices(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[name]).GAME


def parse_rule_args(items: list[str] | None) -> dict[str, str]:
    """``['short_game=on', ...]`` -> ``{'short_game': 'on'}``."""
    out = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UserError(f"a rule is written NAME=VALUE, not '{item}'")
        out[key.strip()] = value.strip()
    return out
