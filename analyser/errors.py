"""The exception types that reach users as a one-line message."""


class UserError(ValueError):
    """Bad input from a user: the CLI prints ``str(err)`` and exits with code 2."""


class Interrupted(UserError):
    """Ctrl-C during a run: what was done, and that no results file was left half written
    (the CLI prints it and exits with code 130)."""


def choices(values) -> str:
    return ", ".join(str(v) for v in values)
