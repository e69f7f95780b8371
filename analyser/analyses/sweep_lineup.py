"""The line-up of a sweep read from its policies: which seat is swept, over which parameter values
(analyser.games.sweep_values), the policy of every other seat, and the baseline
(see analyser.analyses.sweep).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from analyser.errors import UserError, choices
from analyser.games.policy_specs import PolicySpec, SeatPolicy, as_seat_policy, same_policy, split_spec, unknown_policy
from analyser.games.sweep_values import MAX_VALUES, SYNTAX, has_values, parse_values
from analyser.io.numbers import general

MAX_SWEPT = 2


@dataclass(frozen=True)
class SweptLineup:
    """The line-up of a sweep: its seats, the swept seat, and the swept seat's policy at every setting."""
    seats: tuple[SeatPolicy, ...]          # the line-up, the swept seat at the first setting
    seat: int                              # the swept seat
    names: tuple[str, ...]                 # the swept parameters
    values: tuple[tuple[float, ...], ...]  # each parameter's values
    policies: tuple[SeatPolicy, ...]       # the swept seat's policy at each setting (cartesian product)
    text: str                              # the swept policy as given
    baseline: SeatPolicy                   # the swept policy at its defaults (or the baseline given)

    @property
    def baseline_row(self) -> int | None:
        """The setting that plays as the baseline (None: the baseline is played besides the values)."""
        return next((i for i, s in enumerate(self.policies) if same_policy(s, self.baseline)), None)


def swept_policy(item, available: dict[str, PolicySpec], values: dict | None, signature):
    """(the policy's spec, fixed parameter values, swept name -> values) of the swept policy."""
    if values is not None:
        seat = as_seat_policy(item, available, signature)
        if not isinstance(values, dict) or not values:
            raise UserError("values must be a dict of parameter name -> values, e.g. {'max_pile': range(13)}")
        swept = {}
        for key, vals in values.items():
            if isinstance(vals, str):
                vals = parse_values(vals, key) or [vals]
            try:
                vals = [float(v) for v in vals]
            except (TypeError, ValueError):
                raise UserError(f"the values of {key} must be numbers") from None
            if not vals:
                raise UserError(f"no values given for {key}")
            swept[key] = vals
        fixed = {k: v for k, v in seat.values.items() if k not in swept}
        text = seat.spec.name + ":" + ",".join(
            [f"{k}={general(v)}" for k, v in fixed.items() if v != seat.spec.defaults()[k]]
            + [f"{k}={'|'.join(general(v) for v in vals)}" for k, vals in swept.items()])
        return seat.spec, fixed, swept, text
    name, items = split_spec(item)
    if name not in available:
        raise UserError(unknown_policy(name, available))
    fixed, swept = {}, {}
    for key, text in items.items():
        vals = parse_values(text, f"{name}:{key}")
        if vals is None:
            fixed[key] = text
        else:
            swept[key] = vals
    return available[name], fixed, swept, item.strip()


def _baseline_values(baseline, spec: PolicySpec, names: tuple[str, ...]) -> dict[str, float]:
    """The baseline's swept parameters: their defaults, with those given (a dict or ``p=v,q=w``)."""
    chosen = {n: spec.defaults()[n] for n in names}
    if baseline is None:
        return chosen
    given = split_spec(f"{spec.name}:{baseline}")[1] if isinstance(baseline, str) else baseline
    if not isinstance(given, dict):
        raise UserError("the baseline must be a dict of swept parameter -> value, or 'param=value,...'")
    for key, value in given.items():
        if key not in names:
            raise UserError(f"the baseline sets '{key}', which is not swept; swept: {', '.join(names)}")
        chosen[key] = value                     # bind checks it
    return chosen


def swept_lineup(game_spec, players: int, policies, values: dict | None = None, baseline=None) -> SweptLineup:
    """Read the line-up, the swept values and the baseline (see the module docstring); every value checked."""
    available, signature = game_spec.policy_map, game_spec.policy_signature
    if policies is None:
        raise UserError(f"give the policy to sweep, e.g. --policy 'pickup:max_pile=0..12' ({SYNTAX})")
    items = list(policies) if isinstance(policies, (list, tuple)) else [policies]
    if not items:
        raise UserError(f"give the policy to sweep, e.g. --policy 'pickup:max_pile=0..12' ({SYNTAX})")
    if values is not None:
        marked = [0]
    else:
        marked = [i for i, item in enumerate(items) if has_values(item)]
    if not marked:
        raise UserError(f"nothing to sweep: give one parameter values as {SYNTAX} in one --policy, "
                        f"e.g. pickup:max_pile=0..12")
    if len(marked) > 1:
        raise UserError(f"only one seat's policy can be swept; --policy {marked[0] + 1} and {marked[1] + 1} "
                        f"both have values ({SYNTAX})")
    k = marked[0]
    if len(items) == players:
        order = list(range(players))
    elif len(items) == 2 and players > 2:
        if k != 0:
            raise UserError("with one policy for all the other seats, the swept policy comes first")
        order = [0] + [1] * (players - 1)
    elif len(items) == 1:
        order = [0] * players
    else:
        raise UserError(f"give one policy per seat ({players}), or the swept policy and one for all the other "
                        f"seats, not {len(items)}")
    spec, fixed, swept, text = swept_policy(items[k], available, values, signature)
    if len(swept) > MAX_SWEPT:
        raise UserError(f"at most {MAX_SWEPT} parameters can be swept at once, not {len(swept)} "
                        f"({', '.join(swept)})")
    known = {p.name: p for p in spec.params}
    for key in swept:
        if key not in known:
            raise UserError(f"unknown parameter '{key}' for policy '{spec.name}'; valid: "
                            f"{choices(known) or '(none)'}")
    names = tuple(swept)
    total = math.prod(len(v) for v in swept.values())
    if total > MAX_VALUES:
        raise UserError(f"the sweep has {total:,} settings; at most {MAX_VALUES:,}")
    for key, vals in swept.items():          # one message naming the range, for the first bad value
        for v in vals:
            known[key].check(v, spec.name)
    settings = tuple(spec.bind(**fixed, **dict(zip(names, combo, strict=True)))
                     for combo in itertools.product(*swept.values()))
    swept_seat = order.index(k)
    seats = []
    for s, i in enumerate(order):
        if s == swept_seat:
            seats.append(settings[0])
        elif i == k:                          # the swept policy alone: others at its defaults for swept params
            seats.append(spec.bind(**fixed))
        else:
            seats.append(as_seat_policy(items[i], available, signature))
    if not isinstance(spec.fn, str):
        as_seat_policy(settings[0], available, signature)        # a user function: check its arity
    base = spec.bind(**fixed, **_baseline_values(baseline, spec, names))
    return SweptLineup(tuple(seats), swept_seat, names, tuple(tuple(v) for v in swept.values()), settings, text, base)
