"""What a store must notice about the SQLite file under it: a second writer, and the file
going away.

- `WriterLock`: an exclusive `flock` on `<db>.lock`, held for the process's life, so two
  servers cannot both own one SQLite store (the second got every table, and its stand-in
  bots played for people connected to the first). The kernel drops the lock when the
  process dies, so a SIGKILLed server leaves nothing to clean up.
- `FileIdentity`: the database file's (device, inode) when it was opened. A file deleted
  or replaced under a running server is still open to it, and SQLite would go on
  committing into the unlinked inode (16 moves were acknowledged into nothing). Checked
  before and after every commit; once it differs the store refuses every write.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from storage.errors import StorageError


class StoreLocked(StorageError):
    """Another process holds the store's writer lock."""


class StoreGone(StorageError):
    """The database file was deleted or replaced while the store was open."""


class WriterLock:
    """An exclusive, non-blocking lock on `<db>.lock` (a sidecar file, never the database)."""

    def __init__(self, db_path: Path) -> None:
        self.path = db_path.with_name(db_path.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise StoreLocked(f"{self.path.with_suffix('')} is in use by another server "
                              f"(pid {holder}); stop it first, or serve another --db") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
                os.close(self._fd)
            self._fd = None


class FileIdentity:
    """The (device, inode) of the database file, to notice it deleted or replaced."""

    def __init__(self, db_path: Path) -> None:
        self.path = db_path
        self.identity = self._now()
        self.lost: str | None = None
        """Why writes are refused, once the file changed (sticky: a restart is needed)."""

    def _now(self) -> tuple[int, int] | None:
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return None
        return found.st_dev, found.st_ino

    def check(self) -> None:
        """Raise StoreGone if the file is not the one opened (and from then on, always)."""
        if self.lost is None:
            now = self._now()
            if now is None:
                self.lost = f"the database file {self.path} was deleted"
            elif now != self.identity:
                self.lost = f"the database file {self.path} was replaced"
        if self.lost is not None:
            raise StoreGone(self.lost + " while the store was open: writes refused")
