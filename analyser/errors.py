"""The exception types that reach users as a one-line message."""


class UserError(ValueError):
    """Bad input from a user: the CLI prints ``str(err)`` and exits with code 2."""


class DiskFull(UserError):
    """A write that found no room (a full disk, a quota, a file-size limit): one line naming the file
    and the space it needed (analyser.io.atomic); a run directory's message adds the chunks it kept."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, a scheduler or a cluster ending a job), raised where Python delivers it
    and handled as Ctrl-C is: partial files removed, one line, exit code 143 (the CLI's main)."""


def was_terminated(err: BaseException | None) -> bool:
    """Whether a stop (Terminated, or an Interrupted that rewraps one) came from SIGTERM."""
    return isinstance(err, Terminated) or getattr(err, "terminated", False)


def stop_word(err: BaseException | None) -> str:
    """How a line names the stop: "terminated" after SIGTERM, "interrupted" after Ctrl-C."""
    return "terminated" if was_terminated(err) else "interrupted"


class Interrupted(UserError):
    """Ctrl-C (or SIGTERM: ``terminated``) during a run: what was done, and that no results file
    was left half written (the CLI prints it and exits with code 130, or 143)."""

    def __init__(self, message: str, terminated: bool = False):
        super().__init__(message)
        self.terminated = terminated


class AbortedUnits(UserWarning):
    """More than ABORT_LIMIT of a run's units (or plays: units x arrangements) hit the action cap:
    every share and rate is then over the completed ones only, which may not be the game's. A
    rollout's play-outs (``lost``) count an aborted one as no win for the seat instead."""

    def __init__(self, aborted: int, played: int, what: str, lost: bool = False):
        self.aborted, self.played, self.what, self.lost = aborted, played, what, lost
        if aborted == played and not lost:     # nothing to be "over": no share or rate at all
            super().__init__(f"all {played:,} {what} aborted at the action cap: none completed, so there is no "
                             f"share or rate to show")
            return
        then = ("each counts as no win and no score for the seat" if lost else
                f"every share and rate is over the {played - aborted:,} completed {what} only")
        super().__init__(f"{aborted:,} of {played:,} {what} ({100 * aborted / played:.1f}%) aborted at the action "
                         f"cap; {then}")


class TooFewCompleted(UserError):
    """Fewer than two units (deals) completed in a command that estimates from them: every one, or all but
    one, hit the action cap. One line and exit 2, instead of NaN without a word or a traceback."""

    def __init__(self, completed: int, units: int, what: str, task: str):
        self.completed, self.units = completed, units
        head = (f"all {units:,} {what} aborted at the action cap" if completed == 0 else
                f"only {completed:,} of {units:,} {what} completed, the rest aborted at the action cap")
        super().__init__(f"{head}; at least two completed are needed for {task}")


ABORT_LIMIT = 0.01


def choices(values) -> str:
    return ", ".join(str(v) for v in values)


def some_of(value, valid: tuple[str, ...], what: str) -> tuple[str, ...]:
    """The names of ``valid`` that ``value`` (one name, several, or None: all) asks for, in ``valid``'s
    order; a UserError naming the unknown ones (``what``: "report section") and the valid choices."""
    if value is None:
        return valid
    items = [value] if isinstance(value, str) else list(value)
    bad = [v for v in items if v not in valid]
    if bad or not items:
        raise UserError(f"unknown {what} {', '.join(map(str, bad)) or '(none)'}; valid: {choices(valid)}")
    return tuple(v for v in valid if v in items)


def counted(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and its noun, singular for one: "1 legal action", "2 legal actions", "1,000 matches"
    (``many``: a plural that is not the noun with -s or -es). Every count a line prints goes through it."""
    if n == 1:
        return f"1 {noun}"
    if many is None:
        many = (noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else
                noun + ("es" if noun.endswith(("ch", "sh", "s", "x")) else "s"))
    return f"{n:,} {many}"
