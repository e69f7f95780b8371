"""A run's full configuration: everything that, with the seed, determines its numbers."""
from __future__ import annotations

import hashlib
import numbers
import platform
from dataclasses import dataclass

from analyser.errors import UserError
from analyser.games.policy_specs import SeatPolicy, as_seat_policy
from analyser.games.registry import GameSpec, get_game
from analyser.io.numbers import plural
from analyser.kernels.rng import MAX_POLICY_STREAMS

DEFAULT_CHUNK = 1 << 16
MAX_INDEX = 2**63 - 1


def whole_number(value, name: str, low: int = 0, high: int = MAX_INDEX) -> int:
    """``value`` as an int in [low, high], or a UserError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UserError(f"{name} must be a whole number, not {value!r}")
    if not low <= int(value) <= high:
        raise UserError(f"{name} must be from {low:,} to {high:,}, not {int(value):,}")
    return int(value)


@dataclass(frozen=True)
class RunConfig:
    game: GameSpec                # the game as simulated: its one_sub_unit() spec when records are hands
    players: int
    seats: tuple[SeatPolicy, ...]
    deals: int                    # units to play (games, matches, or hands)
    seed: int
    settings: dict[str, int]
    first_deal: int = 0
    streams: tuple[int, ...] = ()  # policy stream id of each seat (default: its seat number); see kernels/rng.py

    @classmethod
    def build(cls, game: str | GameSpec, *, players: int | None = None, policies=None, deals: int = 10_000,
              seed: int = 0, rules: dict | None = None, first_deal: int = 0, streams=None,
              unit: str | None = None) -> RunConfig:
        """A checked configuration, every argument but the game by keyword (each as simulate takes it).
        ``unit``: what one record is, the game's unit (default) or its sub-unit (see GameSpec.for_unit)."""
        spec = (get_game(game) if isinstance(game, str) else game).for_unit(unit)
        players = spec.check_players(whole_number(players if players is not None else spec.default_players,
                                                  "players", 0, 1000))
        deals = whole_number(deals, f"the number of {plural(spec.unit)}", 1)
        seed = whole_number(seed, "seed")
        first_deal = whole_number(first_deal, f"the first {spec.unit}", 0, MAX_INDEX - deals + 1)
        items = _seat_list(_policy_list(policies, spec), spec, players)
        seats = tuple(as_seat_policy(p, spec.policy_map, spec.policy_signature) for p in items)
        streams = tuple(range(players)) if streams is None else tuple(
            whole_number(s, "a policy stream id", 0, MAX_POLICY_STREAMS - 1) for s in streams)
        if len(streams) != players:
            raise UserError(f"give one policy stream id per seat ({players}), not {len(streams)}")
        return cls(spec, players, seats, deals, seed, spec.parse_settings(rules), first_deal, streams)

    def metadata(self) -> dict:
        """What a results file or report carries to say how it was made."""
        import numba
        import numpy

        from analyser.version import __version__

        return {
            "game": self.game.name,
            "unit": self.game.unit,
            "players": self.players,
            "deals": self.deals,
            "first_deal": self.first_deal,
            "seed": self.seed,
            "settings": {s.name: s.show(self.settings[s.name]) for s in self.game.settings},
            "policies": [seat.label() for seat in self.seats],
            "params": [seat.values for seat in self.seats],
            "streams": list(self.streams),
            "versions": {"analyser": __version__, "game_code": self.game.code_key(), "numba": numba.__version__,
                         "numpy": numpy.__version__, "python": platform.python_version()},
        }


    def identity(self) -> dict:
        """What fixes this configuration's records unit by unit (so chunks are keyed by it, a
        run directory is matched against it): the metadata without the count, the first unit
        and the other packages' versions, with the game's compiled-code key (an edit of its rules
        is another configuration) and each policy's compiled function named and its code digested
        (a policy edited in a notebook is another configuration)."""
        meta = self.metadata()
        for key in ("deals", "first_deal"):
            meta.pop(key)
        versions = meta.pop("versions")
        meta["analyser"] = versions["analyser"]
        meta["game_code"] = versions["game_code"]
        meta["functions"] = [function_name(seat.spec.function) for seat in self.seats]
        return meta


def function_name(fn) -> str:
    """A compiled policy as ``module.qualname#digest``: the digest of its Python code."""
    py = getattr(fn, "py_func", fn)
    return f"{getattr(py, '__module__', '?')}.{getattr(py, '__qualname__', '?')}#{code_digest(py.__code__)[:16]}"


def code_digest(code) -> str:
    """A digest of a code object: its bytecode, names and constants (nested code objects digested
    in turn: their repr carries a memory address)."""
    h = hashlib.sha256(code.co_code)
    h.update(repr((code.co_names, code.co_varnames, code.co_freevars)).encode())
    for const in code.co_consts:
        h.update(code_digest(const).encode() if hasattr(const, "co_code") else repr(const).encode())
    return h.hexdigest()


def chunk_key(configs, start: int, count: int) -> str:
    """The name of a chunk's task and part: the configurations' identities, the first unit and the
    count (a chunk's records are a pure function of them)."""
    return f"{group_digest([c.identity() for c in configs])}-{start}-{count}"


def group_digest(identities: list[dict]) -> str:
    """The part of a chunk's key that names its group of configurations (a run directory's plan
    lists their identities: ``show`` finds a plan's parts by it)."""
    from analyser.io.jsonable import dumps

    return hashlib.sha256(dumps(identities, sort_keys=True).encode()).hexdigest()[:20]


def _seat_list(items: list, spec: GameSpec, players: int) -> list:
    """The policy of each seat from one for all, one per team (a team game: team t's
    seats all get item t) or one per seat."""
    if len(items) == 1:
        return items * players
    teams = spec.team_of(players) if spec.teams else None
    if teams is not None and len(items) == len(set(teams)) < players:
        return [items[t] for t in teams]
    if len(items) != players:
        per_team = f", one per team ({len(set(teams))})" if teams is not None else ""
        raise UserError(f"give one policy for all seats{per_team} or one per seat ({players}), not {len(items)}")
    return items


def _policy_list(policies, spec: GameSpec) -> list:
    """One item (a name, a spec, a function) or a list or tuple of them."""
    if policies is None:
        return [spec.default_policy]
    if isinstance(policies, (list, tuple)):
        if not policies:
            raise UserError("give at least one policy")
        return list(policies)
    return [policies]
