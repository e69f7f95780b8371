"""pytest-xdist's workers fill the compile cache game by game before they collect.

Most of a game's kernels are compiled when their module is imported (they have explicit
signatures), and every worker imports every game when it collects the suite; two processes
that find one function missing from the cache both compile it. So when ``pytest -n N`` runs
the whole suite, tests/conftest.py hands each worker a share of the games: the worker imports
its share, then waits until every worker has imported its own, then collects. On an empty
cache each game compiles once, the shares side by side; on a full one the imports only load
what collecting would load anyway.
"""
from __future__ import annotations

import importlib
import pkgutil
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WAIT = 1800            # seconds a worker waits for the others before it collects anyway


def game_packages() -> list[tuple[list[str], int]]:
    """Per game, the packages that compile its code (the game's own and its tests' helpers, or an
    example game's) and the bytes of their sources, which is what its compile time follows."""
    games = []
    for folder in sorted((ROOT / "analyser" / "games").iterdir()):
        if (folder / "__init__.py").is_file():
            tests = ROOT / "tests" / "games" / folder.name
            games.append(([f"analyser.games.{folder.name}", f"tests.games.{folder.name}"], [folder, tests]))
    for folder in sorted((ROOT / "examples").iterdir()):
        if (folder / "__init__.py").is_file():
            games.append(([folder.name], [folder]))
    return [(names, sum(p.stat().st_size for f in folders for p in f.glob("*.py"))) for names, folders in games]


def shares(workers: int) -> list[list[str]]:
    """The games dealt to ``workers`` workers, largest first to whichever has the least so far."""
    out, load = [[] for _ in range(workers)], [0] * workers
    for names, size in sorted(game_packages(), key=lambda g: -g[1]):
        least = load.index(min(load))
        out[least] += names
        load[least] += size
    return out


def import_all(packages: list[str]) -> None:
    """Import every module of each package but the test modules (pytest imports those itself, to
    rewrite their asserts): a kernel with a signature compiles, or loads, as it is decorated."""
    for name in packages:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            if not module.name.rpartition(".")[2].startswith("test_"):
                importlib.import_module(module.name)


def warm_then_wait(packages: list[str], folder: str, worker: str, workers: int) -> None:
    """Import this worker's share, say so in ``folder``, and wait until every worker has."""
    try:
        import_all(packages)
    finally:
        (Path(folder) / worker).touch()
        deadline = time.monotonic() + WAIT
        while len(list(Path(folder).iterdir())) < workers and time.monotonic() < deadline:
            time.sleep(0.2)
