"""The project's game checks, for any game: ``check_game(spec)``.

A game, registered or not, gives the kit a few hooks (``GameSpec.kit``: a
``GameKit`` whose ``play`` yields positions, see analyser.games.kit); then
``check_game(spec)`` plays it every way the project checks its own games (cards
conserved in random playouts, the action cap, trace = record, compiled = plain
Python, threads and chunks, hand sub-streams, policy streams, the outcome block,
hidden information and honest policies) and reports each check passed, failed or
skipped. The checks are plain functions (analyser.testing.checks), so this
needs no test framework: ``examples/check_highcard.py`` runs them on a game
written outside the package.
"""
from analyser.games.kit import GameKit, Position, RecordsPosition, recorded_positions, shuffle_hidden
from analyser.testing.checks import SkipCheck, checks_of
from analyser.testing.runner import CheckReport, CheckResult, check_game

__all__ = ["check_game", "CheckReport", "CheckResult", "SkipCheck", "checks_of", "GameKit", "Position",
           "RecordsPosition", "recorded_positions", "shuffle_hidden"]
