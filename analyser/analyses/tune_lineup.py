"""What a tuning plays: the tuned policy's search space read from its spec (the sweep's value grammar,
analyser.games.sweep_values, every value checked against the parameter's spec), and the opponents, each a
line-up of the other seats (see analyser.analyses.tune).
"""
from __future__ import annotations

from dataclasses import dataclass

from analyser.analyses.sweep_lineup import swept_policy
from analyser.analyses.sweep_plays import sweep_arrangements
from analyser.analyses.tune_search import Space
from analyser.errors import UserError, choices
from analyser.games.policy_specs import PolicySpec, SeatPolicy, as_seat_policy
from analyser.games.sweep_values import SYNTAX

EXAMPLE = "--policy 'timing:min_points=0..10,only_to_win=0|1'"


@dataclass(frozen=True)
class Tuned:
    """The tuned policy: its spec, the parameters given one value, the space, and the text as given."""
    spec: PolicySpec
    fixed: dict
    space: Space
    text: str

    def seat(self, point: dict) -> SeatPolicy:
        """The policy at ``point`` (a value per tuned parameter), the fixed ones as given."""
        return self.spec.bind(**self.fixed, **point)

    @property
    def defaults(self) -> SeatPolicy:
        return self.spec.bind(**self.fixed)


def tuned_policy(game_spec, policy, space: dict | None = None) -> Tuned:
    """The policy and its space: ``policy`` a spec with values (``"timing:min_points=0..10"``) or a policy
    (a name, PolicySpec or SeatPolicy) with ``space={"min_points": range(11)}``; each value checked."""
    if policy is None or isinstance(policy, (list, tuple)):
        raise UserError(f"give one policy to tune, with values for its parameters as {SYNTAX}, e.g. {EXAMPLE}")
    spec, fixed, swept, text = swept_policy(policy, game_spec.policy_map, space, game_spec.policy_signature)
    known = {p.name: p for p in spec.params}
    for key in [*swept, *fixed]:
        if key not in known:
            raise UserError(f"unknown parameter '{key}' for policy '{spec.name}'; valid: {choices(known) or '(none)'}")
    for key, values in swept.items():
        for v in values:
            known[key].parse(v, spec.name)          # a value out of its spec: one line naming the range
    tuned = {k: tuple(v) for k, v in swept.items() if len(v) > 1}
    fixed = {**fixed, **{k: v[0] for k, v in swept.items() if len(v) == 1}}
    if not tuned:
        raise UserError(f"nothing to tune: give two or more values for a parameter of '{spec.name}' as {SYNTAX}, "
                        f"e.g. {EXAMPLE}")
    defaults = spec.bind(**fixed).values
    result = Tuned(spec, fixed, Space(tuple(tuned), tuple(tuned.values()), tuple(defaults[k] for k in tuned)), text)
    if not isinstance(spec.fn, str):
        as_seat_policy(result.defaults, game_spec.policy_map, game_spec.policy_signature)   # a user function's arity
    return result


@dataclass(frozen=True)
class Opponent:
    """One opponent: the other seats' policies (seat 1 on), and the arrangements every deal is played in."""
    label: str
    seats: tuple[SeatPolicy, ...]
    homes: tuple[tuple[int, ...], ...]        # per arrangement, the line-up seat on each seat (its stream id)
    scheme: str

    @property
    def positions(self) -> list[int]:
        """Where the tuned seat (line-up seat 0) sits in each arrangement."""
        return [h.index(0) for h in self.homes]

    def lineup(self, tuned: SeatPolicy) -> list[SeatPolicy]:
        return [tuned, *self.seats]


def opponents(game_spec, players: int, against) -> list[Opponent]:
    """Each ``against`` item is an opponent: one policy in every other seat, or the other seats' policies
    joined by ``+`` (``greedy+lowball+greedy`` at 4 players). Default: the game's default policy."""
    items = [game_spec.default_policy] if against is None else list(against) if isinstance(against, (list, tuple)) \
        else [against]
    if not items:
        raise UserError("give at least one opponent (--against POLICY)")
    out = []
    teams = game_spec.team_of(players)
    for item in items:
        parts = [p.strip() for p in item.split("+")] if isinstance(item, str) else [item]
        if len(parts) == 1:
            parts = parts * (players - 1)
        elif len(parts) != players - 1:
            raise UserError(f"the opponent '{item}' names {len(parts)} policies; give one for every other seat "
                            f"({players - 1}), or one policy for all of them")
        seats = tuple(as_seat_policy(p, game_spec.policy_map, game_spec.policy_signature) for p in parts)
        label = item if isinstance(item, str) else seats[0].label()
        homes, scheme = sweep_arrangements(teams, ["tuned", *(s.label() for s in seats)])
        out.append(Opponent(label, seats, tuple(tuple(h) for h in homes), scheme))
    labels = [o.label for o in out]
    if len(set(labels)) != len(labels):
        raise UserError(f"an opponent is named twice: {', '.join(labels)}")
    return out


def neighbours(space: Space, point: dict) -> list[tuple[str, float, int]]:
    """The one-step deviations of ``point``: (parameter, value, step) for the values next to its own."""
    out = []
    for name, values in zip(space.names, space.values, strict=True):
        at = min(range(len(values)), key=lambda i: abs(values[i] - point[name]))
        for step in (-1, 1):
            if 0 <= at + step < len(values):
                out.append((name, values[at + step], step))
    return out

