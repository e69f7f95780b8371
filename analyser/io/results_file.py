"""Writing a results file so that it is never half there.

Record chunks stream into a temporary file beside the target (analyser.io.atomic.AtomicFile);
``close`` adds the metadata and renames it over the target in one step, ``discard`` removes
it. So an interrupted run (Ctrl-C, an error, a full disk) leaves the old file as it was, and
a results file, whenever it exists, is complete and carries its metadata.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from analyser.errors import UserError
from analyser.io.atomic import AtomicFile
from analyser.io.jsonable import dumps

META_KEY = b"analyser"
RESULTS_SUFFIX = ".parquet"
NOUN = "results file "
COPY_BLOCK = 8192            # records_table's block: about a megabyte of records, in the second-level cache


def writer_options(columns: list[str]) -> dict:
    """The Parquet writer's options for a records table: its defaults (dictionary pages, snappy,
    statistics) but for the unit index, whose values are all distinct: delta-encoded instead of
    put in a dictionary that fills up and is dropped, which took a tenth of the writing time
    and, in Palace, a quarter of the file (21.7 bytes a game become 15.7)."""
    if "unit" not in columns:
        return {}
    return {"use_dictionary": [c for c in columns if c != "unit"], "column_encoding": {"unit": "DELTA_BINARY_PACKED"}}


def check_target(path: Path, hint: str = "give the path of a regular file", noun: str = "") -> None:
    """Refuse what a writer must not replace: a symbolic link (``/dev/stdout`` is one: the
    file would replace the link, not reach the terminal), a directory, a device, anything
    under /proc, /dev or /sys. ``noun`` names the file (``results file ``), ``hint`` ends the
    message: what to give instead."""
    what = ("a symbolic link" if path.is_symlink() else "a directory" if path.is_dir()
            else "a special file" if path.exists() and not path.is_file()
            else "under /" + Path(os.path.abspath(path)).parts[1]
            if Path(os.path.abspath(path)).parts[1:2] in (("proc",), ("dev",), ("sys",)) else None)
    if what:
        raise UserError(f"cannot write {noun}{path}: it is {what}, not a regular file; {hint}")


def check_folder(path: Path, head: str) -> None:
    """Refuse, before any run, a file whose directory is missing (a typo in it is refused, as a shell
    would, rather than made) or not writable; ``head`` starts the message (``cannot plot to X``)."""
    if not path.parent.is_dir():
        raise UserError(f"{head}: there is no directory {path.parent}")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{head}: {path if path.exists() else path.parent} is not writable")


def check_results_path(path) -> Path:
    """A results file's path, checked before any run: a regular file ending in .parquet (``show``,
    ``merge`` and ``plot`` read Parquet back, so no other name is written) in a directory that
    exists (a typo in it is refused, as a shell would, rather than made)."""
    path = Path(path)
    check_target(path, f"give a file path ending in {RESULTS_SUFFIX} (the summary goes to stdout anyway; "
                       f"--format json or csv for programs)", "results file ")
    if path.suffix.lower() != RESULTS_SUFFIX:
        raise UserError(f"cannot write results file {path}: results files are Parquet, name a {RESULTS_SUFFIX} file "
                        f"(--format json or csv prints the summary in those formats)")
    if not path.parent.is_dir():
        raise UserError(f"cannot write results file {path}: no directory {path.parent}")
    return path


class RecordWriter:
    def __init__(self, path: str | Path, meta: dict, game):
        import pyarrow.parquet  # noqa: F401  (fail here, before any simulation, if missing)

        self.path = Path(path)
        self.meta = meta
        self.game = game
        self._writer = None
        self._schema = None
        check_results_path(self.path)
        self.existed = self.path.exists()
        self.file = AtomicFile(self.path, NOUN)

    def write(self, rec: np.ndarray, players: int):
        """Append a block of records (one row group)."""
        import pyarrow.parquet as pq

        table = self.table(rec, players)
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.file.open(), table.schema, **writer_options(table.schema.names))
        self._writer.write_table(table)

    def table(self, rec: np.ndarray, players: int):
        """The block as the Arrow table :func:`records_frame` would give, built from the record
        fields without pandas; the schema (with its pandas metadata) is pandas' own, from a
        frame of the first record, made once."""
        import pyarrow as pa

        labels = self.meta["policies"]
        if rec.size == 0:
            return pa.Table.from_pandas(records_frame(rec, self.game, players, labels), preserve_index=False)
        if self._schema is None:
            self._schema = pa.Table.from_pandas(records_frame(rec[:1], self.game, players, labels),
                                                preserve_index=False).schema
        return records_table(rec, self.game, players, labels, self._schema)

    def close(self, extra: dict):
        """Add the metadata and put the file in place."""
        if self._writer is None:
            self.discard()
            return
        self._writer.add_key_value_metadata({META_KEY: dumps({**self.meta, **extra})})
        try:
            self._writer.close()
        except BaseException:
            self.discard()
            raise
        self._writer = None
        self.file.commit()

    def discard(self):
        """Drop the partial file; an older file at the target stays untouched."""
        if self._writer is not None:
            try:
                self._writer.close()
            except Exception:  # closing a half-written file may fail; it is deleted anyway
                pass
            self._writer = None
        self.file.discard()


def write_frame(path: Path, frame: pd.DataFrame, meta: dict) -> None:
    """An analysis's table as Parquet with its metadata under the results-file key: a temporary
    file renamed into place, so a file at ``path`` is always complete."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = check_results_path(path)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: dumps(meta)})
    with AtomicFile(path, NOUN) as f:
        pq.write_table(table, f)


def read_results(path, kind: str | None = None, what: str = "") -> tuple[dict, object, Path]:
    """``(metadata, the pandas frame, path)`` of a results file, or a one-line UserError: no
    file, a damaged one, no analyser metadata, or (with ``kind``) another kind of result
    than ``what`` names. Every loader starts here; each then reads its own columns."""
    import pyarrow.parquet as pq

    path = Path(path)
    if not path.is_file():
        raise UserError(f"no results file at {path}")
    try:
        pf = pq.ParquetFile(path)
        stored = (pf.schema_arrow.metadata or {}).get(META_KEY) or (pf.metadata.metadata or {}).get(META_KEY)
        frame = pf.read().to_pandas() if stored is not None else None
    except Exception as err:  # pyarrow raises several types for a damaged file
        raise UserError(f"{path} is not a readable analyser results file ({type(err).__name__}: "
                        f"{str(err).splitlines()[0] if str(err) else 'no details'})") from None
    if stored is None:
        raise UserError(f"{path} is a Parquet file without analyser metadata (the run's game, seed and "
                        f"policies); only files written by analyser's --out can be shown")
    try:
        meta = json.loads(stored)
    except ValueError as err:
        raise UserError(f"{path} has damaged analyser metadata ({type(err).__name__}: {err})") from None
    if not isinstance(meta, dict):
        raise UserError(f"{path} has damaged analyser metadata (not a mapping)")
    if kind is not None and meta.get("kind") != kind:
        raise UserError(f"{path} is not {what}")
    return meta, frame, path


def seat_fields(game) -> set[str]:
    """The record fields with one value (or one row of values) per seat, as the record dtype declares them."""
    return {n for n in game.record_dtype.names if game.record_dtype.fields[n][0].shape[:1] == (game.max_seats,)}


def _columns(rec_dtype: np.dtype, name: str, players: int, per_seat: set[str]):
    """``(column name, index into the field)`` of each column a field becomes: one per
    value of a per-seat field's seats in play (``hand_score_2_1``: seat 2, hand 1), or
    the field itself. Seats beyond ``players`` are left out: they stay zero."""
    shape = rec_dtype.fields[name][0].shape
    if not shape:
        yield name, ()
        return
    for index in np.ndindex(players if name in per_seat else shape[0], *shape[1:]):
        yield "_".join([name, *(str(i) for i in index)]), index


def records_frame(rec: np.ndarray, game, players: int, labels: list[str]) -> pd.DataFrame:
    """Flatten a record array: per-seat fields become one column per seat (per seat
    and position for a field like ``hand_score``)."""
    per_seat = seat_fields(game)
    cols: dict = {}
    for name in rec.dtype.names:
        for column, index in _columns(game.record_dtype, name, players, per_seat):
            cols[column] = rec[name][(slice(None), *index)]
    frame = pd.DataFrame(cols)
    for s in range(players):
        frame[f"policy_{s}"] = pd.Categorical([labels[s]] * len(frame))
    return frame


def records_table(rec: np.ndarray, game, players: int, labels: list[str], schema):
    """:func:`records_frame` as an Arrow table of ``schema`` (``pa.Table.from_pandas`` of such
    a frame's), straight from the record fields: the same values, types and metadata as
    from_pandas gives, at a fifth of its time and without pandas. The columns are copied out
    of the records a block of COPY_BLOCK records at a time (a whole column at a time would
    read the chunk's records once per column from memory, four times slower); the policy
    columns are one-entry dictionaries."""
    import pyarrow as pa

    per_seat = seat_fields(game)
    fields = [rec[name][(slice(None), *index)]
              for name in rec.dtype.names for _, index in _columns(game.record_dtype, name, players, per_seat)]
    columns = [np.empty(rec.size, f.dtype) for f in fields]
    for start in range(0, rec.size, COPY_BLOCK):
        block = slice(start, start + COPY_BLOCK)
        for column, f in zip(columns, fields, strict=True):
            column[block] = f[block]
    arrays = [pa.array(column) for column in columns]
    codes = pa.array(np.zeros(rec.size, np.int8))
    for s in range(players):
        kind = schema.field(f"policy_{s}").type
        arrays.append(pa.DictionaryArray.from_arrays(codes, pa.array([labels[s]], type=kind.value_type)))
    return pa.Table.from_arrays(arrays, schema=schema)


def frame_records(frame: pd.DataFrame, game, players: int) -> np.ndarray:
    """Inverse of :func:`records_frame` (seats beyond ``players`` stay zero)."""
    per_seat = seat_fields(game)
    rec = np.zeros(len(frame), game.record_dtype)
    for name in game.record_dtype.names:
        for column, index in _columns(game.record_dtype, name, players, per_seat):
            rec[name][(slice(None), *index)] = frame[column].to_numpy()
    return rec

