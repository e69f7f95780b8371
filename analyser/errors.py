"""The exception types that reach users as a one-line message."""


class UserError(ValueError):
    """Bad input from a user: the CLI prints ``str(err)`` and exits with code 2."""


class Interrupted(UserError):
    """Ctrl-C during a run: what was done, and that no results file was left half written
    (the CLI prints it and exits with code 130)."""


class AbortedUnits(UserWarning):
    """More than ABORT_LIMIT of a run's units (or plays: units x arrangements) hit the action cap:
    every share and rate is then over the completed ones only, which may not be the game's. A
    rollout's play-outs (``lost``) count an aborted one as no win for the seat instead."""

    def __init__(self, aborted: int, played: int, what: str, lost: bool = False):
        self.aborted, self.played, self.what, self.lost = aborted, played, what, lost
        then = ("each counts as no win and no score for the seat" if lost else
                f"every share and rate is over the {played - aborted:,} completed {what} only")
        super().__init__(f"{aborted:,} of {played:,} {what} ({100 * aborted / played:.1f}%) aborted at the action "
                         f"cap; {then}")


ABORT_LIMIT = 0.01


def choices(values) -> str:
    return ", ".join(str(v) for v in values)
