"""Monte Carlo strategy analyser for card games.

Importing the package changes nothing global: it reads no game, imports no
numba and leaves ``os.environ`` (and so the user's own ``NUMBA_CACHE_DIR``)
alone. The compiled code of the package is cached under ``CACHE_DIR`` in
folders keyed by the sources it is made of (see analyser.kernels.cache), so an
edit to a game recompiles that game and an edit to anything that is not
compiled (the CLI, a message, a report) recompiles nothing. Everything heavy
is imported lazily.

Layout, each layer importing only those below it (checked by import-linter,
``make lint``)::

    cli/        the Typer commands
    analyses/   simulate, trace, compare, tournament, sweep, vary, skill, report: plans over the engine
    engine/     a run's configuration, the pipeline (plan, executor, sink, stop rule), progress
    games/      the registry and policy specs, and one package per game: compiled rules and engine,
                policies, trace text
    kernels/    compiled code every game shares (the compile cache's key)
    stats/, io/, plots/   leaves: statistics, results files and JSON, figures
"""
import sys as _sys

from analyser.errors import UserError
from analyser.kernels.paths import CACHE_DIR
from analyser.version import __version__


def simulate(*args, **kwargs):
    """Run a batch of games; see :func:`analyser.analyses.simulate.simulate`."""
    from analyser.analyses.simulate import simulate as _simulate

    return _simulate(*args, **kwargs)


def trace(*args, **kwargs):
    """Play one deal move by move; see :func:`analyser.analyses.trace.trace`."""
    from analyser.analyses.trace import trace as _trace

    return _trace(*args, **kwargs)


def replay(*args, **kwargs):
    """One deal as a self-contained web page to step through (``.save(path)``; shown inline in
    Jupyter); see :func:`analyser.analyses.replay.replay`."""
    from analyser.analyses.replay import replay as _replay

    return _replay(*args, **kwargs)


def compare(*args, **kwargs):
    """Policy A against policy B on duplicate deals; see :func:`analyser.analyses.compare.compare`."""
    from analyser.analyses.compare import compare as _compare

    return _compare(*args, **kwargs)


def sweep(*args, **kwargs):
    """One policy's parameters over values, in every seat, on common deals;
    see :func:`analyser.analyses.sweep.sweep`."""
    from analyser.analyses.sweep import sweep as _sweep

    return _sweep(*args, **kwargs)


def tune(*args, **kwargs):
    """A policy's best parameters against opponents: searched, raced against its defaults and confirmed on
    fresh deals; see :func:`analyser.analyses.tune.tune`."""
    from analyser.analyses.tune import tune as _tune

    return _tune(*args, **kwargs)


def tournament(*args, **kwargs):
    """Every pair of policies on common duplicate deals: head-to-head matrix and ratings;
    see :func:`analyser.analyses.tournament.tournament`."""
    from analyser.analyses.tournament import tournament as _tournament

    return _tournament(*args, **kwargs)


def vary(*args, **kwargs):
    """One line-up on the same deals under each value of one rule setting; see
    :func:`analyser.analyses.vary.vary`."""
    from analyser.analyses.vary import vary as _vary

    return _vary(*args, **kwargs)


def report(*args, **kwargs):
    """A balance report: seats, player counts, rule settings, policies and the shape of a game, each with a
    verdict and 95% intervals; see :func:`analyser.analyses.report.builder.report`."""
    from analyser.analyses.report.builder import report as _report

    return _report(*args, **kwargs)


def shape(*args, **kwargs):
    """The shape of a game: length, how units end, and from a per-step estimate of each side's chance
    lead changes, comebacks, the decisive point and drama; see :func:`analyser.analyses.shape.game_shape`."""
    from analyser.analyses.shape import game_shape as _shape

    return _shape(*args, **kwargs)


def skill(*args, **kwargs):
    """How much skill matters against the deal: relative skill, the luck share and the skill ladder;
    see :func:`analyser.analyses.skill.skill`."""
    from analyser.analyses.skill import skill as _skill

    return _skill(*args, **kwargs)


def load(path):
    """Read a results file written by ``simulate(..., out=...)``."""
    from analyser.analyses.show import load as _load

    return _load(path)


def rollout(*args, **kwargs):
    """Roll out every legal action of one position; see :func:`analyser.analyses.rollout.rollout`."""
    from analyser.analyses.rollout import rollout as _rollout

    return _rollout(*args, **kwargs)


def review(*args, **kwargs):
    """Roll out every real decision of one seat in one unit; see :func:`analyser.analyses.review.review`."""
    from analyser.analyses.review import review as _review

    return _review(*args, **kwargs)


def merge(paths, out=None):
    """Results files of one configuration and disjoint unit ranges as one run's result;
    see :func:`analyser.analyses.merge.merge`."""
    from analyser.analyses.merge import merge as _merge

    return _merge(paths, out)


def register_game(spec, replace: bool = False):
    """Add a game (a GameSpec) to the registry; see :func:`analyser.games.registry.register_game`."""
    from analyser.games.registry import register_game as _register

    return _register(spec, replace)


def warmup(*args, **kwargs):
    """Compile every game's code into the cache up front; see :func:`analyser.analyses.warmup.warmup`."""
    from analyser.analyses.warmup import warmup as _warmup

    return _warmup(*args, **kwargs)


__all__ = ["__version__", "simulate", "trace", "replay", "compare", "tournament", "sweep", "tune", "vary", "report",
           "skill", "shape",
           "load", "merge", "rollout", "review", "register_game", "warmup", "UserError", "CACHE_DIR"]

if "numba.core.caching" in _sys.modules:  # numba is loaded already: install the locator at once
    __import__("analyser.kernels.cache")
