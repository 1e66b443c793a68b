"""The SQLite write path in raw sqlite3: the same statements SQLAlchemy would send, without
its per-row work.

Profiled at 50 busy tables the store writer was a third of the server's samples, much of it
SQLAlchemy compiling, binding and processing rows for a handful of executemany calls per
commit; its thread also fights the event loop for the GIL. Here the commit is planned by the
shared rules (storage/plan.py), then written with prepared statements on the DBAPI
connection of the engine's own write transaction (same PRAGMAs, WAL, synchronous=FULL,
busy timeout, BEGIN IMMEDIATE). Times are written in the
text SQLAlchemy's own type would write (its bind processor, called once per commit), so
the normal reader and `verify` see the same rows. A sqlite3 error comes out as the same
SQLAlchemy exception the old path raised (DBAPIError.instance), so callers are unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from storage.engine import write_transaction
from storage.plan import Head, UnitResult, plan_units, seal
from storage.prepare import PreparedAppend
from storage.schema import UTCDateTime

_IN_CHUNK = 500  # streams per IN (...) list when reading heads

_INSERT_STREAM = ("INSERT INTO streams (stream, last_seq, last_hash, created_at, updated_at, "
                  "head_mac) VALUES (?, ?, ?, ?, ?, ?)")
_ADVANCE_HEAD = ("UPDATE streams SET last_seq = ?, last_hash = ?, updated_at = ?, head_mac = ? "
                 "WHERE streams.stream = ? AND streams.last_seq = ?")
_INSERT_EVENTS = ("INSERT INTO events (stream, seq, type, payload, recorded_at, prev_hash, hash) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)")


class RawSqliteWriter:
    """Commits units to a SQLite store through the engine's pooled sqlite3 connections."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        dialect = engine.dialect
        self._time_text = UTCDateTime().dialect_impl(dialect).bind_processor(dialect)
        """An aware datetime -> the text SQLAlchemy stores for it (naive UTC, microseconds)."""

    def write(self, units: Sequence[Sequence[PreparedAppend]], now: datetime,
              key: bytes | None) -> list[UnitResult]:
        """One transaction for all the units; each unit all or nothing (storage/plan.py).

        The transaction itself is SQLAlchemy's (`write_transaction`: BEGIN IMMEDIATE, COMMIT,
        rollback on error, and its events, which a test uses to freeze a writer mid-commit);
        only the statements inside it go to sqlite3 directly.
        """
        statement = ["SELECT streams"]
        """The statement running, for the error's text."""
        with write_transaction(self._engine) as conn:
            db: Any = conn.connection.driver_connection
            try:
                return self._write(db, units, now, key, statement)
            except sqlite3.Error as error:
                raise DBAPIError.instance(statement[0], None, error, sqlite3.Error) from error

    def _write(self, db: sqlite3.Connection, units: Sequence[Sequence[PreparedAppend]],
               now: datetime, key: bytes | None, statement: list[str]) -> list[UnitResult]:
        heads = _lock_heads(db, {append.stream for unit in units for append in unit})
        plan = plan_units(units, heads, now)
        stamp = self._time_text(now)
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
            if done != len(plan.moved):  # impossible under the write lock; never fork a stream
                raise RuntimeError(f"stream heads moved under a lock ({done} of "
                                   f"{len(plan.moved)})")
        if plan.rows:
            statement[0] = _INSERT_EVENTS
            db.executemany(_INSERT_EVENTS, [(s, q, t, p, stamp, h0, h1)
                                       for s, q, t, p, h0, h1 in plan.rows])
        return plan.results


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
