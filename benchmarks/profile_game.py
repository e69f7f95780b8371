"""Run one game's units under `perf record` with the compiled functions named.

    perf record -o /tmp/palace.data .venv/bin/python benchmarks/profile_game.py palace [--count 600000]
    perf report -i /tmp/palace.data --no-children --sort sym

numba's machine code is anonymous memory to perf. This script compiles the
engine afresh (a temporary cache, so the code objects are in memory), then
writes /tmp/perf-<pid>.map with every compiled function's address and exact
size (from the object file's symbol table), which perf reads by itself. It
uses numba internals (CodeLibrary._get_compiled_object), so it is a tool for
speed work, not part of the package.
"""
from __future__ import annotations

import argparse
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

_CACHE = tempfile.mkdtemp(prefix="analyser-profile-")
os.environ["ANALYSER_CACHE_DIR"] = _CACHE           # before analyser is imported
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

import importlib  # noqa: E402

from analyser.engine.config import RunConfig  # noqa: E402
from analyser.engine.local import ChunkRunner  # noqa: E402
from analyser.engine.pipeline import set_threads  # noqa: E402
from analyser.games.registry import get_game  # noqa: E402

MIXES = {"palace": ("saver", "lowest", "pickup", "saver"),
         "enemy_anemone": ("timing", "greedy", "lowball", "timing"),
         "olenon": ("shed", "shed", "shed", "shed"),
         "spite_and_malice": ("builder", "builder")}


def symbols(library):
    """(address, size, name) of the functions defined in a compiled library
    (none for numba's own runtime library, which keeps no object code)."""
    try:
        code = library._get_compiled_object()
    except ValueError:
        return
    with tempfile.NamedTemporaryFile(suffix=".o") as obj:
        obj.write(code)
        obj.flush()
        listing = subprocess.run(["nm", "-S", "--defined-only", obj.name], capture_output=True, text=True).stdout
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tT" and int(parts[1], 16) > 0:
            address = library.get_pointer_to_function(parts[3])
            if address:
                yield address, int(parts[1], 16), parts[3]


def write_perf_map(dispatchers) -> int:
    libraries, seen, entries = [c.library for d in dispatchers for c in d.overloads.values()], set(), {}
    while libraries:
        library = libraries.pop()
        if id(library) not in seen:
            seen.add(id(library))
            libraries.extend(getattr(library, "_linking_libraries", ()))
            entries.update((a, (size, name)) for a, size, name in symbols(library))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for address in sorted(entries):
            size, name = entries[address]
            out.write(f"{address:x} {size:x} {name}\n")
    return len(entries)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("game", choices=sorted(MIXES))
    ap.add_argument("--count", "--deals", type=int, default=600_000)
    args = ap.parse_args()
    set_threads(1)
    mix = MIXES[args.game]
    runner = ChunkRunner(RunConfig.build(args.game, policies=list(mix), deals=args.count, seed=1))  # compiles now
    engine = importlib.import_module(f"analyser.games.{args.game}.engine")
    n = write_perf_map([engine._block_nb] + [spec.function for spec in get_game(args.game).policies])
    start = time.perf_counter()
    runner.run(0, args.count)
    seconds = time.perf_counter() - start
    print(f"{n} functions mapped; {args.count / seconds:,.0f} units/s ({', '.join(mix)}, one thread)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
