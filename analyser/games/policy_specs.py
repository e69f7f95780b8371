"""Policies as users name them: specs, parameters and the ``name:p=v,...`` syntax.

A PolicySpec pairs a compiled ``@njit`` decision function with named
parameters; a SeatPolicy is a spec with values chosen for one seat. The engine
only ever sees the function and a float64 row of parameter values, so one
compiled policy can be swept over its parameters without recompiling.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import numpy as np

from analyser.cache_check import check_cache_dir
from analyser.errors import UserError, choices
from analyser.kernels.search_row import ROW

MAX_PARAMS = 8
CHEATING = " (cheating)"        # after the label of a policy that sees every hidden card, wherever it is shown


@dataclass(frozen=True)
class ParamSpec:
    name: str
    default: float
    description: str = ""
    low: float | None = None
    high: float | None = None
    integer: bool = False
    options: tuple[str, ...] = ()   # a parameter named by users: its value is the option's index

    def parse(self, value, policy: str) -> float:
        """A value as a user wrote it: a number, or for a parameter with options, one of their names."""
        if self.options:
            if isinstance(value, str) and value.strip() in self.options:
                return float(self.options.index(value.strip()))
            if isinstance(value, str) and value.strip().isdigit():     # an option by its number, as in open=1
                value = int(value.strip())
            if not isinstance(value, str) and float(value) in range(len(self.options)):
                return float(value)
            raise UserError(f"parameter {policy}:{self.name} is one of {choices(self.options)}, not '{value}'")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise UserError(f"parameter {policy}:{self.name} must be a number, not '{value}'") from None
        return self.check(number, policy)

    def show(self, value: float) -> str:
        return self.options[int(value)] if self.options else _fmt(value)

    def check(self, value: float, policy: str) -> float:
        if self.integer and value != int(value):
            raise UserError(f"parameter {policy}:{self.name} takes a whole number, not {value:g}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise UserError(f"parameter {policy}:{self.name}={value:g} is out of range "
                            f"{self.low:g}..{self.high:g}")
        return float(value)


@dataclass(frozen=True)
class PolicySpec:
    """A named policy: its numba function, a one-line description, its parameters."""

    name: str
    fn: object                  # an @njit function, or "module:attribute" naming one (loaded on first use)
    description: str = ""
    params: tuple[ParamSpec, ...] = ()
    # (seat policy, game, settings row) -> what the engine appends to its params row after the
    # named values (analyser.games.search_specs: a search player's rollout row and the rules)
    context: object = None
    search: bool = False        # a compiled search player (its rollouts play a heuristic of the game)
    cheats: str | None = None   # the parameter that, when not 0, shows the policy every hidden card

    def __post_init__(self):
        if len(self.params) > MAX_PARAMS:
            raise ValueError(f"a policy takes at most {MAX_PARAMS} parameters")

    @property
    def function(self):
        """The compiled function. Built-in policies name theirs as "module:attribute"
        so that listing policies never imports numba."""
        if isinstance(self.fn, str):
            return load_function(self.fn, self.name)
        return self.fn

    def defaults(self) -> dict[str, float]:
        return {p.name: float(p.default) for p in self.params}

    def bind(self, **values: float) -> SeatPolicy:
        """This policy with some parameters set; the rest keep their defaults."""
        known = {p.name: p for p in self.params}
        chosen = self.defaults()
        for key, value in values.items():
            if key not in known:
                raise UserError(f"unknown parameter '{key}' for policy '{self.name}'; "
                                f"valid: {choices(known) or '(none)'}")
            chosen[key] = known[key].parse(value, self.name)
        return SeatPolicy(self, chosen)


def load_function(path: str, name: str):
    """The function ``module:attribute`` names, or one line naming the policy and what went wrong (no
    such module, an error while importing it, no such attribute) instead of the import's traceback."""
    module, _, attr = path.partition(":")
    if not module or not attr:
        raise UserError(f"policy '{name}' names its function as {path!r}: give it as 'module:function'")
    check_cache_dir()
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name and module.startswith(err.name) and module[len(err.name):][:1] in ("", "."):
            raise UserError(f"policy '{name}': there is no module {err.name!r} to import {path!r} from (is it "
                            f"on sys.path?)") from None
        raise UserError(f"policy '{name}': importing {module} failed: {err}") from None
    except Exception as err:
        text = " ".join(str(err).split()) or "no message"
        raise UserError(f"policy '{name}': importing {module} raised {type(err).__name__}: {text}") from None
    try:
        return getattr(found, attr)
    except AttributeError:
        raise UserError(f"policy '{name}': module {module} has no {attr!r}") from None


@dataclass(frozen=True)
class SeatPolicy:
    spec: PolicySpec
    values: dict[str, float] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def cheating(self) -> bool:
        """Whether this seat sees what its seat cannot (a search player's open variant)."""
        return self.spec.cheats is not None and self.values[self.spec.cheats] != 0

    def label(self) -> str:
        """``name`` or ``name:p=v,...`` listing only values that differ from the defaults, and CHEATING
        after a policy that sees every hidden card (parse_spec takes the label back as it is)."""
        shown = {p.name: p for p in self.spec.params}
        changed = [f"{k}={shown[k].show(v)}" for k, v in self.values.items() if v != self.spec.defaults()[k]]
        return self.name + (":" + ",".join(changed) if changed else "") + (CHEATING if self.cheating else "")

    def row(self) -> np.ndarray:
        out = np.zeros(MAX_PARAMS)
        for i, p in enumerate(self.spec.params):
            out[i] = self.values[p.name]
        return out

    def to_dict(self) -> dict:
        return {"policy": self.name, "params": dict(self.values)}

    def engine_row(self, game, settings: np.ndarray, players: int) -> np.ndarray:
        """The row the engine hands this seat's policy (analyser.kernels.search_row): the named values,
        then, for a search player, what its rollouts need (its spec's ``context``); ROW long, or
        longer for an open search player (the room for the table the engine shows it)."""
        tail = np.zeros(ROW - MAX_PARAMS) if self.spec.context is None else self.spec.context(self, game, settings,
                                                                                             players)
        return np.concatenate([self.row(), tail])


def same_policy(a: SeatPolicy, b: SeatPolicy) -> bool:
    """Whether two seat policies are one policy under two names: the same compiled function
    with the same parameter row (so they can differ only through their random streams)."""
    return a.spec.function is b.spec.function and bool(np.array_equal(a.row(), b.row()))


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def split_spec(text: str) -> tuple[str, dict[str, str]]:
    """``"name:p=v,q=w"`` -> ``("name", {"p": "v", "q": "w"})``, values as written."""
    name, _, rest = text.strip().partition(":")
    values: dict[str, str] = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise UserError(f"policy parameter '{item}' must look like name=value")
        if key.strip() in values:
            raise UserError(f"parameter '{key.strip()}' is given twice in '{text}'")
        values[key.strip()] = value.strip()
    return name.strip(), values


def parse_spec(text: str, available: dict[str, PolicySpec]) -> SeatPolicy:
    """Parse ``name`` or ``name:param=value,param=value``, or a policy of one's own by module path,
    ``module:attribute`` or ``module:attribute:param=value,...`` (user_policy): a name that is not a
    built-in one but has a dot, or is a module that imports, is a module path. A label's CHEATING
    mark is taken off (the parameters say it again)."""
    text = text.strip().removesuffix(CHEATING)
    head, _, rest = text.strip().partition(":")
    if head.strip() not in available and rest and "=" not in rest.split(":")[0]:
        if importable(head.strip()):
            return user_policy(text)
        raise UserError(f"policy '{text}': no built-in policy and no module named '{head.strip()}' in the "
                        f"current directory or on sys.path; built-in: {choices(available)}")
    name, values = split_spec(text)
    if name not in available:
        raise UserError(unknown_policy(name, available))
    return available[name].bind(**values)


def importable(module: str) -> bool:
    """Whether ``module`` names a module path of a user policy: it has a dot, or it is found (in the
    current directory or on sys.path) without being imported."""
    import importlib.util

    if "." in module:
        return True
    with _from_here():
        try:
            return bool(module.isidentifier() and importlib.util.find_spec(module) is not None)
        except (ImportError, ValueError):
            return False


def user_policy(text: str) -> SeatPolicy:
    """``mypkg.mymod:fn`` or ``mypkg.mymod:fn:param=value,...``: the PolicySpec or ``@njit`` function
    ``fn`` of module ``mypkg.mymod``, imported from the current directory or sys.path, with its
    parameters (a PolicySpec's). A module that is not found, fails to import or has no such
    attribute is one line."""
    module, _, rest = text.strip().partition(":")
    attr, _, params = rest.partition(":")
    module, attr = module.strip(), attr.strip()
    _, values = split_spec(f"{attr}:{params}")
    try:
        with _from_here():
            found = importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name is not None and (module == err.name or module.startswith(err.name + ".")):
            raise UserError(f"policy '{text}': no module named '{err.name}' in the current directory or on "
                            f"sys.path") from None
        raise UserError(f"policy '{text}': importing {module} failed: {err}") from None
    except Exception as err:     # noqa: BLE001  a user's module may raise anything on import: one line
        raise UserError(f"policy '{text}': importing {module} raised {type(err).__name__}: {err}") from None
    fn = getattr(found, attr, None)
    if fn is None:
        raise UserError(f"policy '{text}': module {module} has no '{attr}'")
    spec = fn if isinstance(fn, PolicySpec) else PolicySpec(attr, fn, f"user policy {module}:{attr}")
    return spec.bind(**values)


class _from_here:
    """The current directory on sys.path while a user's module is found and imported, as
    ``python -m`` has it (the ``analyser`` script does not)."""

    def __enter__(self):
        import os
        import sys

        self.added = os.getcwd() not in sys.path and "" not in sys.path
        if self.added:
            sys.path.insert(0, os.getcwd())

    def __exit__(self, *exc):
        import os
        import sys

        if self.added and os.getcwd() in sys.path:
            sys.path.remove(os.getcwd())
        return False


def unknown_policy(name: str, available: dict[str, PolicySpec]) -> str:
    """The message for a policy name that is not the game's: the valid names, and how a policy of
    one's own is given (by itself, since names are only the built-in ones)."""
    return (f"unknown policy '{name}'; valid: {choices(available)}, or a policy of your own as module:function "
            f"(its module in the current directory or on sys.path)")


def _arity(fn) -> int | None:
    """How many positional arguments a plain or ``@njit`` function takes (None: unknown)."""
    code = getattr(getattr(fn, "py_func", fn), "__code__", None)
    return code.co_argcount if code is not None else None


def check_arity(fn, name: str, signature: tuple[str, ...]) -> None:
    n = _arity(fn)
    if n is not None and n != len(signature):
        raise UserError(f"policy '{name}' takes {n} argument{'s' if n != 1 else ''}; a policy of this game "
                        f"takes {len(signature)}: ({', '.join(signature)})")


def as_seat_policy(item, available: dict[str, PolicySpec], signature: tuple[str, ...] = ()) -> SeatPolicy:
    """Accept a spec string, a PolicySpec, a SeatPolicy or a bare ``@njit`` function;
    a function is checked against the game's policy ``signature`` (argument names)."""
    if isinstance(item, str):
        item = parse_spec(item, available)
    elif isinstance(item, PolicySpec):
        item = item.bind()
    elif not isinstance(item, SeatPolicy):
        if not callable(item):
            raise UserError(f"a policy must be a name, a PolicySpec or an @njit function, "
                            f"not {type(item).__name__}")
        item = PolicySpec(getattr(item, "__name__", "custom"), item, "user policy").bind()
    if not isinstance(item.spec.fn, str):
        check_compiled(item.spec.fn, item.name)
        if signature:
            check_arity(item.spec.fn, item.name, signature)
    return item


def check_compiled(fn, name: str) -> None:
    """A policy runs inside the compiled engine: a plain Python function would fail there with
    numba's type error, far from its cause."""
    from numba.core.dispatcher import Dispatcher

    if not isinstance(fn, Dispatcher):
        raise UserError(f"policy '{name}' is not compiled: decorate it with @numba.njit (the engine calls "
                        f"policies from compiled code)")
