"""The SQLite write path in raw sqlite3: the same statements SQLAlchemy would send, without
its per-row work.

Profiled at 50 busy tables the store writer was a third of the server's samples, much of it
SQLAlchemy compiling, binding and processing rows for a handful of executemany calls per
commit; its thread also fights the event loop for the GIL. Here the commit is planned by the
shared rules (storage/plan.py), then written with prepared statements on one sqlite3
connection the writer keeps checked out of the engine's pool (so it has the engine's PRAGMAs:
WAL, synchronous=FULL, busy timeout), in a transaction it begins itself (BEGIN IMMEDIATE):
SQLAlchemy's checkout, begin, commit and return cost more CPU than SQLite's own work for a
one-event commit (profiled: ~0.3 ms of ~1 ms). Times are written in the
text SQLAlchemy's own type would write (its bind processor, called once per commit), so
the normal reader and `verify` see the same rows. A sqlite3 error comes out as the same
SQLAlchemy exception the old path raised (DBAPIError.instance), so callers are unchanged.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from storage.errors import ConcurrencyConflict
from storage.plan import Head, Plan, UnitResult, plan_units, seal
from storage.prepare import PreparedAppend
from storage.schema import UTCDateTime

_IN_CHUNK = 500  # streams per IN (...) list when reading heads
_KNOWN_MAX = 100_000  # remembered heads before the memory starts again


class _Stale(Exception):
    """A head this writer remembered is not the database's (another writer appended)."""

_INSERT_STREAM = ("INSERT INTO streams (stream, last_seq, last_hash, created_at, updated_at, "
                  "head_mac) VALUES (?, ?, ?, ?, ?, ?)")
_ADVANCE_HEAD = ("UPDATE streams SET last_seq = ?, last_hash = ?, updated_at = ?, head_mac = ? "
                 "WHERE streams.stream = ? AND streams.last_seq = ?")
_INSERT_EVENTS = ("INSERT INTO events (stream, seq, type, payload, recorded_at, prev_hash, hash) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)")


class RawSqliteWriter:
    """Commits units to a SQLite store through the engine's pooled sqlite3 connections."""

    def __init__(self, engine: Engine) -> None:
        self._pooled = engine.raw_connection()  # "connect" ran the engine's PRAGMAs on it
        db = self._pooled.driver_connection
        assert isinstance(db, sqlite3.Connection)
        self.connection: sqlite3.Connection = db
        """The writer's own connection (a test hooks its COMMIT to freeze a writer there)."""
        self._lock = threading.Lock()
        """One transaction at a time on the connection (the store is shared by threads)."""
        self._known: dict[str, tuple[int, str]] = {}
        """Each stream's head as this writer last committed it: read from here instead of
        the database (a quarter of a grouped commit's CPU went to that SELECT). Checked all
        the same: the head's UPDATE must find the seq remembered, and a conflict against a
        remembered head is looked up again, so another writer's appends are never missed
        (the commit is redone reading every head). Emptied after any failed commit."""
        dialect = engine.dialect
        to_text = UTCDateTime().dialect_impl(dialect).bind_processor(dialect)
        assert to_text is not None  # UTCDateTime converts every value it binds
        self._time_text = to_text
        """An aware datetime -> the text SQLAlchemy stores for it (naive UTC, microseconds)."""

    def write(self, units: Sequence[Sequence[PreparedAppend]], now: datetime,
              key: bytes | None) -> list[UnitResult]:
        """One transaction for all the units; each unit all or nothing (storage/plan.py).
        Rolled back on any error; a sqlite3 error is raised as SQLAlchemy's."""
        statement = ["BEGIN IMMEDIATE"]
        """The statement running, for the error's text."""
        with self._lock:
            db = self.connection
            try:
                try:
                    db.execute("BEGIN IMMEDIATE")
                    try:
                        plan = self._write(db, units, now, key, statement, trust_known=True)
                    except _Stale:  # another writer moved a head this one remembered
                        db.execute("ROLLBACK")
                        self._known.clear()
                        db.execute("BEGIN IMMEDIATE")
                        plan = self._write(db, units, now, key, statement, trust_known=False)
                    statement[0] = "COMMIT"
                    db.execute("COMMIT")
                except BaseException:
                    self._known.clear()
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                raise DBAPIError.instance(statement[0], None, error, sqlite3.Error) from error
            if len(self._known) > _KNOWN_MAX:
                self._known.clear()
            for stream, head in (*plan.new, *plan.moved):
                self._known[stream] = (head.last_seq, head.last_hash)
            return plan.results

    def checkpoint(self) -> tuple[int, int, int]:
        """Copy every WAL page into the database through this connection, which has the
        WAL open even when its name is gone (storage/file_watch.py): (busy, frames,
        copied), as PRAGMA wal_checkpoint(FULL) answers."""
        with self._lock:
            busy, frames, copied = self.connection.execute(
                "PRAGMA wal_checkpoint(FULL)").fetchone()
            return int(busy), int(frames), int(copied)

    def close(self) -> None:
        """Give the connection back to the pool (before the engine is disposed)."""
        with self._lock:
            if self._pooled.dbapi_connection is not None:  # not given back already
                self._pooled.close()

    def _write(self, db: sqlite3.Connection, units: Sequence[Sequence[PreparedAppend]],
               now: datetime, key: bytes | None, statement: list[str], *,
               trust_known: bool) -> Plan:
        """Plan against the heads and write the plan; raise _Stale (the caller rolls back
        and writes again, reading every head) if a remembered head may have moved."""
        names = {append.stream for unit in units for append in unit}
        known = self._known if trust_known else {}
        heads = {name: Head(*known[name], known[name][0], exists=True)
                 for name in names if name in known}
        remembered = set(heads)
        statement[0] = "SELECT streams"
        heads.update(_lock_heads(db, names - remembered))
        stamp = self._time_text(now)
        plan = plan_units(units, heads, now, stamp)
        if remembered and any(isinstance(r, ConcurrencyConflict) and r.stream in remembered
                              for r in plan.results):
            raise _Stale  # perhaps a conflict only with what this writer remembered
        if plan.new:
            statement[0] = _INSERT_STREAM
            db.executemany(_INSERT_STREAM, [
                (stream, head.last_seq, head.last_hash, stamp, stamp, seal(key, stream, head))
                for stream, head in plan.new])
        if plan.moved:
            statement[0] = _ADVANCE_HEAD
            done = db.executemany(_ADVANCE_HEAD, [
                (head.last_seq, head.last_hash, stamp, seal(key, stream, head), stream,
                 head.db_seq)
                for stream, head in plan.moved]).rowcount
            if done != len(plan.moved):  # never fork a stream
                if remembered:
                    raise _Stale  # a remembered head was not the database's any more
                raise RuntimeError(f"stream heads moved under a lock ({done} of "
                                   f"{len(plan.moved)})")
        if plan.rows:
            statement[0] = _INSERT_EVENTS
            db.executemany(_INSERT_EVENTS, plan.rows)
        return plan


def _lock_heads(db: sqlite3.Connection, names: set[str]) -> dict[str, Head]:
    """The heads of `names` (the write lock is already held: BEGIN IMMEDIATE)."""
    heads: dict[str, Head] = {}
    ordered = sorted(names)
    for start in range(0, len(ordered), _IN_CHUNK):
        chunk = ordered[start:start + _IN_CHUNK]
        marks = ", ".join("?" * len(chunk))
        query = (f"SELECT stream, last_seq, last_hash FROM streams WHERE stream IN ({marks}) "
                 f"ORDER BY stream")
        for name, last_seq, last_hash in db.execute(query, chunk):
            heads[name] = Head(last_seq, last_hash, last_seq, exists=True)
    return heads
