"""``check_game``: every check of analyser.testing.checks on one GameSpec, as a report."""
from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from analyser.games.common import quiet_first_class
from analyser.games.registry import GameSpec, get_game
from analyser.testing.checks import SkipCheck, checks_of


@dataclass(frozen=True)
class CheckResult:
    """One check over all its cases: ``status`` is "passed", "failed" or "skipped";
    ``detail`` the failed case and its message, the skip's reason, or the cases played."""
    check: str
    status: str
    detail: str
    seconds: float

    def line(self) -> str:
        return f"{self.status:<7} {self.check:<27} {self.detail} ({self.seconds:.1f} s)"


@dataclass
class CheckReport:
    game: str
    results: list[CheckResult] = field(default_factory=list)

    def named(self, status: str) -> list[str]:
        return [r.check for r in self.results if r.status == status]

    @property
    def failed(self) -> list[str]:
        return self.named("failed")

    @property
    def skipped(self) -> list[str]:
        return self.named("skipped")

    @property
    def ok(self) -> bool:
        return not self.failed

    def summary(self) -> str:
        return f"{self.game}: {len(self.named('passed'))} passed, {len(self.failed)} failed, " \
               f"{len(self.skipped)} skipped"

    def __str__(self) -> str:
        return "\n".join([*(r.line() for r in self.results), self.summary()])


def check_game(spec: GameSpec | str, *, only: Iterable[str] | None = None, policies=None,
               source: str | None = None, tmp: str | Path | None = None, raise_on_failure: bool = True,
               on_result: Callable[[CheckResult], None] | None = None) -> CheckReport:
    """Run every check of the kit (analyser.testing.checks.checks_of) on a game, registered or not.

    spec: a GameSpec (or a registered game's name) whose ``kit`` gives the hooks of
    analyser.games.kit. only: the names of the checks to run (default: all).
    policies: what the hidden-information check asks (default: the game's built-in
    policies; add your own to prove they do not peek). source: ``"module:attribute"``
    where a child process imports the spec for the uncompiled run (default: the
    module that holds it). tmp: a folder for that run's file (default: a temporary one).
    on_result: called with each CheckResult as it is done (to print it).

    Every check runs, whatever fails before it; then, with ``raise_on_failure``, an
    AssertionError names each failed check and why. A check that cannot prove anything
    here (1 thread against 2 on a one-thread machine) is reported as skipped, with the reason.
    """
    game = get_game(spec) if isinstance(spec, str) else spec
    checks = checks_of(game, policies=policies, source=source)
    if only is not None:
        wanted = set(only)
        unknown = wanted - {c.name for c in checks}
        if unknown:
            raise ValueError(f"no check named {sorted(unknown)}; the checks: {[c.name for c in checks]}")
        checks = [c for c in checks if c.name in wanted]
    report = CheckReport(game.name)
    with tempfile.TemporaryDirectory(prefix="analyser-check-") as scratch, quiet_first_class():
        folder = Path(tmp) if tmp is not None else Path(scratch)
        for check in checks:
            result = run_check(check, folder)
            report.results.append(result)
            if on_result is not None:
                on_result(result)
    if raise_on_failure and report.failed:
        raise AssertionError(f"{game.name} failed {len(report.failed)} check(s): " + "; ".join(
            f"{r.check}: {r.detail}" for r in report.results if r.status == "failed"))
    return report


def run_check(check, folder: Path) -> CheckResult:
    """A check's cases in turn, up to the first that fails (any exception is a failure)."""
    start = time.perf_counter()
    played, skips = [], []
    for case in check.cases:
        try:
            case.run(folder)
        except SkipCheck as skip:
            skips.append(f"{case.label}: {skip}" if case.label else str(skip))
            continue
        except Exception as err:  # noqa: BLE001  (a crash in the game fails the check too)
            kind = "" if isinstance(err, AssertionError) else f"{type(err).__name__}: "
            where = f"{case.label}: " if case.label else ""
            return CheckResult(check.name, "failed", f"{where}{kind}{err}", time.perf_counter() - start)
        played.append(case.label)
    seconds = time.perf_counter() - start
    if not played:
        return CheckResult(check.name, "skipped", "; ".join(skips), seconds)
    detail = ", ".join(label for label in played if label) or "done"
    if skips:
        detail += " (skipped " + "; ".join(skips) + ")"
    return CheckResult(check.name, "passed", detail, seconds)
