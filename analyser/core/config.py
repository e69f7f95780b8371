"""A run's full configuration: everything that, with the seed, determines its numbers."""
from __future__ import annotations

import platform
from dataclasses import dataclass

from analyser.core.errors import UserError
from analyser.core.policy import SeatPolicy, as_seat_policy
from analyser.core.registry import GameSpec, get_game

DEFAULT_CHUNK = 1 << 16


@dataclass(frozen=True)
class RunConfig:
    game: GameSpec
    players: int
    seats: tuple[SeatPolicy, ...]
    deals: int
    seed: int
    settings: dict[str, int]
    first_deal: int = 0

    @classmethod
    def build(cls, game: str | GameSpec, players: int | None = None, policies=None, deals: int = 10_000,
              seed: int = 0, rules: dict | None = None, first_deal: int = 0) -> "RunConfig":
        spec = get_game(game) if isinstance(game, str) else game
        players = spec.check_players(int(players if players is not None else spec.default_players))
        if deals < 1:
            raise UserError(f"deals must be at least 1, not {deals}")
        if seed < 0 or seed >= 2**63:
            raise UserError(f"seed must be a whole number from 0 to 2**63-1, not {seed}")
        items = list(policies) if policies else [spec.default_policy]
        if isinstance(policies, (str, SeatPolicy)) or callable(policies):
            items = [policies]
        if len(items) == 1:
            items = items * players
        if len(items) != players:
            raise UserError(f"give one policy for all seats or one per seat ({players}), not {len(items)}")
        seats = tuple(as_seat_policy(p, spec.policy_map) for p in items)
        return cls(spec, players, seats, int(deals), int(seed), spec.parse_settings(rules), int(first_deal))

    def metadata(self) -> dict:
        """What a results file or report carries to say how it was made."""
        import numba
        import numpy

        from analyser import __version__

        return {
            "game": self.game.name,
            "players": self.players,
            "deals": self.deals,
            "first_deal": self.first_deal,
            "seed": self.seed,
            "settings": {s.name: s.show(self.settings[s.name]) for s in self.game.settings},
            "policies": [seat.label() for seat in self.seats],
            "params": [seat.values for seat in self.seats],
            "versions": {"analyser": __version__, "numba": numba.__version__, "numpy": numpy.__version__,
                         "python": platform.python_version()},
        }
