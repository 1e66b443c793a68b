"""Typed failures of the event store, so callers branch on a class rather than on a message."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error the event store raises on purpose."""


class ConcurrencyConflict(StorageError):
    """Another writer appended to `stream` since the caller last read it.

    The caller saw `expected` events; the stream now holds `actual`. Re-read, re-decide, retry.
    """

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(f"stream {stream!r}: expected last seq {expected}, but it is {actual}")
        self.stream = stream
        self.expected = expected
        self.actual = actual

    def __reduce__(self) -> tuple[type[ConcurrencyConflict], tuple[str, int, int]]:
        return (type(self), (self.stream, self.expected, self.actual))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ConcurrencyConflict) and (
            self.stream,
            self.expected,
            self.actual,
        ) == (other.stream, other.expected, other.actual)

    def __hash__(self) -> int:
        return hash((self.stream, self.expected, self.actual))


class InvalidEvent(StorageError, ValueError):
    """An event the store refuses before touching the database (not a dict, no type, not JSON)."""


class StoreClosed(StorageError):
    """The store (or its async wrapper) was closed; no more appends are accepted."""


class StoreLocked(StorageError):
    """Another process (or another store in this one) holds the database file's writer lock."""


class StoreGone(StorageError):
    """A file of the store (the database, its WAL or shm) was deleted, replaced or shrunk
    while the store was open: nothing more is acknowledged."""
