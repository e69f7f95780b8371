"""The game registry: what each game offers, without importing its numba code.

A GameSpec is the whole contract between a game package and the rest of the
analyser: player counts, seats and teams, rule settings, policies, the record
(with the core's outcome block), the summary columns, and the entry points.
Built-in games are named in GAME_MODULES and imported when first asked for;
``register_game`` adds any other (a notebook's, the tests' toy game).
"""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from analyser.cache_check import check_cache_dir
from analyser.errors import UserError, choices
from analyser.games.policy_specs import PolicySpec
from analyser.io.numbers import plural
from analyser.kernels.outcome import ERROR, check_record_dtype

_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"0", "false", "off", "no"}


@dataclass(frozen=True)
class SettingSpec:
    """A rule setting: ``kind`` is 'bool', 'int' (``low``..``high``) or 'choice' (one of
    ``options``, named by users; its value in the settings row, like ``default``, is the option's index).

    ``report_values``: the values of a whole-number setting a balance report tries, steps a designer
    would weigh (``target`` 30 / 50 / 100, not 49 / 51); a setting whose 0 means "no limit" lists 0 and
    the limits worth trying, never 0 beside 1 as if adjacent. Left empty, a report tries one step either
    side of the current value."""

    name: str
    default: int
    description: str
    kind: str = "bool"
    low: int = 0
    high: int = 1
    options: tuple[str, ...] = ()
    report_values: tuple[int, ...] = ()

    def __post_init__(self):
        bad = [v for v in self.report_values if not self.low <= v <= self.high]
        if self.report_values and (self.kind != "int" or bad or len(set(self.report_values)) < 2):
            raise ValueError(f"setting {self.name}: report_values are two or more different whole numbers in "
                             f"{self.low}..{self.high} of an int setting, not {self.report_values}")

    def parse(self, text) -> int:
        value = str(text).strip().lower()
        if self.kind == "choice":
            names = [o.lower() for o in self.options]
            if value not in names:
                raise UserError(f"rule {self.name} is one of {choices(self.options)}, not '{text}'")
            return names.index(value)
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
        if self.kind == "choice":
            return self.options[value]
        return bool(value) if self.kind == "bool" else int(value)


@dataclass(frozen=True)
class Column:
    """One of a game's own summary columns, read from its records.

    ``per`` is "seat" (a value per seat and record: a ``(units, max_seats)``
    field) or "unit" (one value per record). ``kind`` is "mean" (a mean per
    completed unit) or "rate" (a 0/1 value, shown as a rate with a 95%
    interval). ``value(records, players)`` computes the values when they are
    not a record field of the column's name (Palace's loser rate). ``whole_only``: shown for a
    whole unit only, as a single sub-unit has it 1 or equal to another column (rounds, turns per round).
    """

    name: str
    description: str
    kind: str = "mean"
    per: str = "seat"
    value: Callable[[np.ndarray, int], np.ndarray] | None = None
    whole_only: bool = False

    def values(self, rec: np.ndarray, players: int) -> np.ndarray:
        """``(records, players)`` values ("seat") or ``(records,)`` ("unit"), in the field's own dtype."""
        if self.value is not None:
            return np.asarray(self.value(rec, players))
        field = rec[self.name]
        return field[:, :players] if self.per == "seat" else field


def _one_winner(players: int) -> float:
    return 1.0


def illegal_action_seat(code: int) -> Callable[[np.ndarray], int | None]:
    """A ``policy_error`` for records with ``error`` and ``error_seat`` fields: the
    seat of the first record whose error is ``code`` (an illegal action), or None."""
    def seat(rec: np.ndarray) -> int | None:
        bad = np.flatnonzero(rec["error"] == code)
        return int(rec["error_seat"][bad[0]]) if bad.size else None

    return seat


# What every built-in game's policies take, and how its records name a policy's illegal action.
POLICY_SIGNATURE = ("pub", "pv", "legal", "params")
ILLEGAL_ACTION_SEAT = illegal_action_seat(ERROR.ILLEGAL_ACTION)
# The entry points a game's package supplies under these names when its spec does not name them.
ENTRY_POINTS = {"simulate": "engine:simulate", "trace": "trace:trace_unit", "trace_text": "trace_text:render"}


@dataclass(frozen=True)
class GameSpec:
    """Everything the generic layer relies on about a game; nothing is inferred
    from the shapes of its fields. ``register_game`` checks it.

    The entry points:
      simulate(seed, first_unit, players, settings, fns, params, streams, out)
          plays units first_unit .. first_unit + len(out) - 1 into ``out`` (an
          array of record_dtype). ``fns`` and ``params`` have one entry per
          seat (``max_seats`` of them); ``streams[s]`` is the policy stream id
          of seat s (see analyser.kernels.rng), so a policy keeps its draws when
          seats are rotated.
      trace(seed, unit, players, settings, fns, params, streams)
          -> (events, record array of one): exactly the unit simulate played.
          In a game with sub-units every event of sub-unit k carries its name: k ("hand": k, "round": k).
      trace_text(events) -> the trace for people.
      policy_error(records) -> the seat whose policy chose an illegal action, or None.
      kit() -> the hooks of the shared test kit (analyser.games.kit.GameKit).
      view() -> how a replay page shows the game (analyser.games.view.GameView).

    What the kit checks every unit against, declared rather than guessed (as OpenSpiel's game
    type declares utility bounds and a maximum length):
      cap(players, settings) -> the most actions a unit may take (its ``length``), capped or not.
      score_bounds(players, settings) -> (lowest, highest): every seat's score in a completed unit.

    A game laid out as the built-in ones are names its ``package`` and leaves the
    first three out: they are ``<package>.engine:simulate``, ``<package>.trace:trace_unit``
    and ``<package>.trace_text:render`` (ENTRY_POINTS), loaded on first use. The
    policy signature and policy_error default to the built-in games' (POLICY_SIGNATURE,
    and the ``error``/``error_seat`` fields of analyser.kernels.outcome.STATUS_COUNTERS).

    ``single`` (games with sub-units) names the settings that make a unit one
    sub-unit from a fresh deal (``{"hands": 1}``), so users can simulate single
    hands: see one_sub_unit().
    """

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    max_seats: int                        # per-seat width of the record (and of fns, params, streams)
    default_policy: str
    settings: tuple[SettingSpec, ...]
    policies: tuple[PolicySpec, ...]
    record_dtype: np.dtype                # outcome block (analyser.kernels.outcome) + the game's own fields
    outcome: str                          # what a win is, in words: "not being the loser", "match won"
    single_outcome: str | None = None     # what a win is in a single sub-unit (None: as outcome)
    package: str | None = None            # the module the entry points not given are found under (ENTRY_POINTS)
    simulate: Callable | None = None
    trace: Callable | None = None
    trace_text: Callable | None = None
    policy_signature: tuple[str, ...] = POLICY_SIGNATURE   # argument names of a policy function
    policy_error: Callable[[np.ndarray], int | None] = ILLEGAL_ACTION_SEAT
    unit: str = "game"                    # what one record is: "game" or "match" ("hand", "round": one_sub_unit())
    sub_unit: str | None = None           # what a unit is made of: "hand", "round" (None: nothing)
    single: dict[str, int] | None = None  # settings that make a unit a single sub-unit (None: not offered)
    fixed: dict[str, int] | None = None   # settings users cannot change (one_sub_unit's spec: the single ones)
    length: str = "actions"               # what the record's length counts
    teams: Callable[[int], tuple[int, ...]] | None = None   # players -> team of each seat; None: no teams
    win_total: Callable[[int], float] = _one_winner         # players -> the win shares of a decided unit
    columns: tuple[Column, ...] = ()
    kit: Callable[[], object] | None = None
    cap: Callable[[int, dict[str, int]], int] | None = None                            # see above
    score_bounds: Callable[[int, dict[str, int]], tuple[float, float]] | None = None  # see above
    view: Callable[[], object] | None = None              # None: no replay page
    report_size: tuple[int, int] | None = None  # units per run, deals per pair of its report (None: the defaults)
    best_heuristic: str | None = None     # the strongest heuristic as measured, the field skill is read against
                                          # (None: the default policy)

    def __post_init__(self):
        for name, target in ENTRY_POINTS.items():
            if getattr(self, name) is None and self.package:
                object.__setattr__(self, name, lazy(f"{self.package}.{target}"))

    def code_key(self) -> str | None:
        """The key of the compiled code this game runs (analyser.kernels.cache.code_key of the
        module that holds it), or None for a game whose module has no file (defined in a notebook)."""
        from analyser.kernels.cache import code_key

        module = sys.modules.get(self.package or getattr(self.simulate, "__module__", ""))
        path = getattr(module, "__file__", None)
        return code_key(path) if path else None

    @property
    def policy_map(self) -> dict[str, PolicySpec]:
        return {p.name: p for p in self.policies}

    @property
    def heuristics(self) -> tuple[PolicySpec, ...]:
        """The built-in policies but the search players: what a report's tournament and the kit's
        line-ups seat (a search player plays thousands of worlds a decision)."""
        return tuple(p for p in self.policies if not p.search)

    @property
    def field(self) -> str:
        """The heuristic a strong player is measured against (``analyser skill``): the best one as measured."""
        return self.best_heuristic or self.default_policy

    def team_of(self, players: int) -> tuple[int, ...]:
        return tuple(self.teams(players)) if self.teams else tuple(range(players))

    @property
    def units(self) -> tuple[str, ...]:
        """What one record may be: the unit, and the sub-unit when the game declares ``single``."""
        return (self.unit, self.sub_unit) if self.single else (self.unit,)

    def one_sub_unit(self) -> GameSpec:
        """This game with one sub-unit (a hand from a fresh deal) as its unit: the same
        kernels, played with the ``single`` settings held fixed."""
        if not self.single:
            raise ValueError(f"game {self.name} declares no settings that make a {self.unit} one {self.sub_unit}")
        return replace(self, unit=self.sub_unit, sub_unit=None, single=None, fixed=dict(self.single),
                       outcome=self.single_outcome or self.outcome, single_outcome=None,
                       columns=tuple(c for c in self.columns if not c.whole_only))

    def for_unit(self, unit: str | None) -> GameSpec:
        """The spec whose records are ``unit`` (None: the game's own unit)."""
        if unit is None or unit == self.unit:
            return self
        if unit in self.units:
            return self.one_sub_unit()
        if len(self.units) == 1:
            raise UserError(f"{self.name} simulates only whole {plural(self.unit)}, not '{unit}'")
        raise UserError(f"{self.name} simulates a {self.unit} or a {self.sub_unit}, not '{unit}'")

    def default_settings(self) -> dict[str, int]:
        return {s.name: s.default for s in self.settings} | (self.fixed or {})

    def parse_settings(self, given: dict | None) -> dict[str, int]:
        known = {s.name: s for s in self.settings}
        values = self.default_settings()
        if given is not None and not isinstance(given, dict):
            raise UserError(f"rules must be a dict of setting name -> value, not {type(given).__name__}")
        for key, text in (given or {}).items():
            if key not in known:
                raise UserError(f"unknown rule '{key}' for {self.name}; valid: {choices(known)}")
            values[key] = known[key].parse(text)
            if self.fixed and key in self.fixed and values[key] != self.fixed[key]:
                raise UserError(f"rule {key} is fixed at {known[key].show(self.fixed[key])} when simulating "
                                f"single {plural(self.unit)}")
        return values

    def settings_row(self, values: dict[str, int]) -> np.ndarray:
        return np.array([values[s.name] for s in self.settings], dtype=np.int64)

    def check_players(self, players: int) -> int:
        if not self.min_players <= players <= self.max_players:
            span = (f"{self.min_players}" if self.min_players == self.max_players
                    else f"{self.min_players} to {self.max_players}")
            raise UserError(f"{self.name} is for {span} players, not {players}; "
                            f"valid: {choices(range(self.min_players, self.max_players + 1))}")
        return players

    def check(self) -> GameSpec:
        """Raise ValueError where the spec breaks the contract (called by register_game)."""
        check_record_dtype(self.record_dtype, self.max_seats, self.name)
        missing = [name for name in ENTRY_POINTS if getattr(self, name) is None]
        if missing:
            raise ValueError(f"game {self.name}: no {', '.join(missing)}: name them, or the package that holds them")
        if not 1 <= self.min_players <= self.default_players <= self.max_players <= self.max_seats:
            raise ValueError(f"game {self.name}: need 1 <= min_players <= default_players <= max_players <= max_seats")
        if self.default_policy not in self.policy_map:
            raise ValueError(f"game {self.name}: default policy '{self.default_policy}' is not among its policies")
        if self.best_heuristic is not None and self.best_heuristic not in {p.name for p in self.heuristics}:
            raise ValueError(f"game {self.name}: best heuristic '{self.best_heuristic}' is not among its heuristics")
        if not self.policy_signature or self.policy_signature[-1] != "params":
            raise ValueError(f"game {self.name}: a policy's last argument is its parameter row, 'params'")
        if self.unit not in ("game", "match", "hand", "round"):
            raise ValueError(f"game {self.name}: unit is 'game', 'match', 'hand' or 'round', not '{self.unit}'")
        for s in self.settings:
            if s.kind == "choice" and not 0 <= s.default < len(s.options):
                raise ValueError(f"game {self.name}: choice setting {s.name} needs options and a default among them")
        if self.single and (not self.sub_unit or not set(self.single) <= {s.name for s in self.settings}):
            raise ValueError(f"game {self.name}: single needs a sub_unit and names only its settings")
        for col in self.columns:
            if col.kind not in ("mean", "rate") or col.per not in ("seat", "unit"):
                raise ValueError(f"game {self.name}: column {col.name} has kind {col.kind}, per {col.per}")
            if col.value is None and col.name not in self.record_dtype.names:
                raise ValueError(f"game {self.name}: column {col.name} is not a record field and has no value()")
        for n in range(self.min_players, self.max_players + 1):
            if len(self.team_of(n)) != n:
                raise ValueError(f"game {self.name}: teams({n}) must name a team for each of {n} seats")
        return self


def lazy(target: str) -> Callable:
    """A function that imports ``"module:attr"`` on its first call and calls it: a
    game's spec names its numba entry points so, and listing games never loads numba
    (an unwritable compile cache is said once, before the first is loaded)."""
    module, _, attr = target.partition(":")

    def call(*args, **kwargs):
        check_cache_dir()
        return getattr(importlib.import_module(module), attr)(*args, **kwargs)

    call.__qualname__ = call.__name__ = target
    return call


# name -> module that defines GAME; built-in games load only when asked for.
GAME_MODULES = {
    "palace": "analyser.games.palace",
    "enemy_anemone": "analyser.games.enemy_anemone",
    "olenon": "analyser.games.olenon",
    "spite_and_malice": "analyser.games.spite_and_malice",
}
_REGISTERED: dict[str, GameSpec] = {}


def register_game(spec: GameSpec, replace: bool = False) -> GameSpec:
    """Add a game to the registry (the public way to bring a fifth game)."""
    spec.check()
    if not replace and (spec.name in _REGISTERED or spec.name in GAME_MODULES):
        raise ValueError(f"a game named {spec.name} is registered already")
    _REGISTERED[spec.name] = spec
    return spec


def game_names() -> list[str]:
    return list(GAME_MODULES) + [n for n in _REGISTERED if n not in GAME_MODULES]


def get_game(name: str) -> GameSpec:
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name not in GAME_MODULES:
        raise UserError(f"unknown game '{name}'; valid: {choices(game_names())}")
    spec = importlib.import_module(GAME_MODULES[name]).GAME
    _REGISTERED[name] = spec.check()
    return spec


def parse_rule_args(items: list[str] | None) -> dict[str, str]:
    """``['short_game=on', ...]`` -> ``{'short_game': 'on'}``."""
    out = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UserError(f"a rule is written NAME=VALUE, not '{item}'")
        out[key.strip()] = value.strip()
    return out


def length_text(game: str) -> str:
    """What a unit's length counts ("actions per game"), or a plain name for a game no longer registered."""
    try:
        spec = get_game(game)
    except UserError:
        return "the game's steps"
    return f"{spec.length} per {spec.unit}"
