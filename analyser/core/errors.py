"""The one exception type that reaches users as a one-line message."""


class UserError(ValueError):
    """Bad input from a user: the CLI prints ``str(err)`` and exits with code 2."""


def choices(values) -> str:
    return ", ".join(str(v) for v in values)
