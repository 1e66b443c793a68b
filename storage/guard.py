"""One writer per SQLite database file, whatever path names it.

`WriterLock` takes an exclusive `flock` on the database file itself, before SQLite opens
it (so before any `-wal` exists for that name). The kernel keys the lock on the file's
inode, so a second server reaching the same file through a symlink, a hard link or a
relative path is refused: a lock on the path as given (a `<db>.lock` beside it) let a hard
link start a second server with its own `-wal`. The lock goes with the process (a SIGKILLed
server leaves nothing to clean up). The holder is named from the kernel's lock table
(`/proc/locks`), which records the pid that took the lock.

An fd of the database file must not be closed while this process has SQLite connections
to it: closing *any* fd of a file drops every POSIX lock the process holds on it, and
SQLite's locks are POSIX locks (a connection that lost them may think itself the last one
and delete the WAL under the others). `_OpenFiles` counts the stores this process has open
per file and parks a lock fd until none has.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections import Counter
from pathlib import Path

from storage.errors import StoreLocked

FileKey = tuple[int, int]
"""(device, inode): what the kernel keys a lock on."""


class _OpenFiles:
    """Stores this process has open, per database file, and lock fds waiting to close."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users: Counter[FileKey] = Counter()
        self._parked: dict[FileKey, list[int]] = {}

    def opened(self, key: FileKey) -> None:
        with self._lock:
            self._users[key] += 1

    def closed(self, key: FileKey) -> None:
        with self._lock:
            self._users[key] -= 1
            if self._users[key] > 0:
                return
            del self._users[key]
            fds = self._parked.pop(key, [])
        for fd in fds:
            os.close(fd)

    def close_fd(self, key: FileKey, fd: int) -> None:
        """Close `fd` now if no store of this process uses the file, else once none does."""
        with self._lock:
            if self._users[key] > 0:
                self._parked.setdefault(key, []).append(fd)
                return
        os.close(fd)


OPEN_FILES = _OpenFiles()


def file_key(path: Path) -> FileKey:
    found = os.stat(path)
    return found.st_dev, found.st_ino


def flock_holder(key: FileKey, locks: Path = Path("/proc/locks")) -> int | None:
    """The pid holding a `flock` on the file `key`, from the kernel's lock table."""
    try:
        lines = locks.read_text().splitlines()
    except OSError:
        return None
    device, inode = key
    same_inode: int | None = None
    for line in lines:
        fields = line.split()
        if "->" in fields or len(fields) < 6 or fields[1] != "FLOCK":
            continue  # a waiter, or not a flock (SQLite's own locks are POSIX locks)
        major, minor, ino = fields[5].split(":")
        if int(ino) != inode:
            continue
        if (int(major, 16), int(minor, 16)) == (os.major(device), os.minor(device)):
            return int(fields[4])
        same_inode = int(fields[4])  # overlay file systems report another device
    return same_inode


class WriterLock:
    """An exclusive, non-blocking `flock` on the database file (created empty if missing)."""

    def __init__(self, db_path: Path) -> None:
        self.path = db_path
        self._fd: int | None = None
        self.key: FileKey | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        found = os.fstat(fd)
        key = found.st_dev, found.st_ino
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            OPEN_FILES.close_fd(key, fd)
            holder = flock_holder(key)
            who = f"pid {holder}" if holder is not None else "pid unknown"
            names = "" if os.path.realpath(self.path) == os.path.abspath(self.path) else (
                f", the file {os.path.realpath(self.path)}")
            raise StoreLocked(
                f"{self.path} is in use by another server ({who}{names}; the lock is on the "
                f"file, whatever name it is given): stop it first, or serve another --db"
            ) from None
        self._fd, self.key = fd, key

    def release(self) -> None:
        """Unlock now; the fd closes when no store of this process uses the file."""
        if self._fd is not None and self.key is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            OPEN_FILES.close_fd(self.key, self._fd)
            self._fd = None
