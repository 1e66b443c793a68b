"""Engines with the durability settings the store relies on, for SQLite and PostgreSQL.

SQLite: WAL, synchronous=FULL (a commit survives power loss), a busy timeout, foreign keys,
and transactions we begin ourselves, because the sqlite3 module's legacy transaction handling
does not BEGIN before SELECT or SAVEPOINT. Writes use BEGIN IMMEDIATE: the write lock is taken
up front, so a read-check-write append cannot be overtaken between the check and the write,
and a waiting writer queues on busy_timeout instead of failing with SQLITE_BUSY_SNAPSHOT.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

SQLITE_BUSY_TIMEOUT_MS = 5000
_BEGIN_OPTION = "storage_sqlite_begin"


def store_url(db: str | Path) -> str:
    """A SQLAlchemy URL for `db`: a file path becomes sqlite:///path; postgresql:// gets psycopg 3.

    URLs with an explicit driver (sqlite://, postgresql+psycopg://, ...) pass through unchanged.
    """
    db = str(db)
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return "sqlite:///" + db


def make_engine(url: str | Path, **engine_kwargs: Any) -> Engine:
    """Create an engine for `url` (a URL or a file path) with the store's connection settings."""
    sa_url = make_url(store_url(url))
    if sa_url.get_backend_name() == "sqlite":
        if sa_url.database in (None, "", ":memory:"):
            raise ValueError("the event store needs a SQLite file, not an in-memory database")
        engine = create_engine(sa_url, **engine_kwargs)
        _configure_sqlite(engine)
        return engine
    engine_kwargs.setdefault("pool_pre_ping", True)
    return create_engine(sa_url, **engine_kwargs)


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (see _on_begin)
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = FULL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get(_BEGIN_OPTION, "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A committed-on-success transaction that holds the write lock from its first statement."""
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn = conn.execution_options(**{_BEGIN_OPTION: "IMMEDIATE"})
        with conn.begin():
            yield conn
