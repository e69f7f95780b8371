"""What every command shares: one-line errors with exit code 2, and output formats."""
from __future__ import annotations

import functools
import json
import sys
from enum import Enum

import typer

from analyser.core.errors import UserError


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def user_errors(fn):
    """Turn a UserError into one line on stderr and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UserError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None

    return wrapper


def print_result(result, fmt: Format):
    """Print a SimulationResult as a terminal table, one JSON object, or CSV of the seat rows."""
    if fmt == Format.json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    elif fmt == Format.csv:
        result.summary.to_csv(sys.stdout, index=False)
    else:
        from analyser.cli.tables import print_tables

        print_tables(result)
