"""Every file the analyser writes, never half there, and a full disk said in one line.

A file is written under a temporary name beside its target, ``.NAME.PID@HOST.TOKEN.partial``
(made with the user's umask, as the target will have it), and renamed over the target in one
step once complete (:class:`AtomicFile`); a failed or interrupted write removes it, so an older
file stays as it was. A run killed outright (``kill -9``) cannot remove its temporary file:
its name holds the writer's process id and host, and the next writer there removes it once
that process is gone.

Every byte goes through one low-level write (:func:`write_some`, under :func:`open_output`):
an OSError there becomes one line naming the file, the target's name and not the temporary
one: a full disk, a quota or a file-size limit (ENOSPC, EDQUOT, EFBIG) as DiskFull with the
space the file needed (what it had written and the write that failed), anything else as a
UserError. Parquet (pyarrow), figures (matplotlib) and text all write through it, in any
thread, so no writer handles a full disk itself.
"""
from __future__ import annotations

import errno
import io
import os
import secrets
import socket
from pathlib import Path

from analyser.errors import DiskFull, UserError

PARTIAL = ".partial"
FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
BUFFER = 1 << 20

write_some = os.write      # the one low-level write; tests replace it to fill a disk


def nbytes(n: int) -> str:
    """``412 bytes``, ``3.1 kB``, ``2.4 MB``, ``1.1 GB`` (decimal units, as df -H shows them)."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:,} bytes"


def write_error(err: OSError, name, noun: str = "", needed: int | None = None) -> UserError:
    """The one line for an OSError writing ``name`` (``noun`` names its kind: ``results file ``)."""
    reason = (err.strerror or str(err)).lower()
    if err.errno in FULL:
        room = f"; it needed at least {nbytes(needed)} there" if needed else ""
        return DiskFull(f"cannot write {noun}{name}: {reason}{room}; free some space, or write it to another disk")
    return UserError(f"cannot write {noun}{name}: {reason}")


class _Counted(io.FileIO):
    """A raw file whose writes go through write_some and fail as one line naming ``name``."""

    def __init__(self, path, mode: str, name, noun: str):
        super().__init__(path, mode)
        self.name_shown, self.noun, self.written = name, noun, 0

    def write(self, data) -> int:
        size = memoryview(data).nbytes
        try:
            done = write_some(self.fileno(), data)
        except OSError as err:
            raise write_error(err, self.name_shown, self.noun, self.written + size) from None
        self.written += done
        return done


def open_output(path, mode: str = "w", name=None, noun: str = "") -> io.BufferedWriter:
    """``path`` opened for binary writing (mode ``w`` or ``a``) through write_some; an error names
    ``name`` (default: ``path``)."""
    return io.BufferedWriter(_Counted(path, mode, path if name is None else name, noun), BUFFER)


class AtomicFile:
    """A file written under a temporary name and renamed over ``path`` once complete (the module
    docstring). ``with AtomicFile(path) as f: f.write(...)`` puts it in place at the end of the
    block and removes it if the block fails; a file written across calls (a results file, chunk
    by chunk) uses ``open``, ``commit`` and ``discard``."""

    def __init__(self, path, noun: str = ""):
        self.path, self.noun = Path(path), noun
        self.tmp = partial_file(self.path, noun)
        self.file = None

    def open(self) -> io.BufferedWriter:
        self.file = open_output(self.tmp, name=self.path, noun=self.noun)
        return self.file

    def commit(self) -> Path:
        try:
            if self.file is not None:
                self.file.close()
            os.replace(self.tmp, self.path)
        except OSError as err:
            self.discard()
            raise write_error(err, self.path, self.noun) from None
        except BaseException:
            self.discard()
            raise
        return self.path

    def discard(self) -> None:
        """Drop the temporary file; an older file at the target stays untouched."""
        if self.file is not None:
            try:
                self.file.close()
            except Exception:   # the close flushes what the failed write left: it fails the same way
                pass
        self.tmp.unlink(missing_ok=True)

    def __enter__(self) -> io.BufferedWriter:
        return self.open()

    def __exit__(self, kind, err, trace) -> None:
        if kind is None:
            self.commit()
            return
        self.discard()
        if isinstance(err, OSError):
            raise write_error(err, self.path, self.noun) from None


def write_file(path, data: bytes | str, noun: str = "") -> Path:
    """``data`` (text as UTF-8) written to ``path`` as an AtomicFile."""
    with AtomicFile(path, noun) as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
    return Path(path)


def partial_file(path: Path, noun: str = "") -> Path:
    """A new empty temporary file beside ``path`` (the module docstring), after removing the
    temporary files of ``path`` left by writers on this host that are gone."""
    host = socket.gethostname()
    remove_stale(path.parent, f".{path.name}.")
    while True:
        tmp = path.with_name(f".{path.name}.{os.getpid()}@{host}.{secrets.token_hex(4)}{PARTIAL}")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return tmp
        except FileExistsError:
            continue
        except OSError as err:
            raise write_error(err, path, noun) from None


def is_partial(name: str) -> bool:
    """Whether ``name`` is a temporary file of this module's."""
    return name.startswith(".") and name.endswith(PARTIAL)


def remove_stale(folder: Path, prefix: str) -> None:
    """Remove the temporary files in ``folder`` whose names start with ``prefix`` and whose writer
    process, on this host, no longer runs; a live writer's (another run to the same target) and
    other hosts' stay."""
    host = socket.gethostname()
    try:
        names = [e.name for e in os.scandir(folder) if e.name.startswith(prefix) and is_partial(e.name)]
    except OSError:
        return                                  # partial_file says what is wrong with the directory
    for name in names:
        writer, _, token = name[:-len(PARTIAL)].rpartition(".")      # .NAME.PID@HOST, TOKEN
        before, _, where = writer.rpartition("@")                     # a host's name may hold dots
        pid = before.rpartition(".")[2]
        if token and where == host and pid.isdigit() and not running(int(pid)):
            (folder / name).unlink(missing_ok=True)


def running(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
