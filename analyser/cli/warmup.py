"""``analyser warmup``: compile every game's code into the cache once, before it is needed."""
from __future__ import annotations

from typing import Annotated

import typer

from analyser.cli import common


@common.user_errors
def warmup(
    games: Annotated[list[str] | None, typer.Argument(metavar="[GAME]...", show_default=False,
                                                      help="Games to warm (default: every one).")] = None,
    search: Annotated[bool, typer.Option("--search/--no-search",
                                         help="Also compile the search players (pimc, ismcts).")] = True,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", show_default="one a core",
                                             help="Games compiled at once, each in its own process.")] = None,
):
    """Compile what simulate, trace, replay, rollout and the search players run, into the compile cache.

    A game compiles on first use (seconds to a minute each); after this, every command loads it
    instead. Useful before a session, and in a cluster image before its workers start. numba compiles
    on one core a process, so the games compile side by side, one process a core."""
    import sys

    from analyser.analyses.warmup import warmup as warm
    from analyser.kernels.paths import CACHE_DIR

    def say(game):
        print(f"{game}: compiling or loading ...", file=sys.stderr, flush=True)

    for w in warm(games, search=search, progress=say, jobs=jobs):
        typer.echo(f"{w.game}: ready in {w.seconds:.1f} s ({', '.join(w.parts)})")
    typer.echo(f"compiled code cached in {CACHE_DIR}")
