"""What every command shares: one-line errors with exit code 2, Ctrl-C as exit code
130, output formats, and help that names each default without loading any game
until the help is actually shown."""
from __future__ import annotations

import contextlib
import functools
import inspect
import typing
import warnings
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperCommand, TyperGroup

from analyser.engine.backend import EXECUTORS
from analyser.errors import AbortedUnits, Interrupted, UserError, stop_word, was_terminated

DEFAULT_CHUNK = 1 << 16     # analyser.engine.config's (not imported here: the CLI starts without numpy)

# Metavars: say what to type, not Python types (`<list[str]>`, `<int>`).
N = "N"
FILE = "FILE"
GAME = "GAME"
POLICY = "SPEC"                     # short, so that 80 columns leave the descriptions room (POLICY_HELP says it)
RULE = "NAME=VALUE"

# Help texts may name the games' own defaults with these tokens; they are filled
# in from the registry only when help is shown (no numba, and no game module is
# imported for a command that runs).
DEFAULT_POLICY = "{default_policy}"
DEFAULT_PLAYERS = "{default_players}"
SUB_UNITS = "{sub_units}"           # the games played in hands or rounds: "hand: enemy_anemone; round: olenon"
SINGLE_UNITS = "{single_units}"     # those of them that simulate a single hand or round (--unit)

INTERRUPTED_EXIT = 130   # 128 + SIGINT, what shells expect after Ctrl-C
TERMINATED_EXIT = 143    # 128 + SIGTERM


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def user_errors(fn):
    """Turn a UserError into one line on stderr and exit code 2, never a traceback;
    Ctrl-C into one line ("interrupted after N games; FILE was left as it was") and 130,
    SIGTERM into the same line ("terminated after ...") and 143."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            with aborted_warning():
                return fn(*args, **kwargs)
        except KeyboardInterrupt as err:  # before or between the runner's chunks (loading, writing)
            typer.echo(stop_word(err), err=True)
            raise typer.Exit(stop_code(err)) from None
        except UserError as err:
            if isinstance(err, Interrupted):   # Ctrl-C or SIGTERM during a run
                typer.echo(one_line(err), err=True)
                raise typer.Exit(stop_code(err)) from None
            typer.echo(f"error: {one_line(err)}", err=True)
            raise typer.Exit(2) from None

    return wrapper


def stop_code(err: BaseException | None) -> int:
    """The exit code after Ctrl-C (130) or SIGTERM (143)."""
    return TERMINATED_EXIT if was_terminated(err) else INTERRUPTED_EXIT


@contextlib.contextmanager
def aborted_warning():
    """A command's AbortedUnits warnings (one per run it plays) as one line on stderr once it is done:
    the aborted plays summed over its runs. Other warnings show as Python shows them."""
    seen: list[AbortedUnits] = []
    with warnings.catch_warnings():
        warnings.simplefilter("always", AbortedUnits)
        shown = warnings.showwarning

        def show(message, category, *args, **kwargs):
            if issubclass(category, AbortedUnits):
                seen.append(message)
            else:
                shown(message, category, *args, **kwargs)

        warnings.showwarning = show
        yield
    if seen:
        whats = {w.what for w in seen}
        total = AbortedUnits(sum(w.aborted for w in seen), sum(w.played for w in seen),
                             whats.pop() if len(whats) == 1 else "plays", all(w.lost for w in seen))
        typer.echo(f"warning: {total}", err=True)


def one_of(given: dict, default):
    """The value of the one option given among several names for it (``--count``, ``--deals``, ...)."""
    values = {name: v for name, v in given.items() if v is not None}
    if len(set(values.values())) > 1:
        raise UserError(f"{' and '.join(values)} are one option; give it once")
    return next(iter(values.values()), default)


def one_line(err) -> str:
    return " ".join(str(err).split("\n"))


def _specs():
    """Every registered game's spec that loads (numpy, never numba): help must never fail
    because one game cannot load."""
    from analyser.games.registry import game_names, get_game

    for name in game_names():
        try:
            yield get_game(name)
        except Exception:
            continue


def game_defaults(attr: str) -> str:
    """``palace: saver`` for every registered game's ``attr``."""
    return ", ".join(f"{spec.name}: {getattr(spec, attr)}" for spec in _specs())


def sub_unit_games(single: bool) -> str:
    """``hand: enemy_anemone; round: olenon, spite_and_malice``: the registered games played in hands
    or rounds, by what they are played in (``single``: only those that simulate a single one)."""
    groups: dict[str, list[str]] = {}
    for spec in _specs():
        if spec.sub_unit and (spec.single or not single):
            groups.setdefault(spec.sub_unit, []).append(spec.name)
    return "; ".join(f"{sub}: {', '.join(names)}" for sub, names in sorted(groups.items()))


def _fill_help(params) -> None:
    tokens = {DEFAULT_POLICY: lambda: game_defaults("default_policy"),
              DEFAULT_PLAYERS: lambda: game_defaults("default_players"),
              SUB_UNITS: lambda: sub_unit_games(single=False), SINGLE_UNITS: lambda: sub_unit_games(single=True)}
    for param in params:
        text = getattr(param, "help", None)
        if text:
            for token, fill in tokens.items():
                if token in text:
                    text = text.replace(token, fill())
            param.help = text


def _tidy(params):
    """No `<bool>` beside a flag (--help, --progress, --version, the completion flags) and
    no `<str>` beside an argument whose name (GAME, FILE) already says what it is."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        elif getattr(param, "param_type_name", "") == "argument" and param.metavar is not None:
            param.display_type_rich = _no_type
    return params


def _no_type(ctx=None):
    return None


class Command(TyperCommand):
    """A command whose help names the games' defaults and shows no type noise."""

    def get_params(self, ctx):
        return _tidy(super().get_params(ctx))

    def format_help(self, ctx, formatter):
        _fill_help(self.params)
        return super().format_help(ctx, formatter)


class Group(TyperGroup):
    def get_params(self, ctx):
        return _tidy(super().get_params(ctx))


def complete_game(incomplete: str) -> list[str]:
    """Shell completion of a game name (no game is loaded)."""
    from analyser.games.registry import game_names

    return [n for n in game_names() if n.startswith(incomplete)]


def _game_on_line(ctx):
    """The game named earlier on the command line being completed (None if none yet)."""
    from analyser.games.registry import game_names, get_game

    names = game_names()
    # after a dangling option (`--policy` being completed) the game is left among ctx.args
    name = ctx.params.get("game") or next((a for a in ctx.args if a in names), None)
    try:
        return get_game(name) if name else None
    except Exception:
        return None


def complete_policy(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a policy name of the game given before it on the line."""
    spec = _game_on_line(ctx)
    return [p.name for p in spec.policies if p.name.startswith(incomplete)] if spec else []


def complete_rule(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of a rule setting (``NAME=``) of the game given before it on the line."""
    spec = _game_on_line(ctx)
    return [f"{s.name}=" for s in spec.settings if s.name.startswith(incomplete)] if spec else []


def complete_unit(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of what one record is (``match``, ``hand``) for the game given before it on the line."""
    spec = _game_on_line(ctx)
    return [u for u in spec.units if u.startswith(incomplete)] if spec else []


# Options the commands share, declared once.
GameArg = Annotated[str, typer.Argument(metavar=GAME, help="Game to play; `analyser games` lists them.",
                                        autocompletion=complete_game, show_default=False)]
CountAlias = Annotated[int | None, typer.Option("--count", metavar=N, hidden=True)]
GamesAlias = Annotated[int | None, typer.Option("--games", metavar=N, hidden=True)]
MatchesAlias = Annotated[int | None, typer.Option("--matches", metavar=N, hidden=True)]
UnitOpt = Annotated[str | None, typer.Option("--unit", "-u", metavar="UNIT", autocompletion=complete_unit,
                                             show_default=False,
                                             help="What one unit is: a whole game or match (default), or, "
                                                  "for games played in hands or rounds, a single hand or "
                                                  f"round from a fresh deal ({SINGLE_UNITS}).")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", metavar=N, show_default=False,
                                      help="Run seed: with the settings it fixes every deal. Default: 0.")]
RuleOpt = Annotated[list[str] | None, typer.Option("--rule", metavar=RULE, autocompletion=complete_rule,
                                                   show_default=False,
                                                   help="A rule setting NAME=VALUE, repeatable.")]
MaxDealsOpt = Annotated[int, typer.Option("--max-deals", metavar=N, show_default=False,
                                          help="The cap for --precision. Default: 10,000,000.")]
ThreadsOpt = Annotated[int | None, typer.Option(
    "--threads", "-t", metavar=N, show_default=False,
    help="Worker threads; the numbers do not depend on it. Default: all cores.")]
NoProgressOpt = Annotated[bool, typer.Option("--no-progress", show_default=False,
                                             help="Show no progress bar (it goes to stderr).")]


Backend = Enum("Backend", {name: name for name in EXECUTORS}, type=str)   # --backend's choices


FirstDealOpt = Annotated[int, typer.Option(
    "--first-deal", metavar=N, show_default=False,
    help="The first unit to play: units FIRST .. FIRST+N-1 of the seed, so runs of one seed on disjoint "
         "ranges add up (`analyser merge`). Default: 0.")]
ChunkSizeOpt = Annotated[int, typer.Option(
    "--chunk-size", metavar=N, show_default=False,
    help="Units a chunk: what --run-dir keeps at a time and a Dask task plays. The numbers do not depend "
         "on it. Default: 65,536.")]
BackendOpt = Annotated[Backend | None, typer.Option(
    "--backend", show_default=False,
    help="Where to play: local (this process, --threads) or dask (a Dask cluster: --scheduler, or one "
         "started on this machine). The numbers are the same. Default: local.")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", metavar="ADDRESS", show_default=False,
    help="A Dask scheduler to run on (tcp://HOST:8786); implies --backend dask.")]
RunDirOpt = Annotated[Path | None, typer.Option(
    "--run-dir", metavar="DIR", show_default=False,
    help="Keep every finished chunk in DIR; the same command run again (after Ctrl-C, a kill or a crash) "
         "plays only what is missing and gives the same result. Default: none.")]


def where(backend: Backend | None, scheduler: str | None) -> str:
    """The analyses' ``backend`` argument from --backend and --scheduler."""
    if scheduler is not None:
        if backend == Backend.local:
            raise UserError("--scheduler runs on a Dask cluster: give --backend dask with it, or leave --backend out")
        return scheduler
    return (backend or Backend.local).value


# Options every command declares alike but explains in its own words.
def policy_option(help: str):
    """The repeatable ``--policy NAME[:PARAM=VALUE,...]``."""
    return Annotated[list[str] | None, typer.Option("--policy", metavar=POLICY, help=help,
                                                    autocompletion=complete_policy, show_default=False)]


def format_option(what: str = "result"):
    """``--format/-f table|json|csv``, its choices written as every command writes them."""
    return Annotated[Format, typer.Option("--format", "-f", show_default=False,
                                          help=f"How to print the {what}: table, json or csv. Default: table.")]


def out_option(what: str, more: str = ""):
    """``--out/-o FILE``: the Parquet file a command also writes (``what`` it holds)."""
    return Annotated[Path | None, typer.Option("--out", "-o", metavar=FILE, show_default=False,
                                               help=f"Also write {what} to this Parquet FILE.{more}")]


def players_option(help: str):
    """``--players/-p N``."""
    return Annotated[int | None, typer.Option("--players", "-p", metavar=N, help=help, show_default=False)]


def deals_option(help: str):
    """``--deals/-n N``, the units to play (``CountAlias``, ``GamesAlias`` and ``MatchesAlias`` are its other names)."""
    return Annotated[int | None, typer.Option("--deals", "-n", metavar=N, show_default=False, help=help)]


@dataclass(frozen=True)
class RunArgs:
    """The options of every command that plays units, read once (see :func:`plays_units`)."""
    policy: list[str] | None   # --policy, as given
    players: int | None
    count: int | None          # --deals / -n, or one of its other names
    unit: str | None
    seed: int
    rule: tuple[str, ...]      # as given (the report's command line repeats them)
    threads: int | None
    progress: bool
    first_deal: int = 0
    chunk_size: int = DEFAULT_CHUNK
    backend: str = "local"             # or "dask", or a scheduler address (where())
    run_dir: Path | None = None

    def placing(self) -> dict:
        """The analyses' keywords for where and how the units are played (the same numbers anyway)."""
        return {"first_deal": self.first_deal, "chunk_size": self.chunk_size, "backend": self.backend,
                "run_dir": self.run_dir}

    @property
    def rules(self) -> dict:
        from analyser.games.registry import parse_rule_args

        return parse_rule_args(list(self.rule) or None)


def plays_units(policy_help: str, players_help: str, deals_help: str, unit: bool = True, first: bool = True):
    """Give a command the options every command that plays units has (``--policy``,
    ``--players``, the count and its other names, ``--unit`` unless ``unit=False``, ``--seed``,
    ``--first-deal`` and ``--chunk-size`` unless ``first=False``, ``--rule``, ``--threads``, ``--backend``,
    ``--scheduler``, ``--run-dir``, ``--no-progress``), declared here once, after the command's
    required arguments (``GAME``), each command explaining the first three in its own words.
    The command receives them as ``run: RunArgs`` and its errors are worded by user_errors."""
    shared = [("policy", policy_option(policy_help), None), ("players", players_option(players_help), None),
              ("count", deals_option(deals_help), None), ("count2", CountAlias, None),
              ("games", GamesAlias, None), ("matches", MatchesAlias, None)]
    shared += [("unit", UnitOpt, None)] if unit else []
    shared += [("seed", SeedOpt, 0)] + ([("first_deal", FirstDealOpt, 0), ("chunk_size", ChunkSizeOpt, DEFAULT_CHUNK)]
                                        if first else [])
    shared += [("rule", RuleOpt, None), ("threads", ThreadsOpt, None), ("backend", BackendOpt, None),
               ("scheduler", SchedulerOpt, None), ("run_dir", RunDirOpt, None), ("no_progress", NoProgressOpt, False)]

    def decorate(fn):
        hints = typing.get_type_hints(fn, include_extras=True)
        own = [p.replace(annotation=hints[p.name]) for p in inspect.signature(fn).parameters.values()
               if p.name != "run"]
        extra = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=kind)
                 for name, kind, default in shared]
        at = next((i for i, p in enumerate(own) if p.default is not inspect.Parameter.empty), len(own))
        params = own[:at] + extra + own[at:]

        @functools.wraps(fn)
        def command(**kwargs):
            count = one_of({"--deals": kwargs.pop("count"), "--count": kwargs.pop("count2"),
                            "--games": kwargs.pop("games"), "--matches": kwargs.pop("matches")}, None)
            run = RunArgs(kwargs.pop("policy"), kwargs.pop("players"), count, kwargs.pop("unit", None),
                          kwargs.pop("seed"), tuple(kwargs.pop("rule") or ()), kwargs.pop("threads"),
                          not kwargs.pop("no_progress"), kwargs.pop("first_deal", 0),
                          kwargs.pop("chunk_size", DEFAULT_CHUNK),
                          where(kwargs.pop("backend"), kwargs.pop("scheduler")), kwargs.pop("run_dir"))
            return fn(**kwargs, run=run)

        command.__signature__ = inspect.Signature(params)
        command.__annotations__ = {p.name: p.annotation for p in params}
        return user_errors(command)

    return decorate
