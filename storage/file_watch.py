"""What a SQLite store must notice about the files under it: any of them gone, replaced or
shrunk.

A server keeps the database, its write-ahead log (`-wal`) and its shared index (`-shm`)
open. Deleted or replaced, each stays open to it under its old inode, and SQLite goes on
committing into the unlinked copy: with the `-wal` deleted, moves were acknowledged into a
file nobody will read again, and a kill -9 lost every move since the last checkpoint.
Truncated in place (the same inode), the database loses its pages. So the store records
each file's (device, inode) and size when it opens, checks them before and after every
commit and on a timer, and once anything differs refuses every write from then on.

Neither the database nor the WAL ever shrinks while the store is open (no VACUUM, no
`journal_size_limit`: a checkpoint rewrites the WAL from its start but keeps its size), so
a smaller file is damage, not housekeeping; an outside `wal_checkpoint(TRUNCATE)` counts
as damage too. A file truncated *during* a commit grows back (SQLite writes its pages at
their old offsets, over a hole), so the database's and the WAL's headers are read too
(through fds held on the very files SQLite has open): truncated to nothing and written
again, a file has lost its header.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from storage.errors import StoreGone
from storage.guard import OPEN_FILES

SIDE_FILES = {"-wal": "write-ahead log", "-shm": "shared-memory index"}
"""SQLite's companions of a database in WAL mode, by suffix."""

HEADERS: dict[str, tuple[bytes, ...]] = {
    "": (b"SQLite format 3\x00",),
    "-wal": (bytes.fromhex("377f0682"), bytes.fromhex("377f0683")),
}
"""How a file starts once SQLite has written it (the WAL's magic, in either byte order)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """One file as it was: its identity, the largest size seen, its header once written."""

    device: int
    inode: int
    size: int
    header_seen: bool = False


@dataclass(frozen=True, slots=True)
class Loss:
    """What changed, in words for the operator, and whether it can still be saved."""

    reason: str
    wal_rescuable: bool
    """The database is whole and the WAL's name no longer leads to the file the store has
    open (deleted or replaced), which is itself whole: what it holds can still be copied
    into the database (a checkpoint through the store's own connections)."""


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


class FileWatch:
    """The database file and its `-wal` and `-shm`, checked against what they were at open.

    `check()` is cheap (three stats, two 16-byte reads) and thread-safe. The first
    difference is sticky: it is kept as `lost`, `on_loss` is called once (from the thread
    that noticed), and every later `check()` raises StoreGone. A file that did not exist
    when the watch began (a database not in WAL mode) is not watched. `close()` when the
    store closes.
    """

    def __init__(self, db_path: Path, on_loss: Callable[[Loss], None] | None = None) -> None:
        self.path = db_path
        self._on_loss = on_loss
        self._lock = threading.Lock()
        self._files: dict[str, Seen] = {}
        self._names = {suffix: f"{db_path}{suffix}" for suffix in ("", *SIDE_FILES)}
        """Each file's name as a str, made once (a Path per stat was most of a check)."""
        self._fds: dict[str, int] = {}
        """Read-only fds on the database and the WAL as opened, for their headers."""
        for suffix in ("", *SIDE_FILES):
            name = f"{db_path}{suffix}"
            found: os.stat_result | None
            if suffix in HEADERS:
                try:
                    fd = os.open(name, os.O_RDONLY | os.O_CLOEXEC)
                except FileNotFoundError:
                    continue
                found = os.fstat(fd)
                self._fds[suffix] = fd
            else:
                found = _stat(name)
                if found is None:
                    continue
            self._files[suffix] = Seen(found.st_dev, found.st_ino, found.st_size,
                                       self._header_ok(suffix))
        self.lost: str | None = None
        """Why writes are refused, once a file changed (sticky: a restart is needed)."""

    def check(self) -> None:
        """Raise StoreGone if any file is not the one opened, is smaller than it was, or
        lost its header."""
        if self.lost is None:
            loss = None
            with self._lock:
                if self.lost is None:
                    loss = self._compare()
                    if loss is not None:
                        self.lost = loss.reason
            if loss is not None and self._on_loss is not None:
                self._on_loss(loss)
        if self.lost is not None:
            raise StoreGone(self.lost + " while the store was open: writes refused")

    def close(self) -> None:
        """Give the fds back: the WAL's at once, the database's once no store of this
        process uses it (closing it would drop SQLite's POSIX locks: storage/guard.py)."""
        with self._lock:
            fds, self._fds = self._fds, {}
        for suffix, fd in fds.items():
            seen = self._files[suffix]
            if suffix == "":
                OPEN_FILES.close_fd((seen.device, seen.inode), fd)
            else:
                os.close(fd)

    def _header_ok(self, suffix: str) -> bool:
        fd = self._fds.get(suffix)
        if fd is None:
            return False
        expected = HEADERS[suffix]
        return os.pread(fd, len(expected[0]), 0) in expected

    def _compare(self) -> Loss | None:
        changes: dict[str, str] = {}
        for suffix, seen in self._files.items():
            now = _stat(self._names[suffix])
            if now is None:
                changes[suffix] = "deleted"
            elif (now.st_dev, now.st_ino) != (seen.device, seen.inode):
                changes[suffix] = "replaced"
            elif now.st_size < seen.size:
                changes[suffix] = f"truncated ({seen.size} -> {now.st_size} bytes)"
            elif seen.header_seen and not self._header_ok(suffix):
                changes[suffix] = "truncated and written again (its header is gone)"
            else:
                self._files[suffix] = Seen(seen.device, seen.inode, now.st_size,
                                           seen.header_seen or self._header_ok(suffix))
        if not changes:
            return None
        reason = "; ".join(
            f"the database's {SIDE_FILES[suffix]} {self.path}{suffix} was {change}" if suffix
            else f"the database file {self.path} was {change}"
            for suffix, change in changes.items())
        rescuable = ("" not in changes and changes.get("-wal") in ("deleted", "replaced")
                     and not changes.get("-shm", "").startswith("truncated"))
        return Loss(reason, rescuable)
