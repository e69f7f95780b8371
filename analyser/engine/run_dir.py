"""A run directory: every finished chunk kept on disk, so a run stopped in any way resumes.

``--run-dir DIR`` wraps the run's executor in :class:`StoredExecutor`. Each chunk it plays is written
as one Parquet part (the raw records of every configuration of the chunk's group, one
fixed-size binary column each, with a checksum): to a temporary file in DIR, then renamed
over its final name (analyser.io.atomic), then named in the manifest (``manifest.jsonl``, one
JSON line appended and fsynced a part). A full disk stops the run in one line, the parts
written so far kept for the next run. A part whose line is missing, or whose checksum does
not match, is never read: it is played again. Running the same command again plays only the
chunks the manifest lacks; the sink receives the same records in the same order, so every
command's result is the one an uninterrupted run gives, byte for byte in its records.

The manifest's first lines name the plans the command played (one a plan, in order: a
report or a sweep plays several) with the count each asked for; a plan that does not match
the one at the same place is refused in one line naming the difference. A plan may be longer
than the one recorded (a larger count extends the run: a line records the new count) as its
chunks are keyed by their first unit and count. A directory that holds anything but a run
is refused before anything is written in it; :func:`held` reads what a run directory holds
(``analyser show DIR``) without changing it.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyser.engine.background import Background
from analyser.engine.config import chunk_key, group_digest
from analyser.errors import UserError
from analyser.io.atomic import AtomicFile, is_partial, open_output, remove_stale, write_error
from analyser.io.jsonable import dumps

MANIFEST = "manifest.jsonl"
FORMAT = 1
COMPRESSION = {"compression": "lz4"}   # Palace's 136 bytes a game become 47 (zstd: 27, but +6.5% time)
FIRST = ("game", "unit", "players", "seed", "policies", "settings", "streams", "first", "chunk_size")
LAST = ("functions", "game_code", "analyser")   # named by a difference only when nothing a user set differs
WINDOW = 64                # chunks looked up at a time (the inner executor then has them in flight)
PART = re.compile(r"[0-9a-f]{20}-\d+-\d+\.parquet")     # a part's name: chunk_key and the suffix


def open_run_dir(run_dir):
    """The RunStore of ``run_dir`` (a path, or a store already open, or None): a command opens its
    directory once, so that each of its plans is matched against the plan at its place."""
    return run_dir if run_dir is None or isinstance(run_dir, RunStore) else RunStore(run_dir)


class RunStore:
    """A run directory's manifest and parts (the module docstring)."""

    def __init__(self, path):
        self.path = Path(path)
        self.plans_seen = 0
        if self.path.exists() and not self.path.is_dir():
            raise UserError(f"cannot use {self.path} as a run directory: it is a file, not a directory")
        if not self.path.parent.is_dir():
            raise UserError(f"cannot make run directory {self.path}: its folder {self.path.parent} does not exist")
        stranger = foreign(self.path)
        if stranger:
            raise UserError(f"cannot use {self.path} as a run directory: it holds {stranger!r}, which is not part of a "
                            f"run; give a new or an empty directory")
        try:
            self.path.mkdir(exist_ok=True)
            remove_stale(self.path, ".")            # a part being written when the run was killed
            self.plans, self.parts = read_manifest(self.path / MANIFEST)
            self.append(None)
        except OSError as err:
            raise UserError(f"cannot use run directory {self.path}: {err.strerror}") from None

    def match(self, plan) -> None:
        """Match ``plan`` against the manifest's plan at this place, or record it there."""
        identity = {"format": FORMAT, "first": plan.first, "chunk_size": plan.chunk_size,
                    "groups": [[c.identity() for c in group] for group in plan.groups]}
        identity = json.loads(dumps(identity, sort_keys=True))
        at = self.plans_seen
        if at < len(self.plans):
            difference = first_difference(self.plans[at]["plan"], identity)
            if difference:
                raise UserError(f"run directory {self.path} holds another run ({difference}); "
                                f"give a new --run-dir, or remove this one to start again")
            if plan.count > (self.plans[at].get("count") or 0):        # a larger count extends the run
                self.append({"kind": "count", "index": at, "count": plan.count})
                self.plans[at]["count"] = plan.count
        else:
            entry = {"kind": "plan", "index": at, "plan": identity, "count": plan.count}
            self.append(entry)
            self.plans.append(entry)
        self.plans_seen += 1

    def write(self, chunk, key: str, records: list[np.ndarray]) -> None:
        """The chunk's part: written to a temporary file, renamed, then named in the manifest."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns, sums = {}, []
        for i, rec in enumerate(records):
            raw = np.ascontiguousarray(rec).view(np.uint8)
            sums.append(zlib.crc32(raw))
            columns[f"config_{i}"] = pa.FixedSizeBinaryArray.from_buffers(
                pa.binary(rec.dtype.itemsize), rec.size, [None, pa.py_buffer(raw)])
        entry = {"kind": "part", "key": key, "group": chunk.group, "start": chunk.start, "count": chunk.count,
                 "crc32": sums}
        table = pa.table(columns).replace_schema_metadata({b"analyser_part": json.dumps(entry).encode()})
        with AtomicFile(self.path / f"{key}.parquet", "run directory chunk ") as f:
            pq.write_table(table, f, use_dictionary=False, write_statistics=False, **COMPRESSION)
        self.append(entry)
        self.parts[key] = entry

    def load(self, chunk, key: str, configs) -> list[np.ndarray] | None:
        """The chunk's records from its part, or None when the part is missing or damaged."""
        return read_part(self.path, self.parts[key], [config.game.record_dtype for config in configs])

    def append(self, entry: dict | None) -> None:
        """One line added to the manifest and on disk before anything else happens (None: only
        check that the manifest can be written)."""
        path, noun = self.path / MANIFEST, "run directory manifest "
        with open_output(path, "a", noun=noun) as f:
            if entry is not None:
                f.write((json.dumps(entry) + "\n").encode("utf-8"))
                f.flush()
                try:
                    os.fsync(f.fileno())
                except OSError as err:      # a disk that fills only when flushed (NFS) says so here
                    raise write_error(err, path, noun) from None


class StoredExecutor:
    """An executor keeping its chunks in a RunStore, around ``inner`` (both
    analyser.engine.pipeline.Executor)."""

    def __init__(self, inner, store: RunStore):
        self.inner, self.store = inner, store
        self.background = Background()
        self.groups = ()

    def prepare(self, plan, reuse_buffers: bool = False, held: int = 0) -> None:
        """Match the plan (RunStore.match), then ready the inner executor; it keeps one more
        buffer, for the part being written beside the next chunk's play."""
        self.store.match(plan)
        self.groups = plan.groups
        self.inner.prepare(plan, reuse_buffers, held + 1)

    def results(self, chunks):
        """Each chunk's records, read from its part or played (and saved), in the order given;
        ``chunks`` taken a window at a time (it may be very long)."""
        chunks = iter(chunks)
        while window := list(itertools.islice(chunks, WINDOW)):
            yield from self.window(window)

    def window(self, chunks: list):
        parts = self.store.parts
        keys = [chunk_key(self.groups[c.group], c.start, c.count) for c in chunks]
        played = self.inner.results([c for c, k in zip(chunks, keys, strict=True) if k not in parts])
        try:
            for chunk, key in zip(chunks, keys, strict=True):
                records = None
                if key in parts:
                    records = self.store.load(chunk, key, self.groups[chunk.group])
                    if records is None:        # a damaged part: played again, on its own
                        del parts[key]
                        again = self.inner.results([chunk])
                        _, records = next(again)
                        again.close()
                        self.save(chunk, key, records)
                else:
                    _, records = next(played)
                    self.save(chunk, key, records)
                yield chunk, records
        finally:
            played.close()

    def save(self, chunk, key: str, records: list[np.ndarray]) -> None:
        """Write the chunk's part beside the next chunk's play (one write in flight)."""
        self.background.submit(self.store.write, chunk, key, records)

    def close(self) -> None:
        try:
            self.background.close()
        finally:
            self.inner.close()

    def note(self) -> str:
        """For the Ctrl-C message: the parts are kept, and how to go on."""
        self.background.settle()
        done = len(self.store.parts)
        return (f"; {done:,} finished chunks are kept in {self.store.path}: the same command resumes from them"
                if done else "")


def read_part(folder: Path, entry: dict, dtypes: list[np.dtype]) -> list[np.ndarray] | None:
    """The records of a part (one array a configuration, of these dtypes), or None when the part
    is missing or damaged."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(folder / f"{entry['key']}.parquet")
        out = []
        for i, dtype in enumerate(dtypes):
            column = table.column(f"config_{i}").combine_chunks()
            raw = np.frombuffer(column.buffers()[1], np.uint8, entry["count"] * dtype.itemsize,
                                column.offset * dtype.itemsize)
            if zlib.crc32(raw) != entry["crc32"][i]:
                return None
            out.append(raw.copy().view(dtype))
        return out
    except (OSError, KeyError, ValueError, IndexError, TypeError):   # missing, truncated, not ours
        return None


def foreign(path: Path) -> str:
    """The first entry of the directory ``path`` that no run puts there ("" if none, or no directory)."""
    try:
        names = sorted(os.listdir(path))
    except (FileNotFoundError, NotADirectoryError):
        return ""
    return next((n for n in names if n != MANIFEST and not is_partial(n) and not PART.fullmatch(n)), "")


def read_manifest(path: Path) -> tuple[list[dict], dict[str, dict]]:
    """The plan lines (``plan``: the identity, ``count``: the count asked for) and the parts a
    manifest names; a last line cut short by a kill is cut off (so the next line appended starts
    a line of its own)."""
    if path.exists():
        with open(path, "rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)
    return manifest_entries(path)


def manifest_entries(path: Path) -> tuple[list[dict], dict[str, dict]]:
    """read_manifest's answer, the manifest left as it is (a torn line skipped)."""
    plans, parts = [], {}
    if not path.exists():
        return plans, parts
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("kind") == "plan":
                plans.append(entry)
            elif entry.get("kind") == "count" and entry.get("index", len(plans)) < len(plans):
                plans[entry["index"]]["count"] = entry["count"]
            elif entry.get("kind") == "part":
                parts[entry["key"]] = entry
    return plans, parts


@dataclass
class Held:
    """What a run directory holds of one plan: its identity, the count it asked for (None in a
    manifest older than the counts) and, per group of configurations, its parts by first unit."""
    plan: dict
    count: int | None
    parts: list[dict[int, dict]]

    def units(self, group: int = 0) -> int:
        """The units of ``group`` held from the plan's first one on, without a gap."""
        at, parts = self.plan["first"], self.parts[group]
        while at in parts:
            at += parts[at]["count"]
        return at - self.plan["first"]

    def chunks(self) -> tuple[int, int | None]:
        """The chunks held and the chunks the plan's count makes (None: not recorded)."""
        size = self.plan["chunk_size"]
        planned = None if self.count is None else len(self.parts) * -(-self.count // size)
        return sum(len(p) for p in self.parts), planned


def held(path) -> list[Held] | None:
    """Each plan a run directory holds and its parts, read without changing anything (None: no
    run directory at ``path``)."""
    path = Path(path)
    if not (path / MANIFEST).is_file():
        return None
    plans, parts = manifest_entries(path / MANIFEST)
    by_group = {}
    for entry in parts.values():
        by_group.setdefault(entry["key"].rsplit("-", 2)[0], {})[entry["start"]] = entry
    return [Held(p["plan"], p.get("count"), [by_group.get(group_digest(g), {}) for g in p["plan"]["groups"]])
            for p in plans]

def first_difference(recorded, given, where: str = "") -> str:
    """The first place two plan identities differ, in words (``seed: 3 in the directory, 4 here``)."""
    if isinstance(recorded, dict) and isinstance(given, dict):
        keys = list(recorded) + [k for k in given if k not in recorded]
        for key in sorted(keys, key=lambda k: (FIRST.index(k) if k in FIRST else len(FIRST), k in LAST)):
            if key not in recorded or key not in given:
                return f"{where + key} is {'only here' if key in given else 'only in the directory'}"
            found = first_difference(recorded[key], given[key], f"{where}{key}." if key != "groups" else where)
            if found:
                return found
        return ""
    if isinstance(recorded, list) and isinstance(given, list):
        if len(recorded) != len(given):
            return f"{where.rstrip('.') or 'configurations'}: {len(recorded)} in the directory, {len(given)} here"
        for a, b in zip(recorded, given, strict=True):
            found = first_difference(a, b, where)
            if found:
                return found
        return ""
    if recorded != given:
        return f"{where.rstrip('.')}: {recorded} in the directory, {given} here"
    return ""
