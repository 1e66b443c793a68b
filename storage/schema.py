"""Tables and the append-only triggers, created idempotently on SQLite and PostgreSQL.

`events` is the truth: one row per event, primary key (stream, seq). `streams` pins each
stream's head (last seq and hash) so that listing is one indexed scan and a truncated tail
is detectable; it is updated in the same transaction as the events it describes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Dialect,
    Engine,
    ForeignKeyConstraint,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    TypeDecorator,
    text,
)

from storage.engine import write_transaction

STREAM_MAX = 255
TYPE_MAX = 100


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out; SQLite stores them as naive ISO text, so re-attach UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the event store; use UTC-aware times")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def _name_type() -> String:
    # Byte-order collation on PostgreSQL so that prefix listing is an index range scan that
    # agrees with SQLite's BINARY ordering.
    return String(STREAM_MAX).with_variant(String(STREAM_MAX, collation="C"), "postgresql")


# Integer on SQLite keeps `seq` a plain INTEGER column; BIGINT on PostgreSQL.
_Seq = BigInteger().with_variant(Integer(), "sqlite")

metadata = MetaData()

streams = Table(
    "streams",
    metadata,
    Column("stream", _name_type(), nullable=False),
    Column("last_seq", _Seq, nullable=False),
    Column("last_hash", String(64), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Column("head_mac", String(64), nullable=True),
    PrimaryKeyConstraint("stream", name="streams_pk"),
)
"""`head_mac`: HMAC-SHA256 of (stream, last_seq, last_hash) under the store's key
(storage/keys.py); null in a store without a key."""

store_meta = Table(
    "store_meta",
    metadata,
    Column("name", String(64), nullable=False),
    Column("value", Text, nullable=False),
    PrimaryKeyConstraint("name", name="store_meta_pk"),
)
"""Facts about the store itself: `key_id` (which key seals its heads)."""

events = Table(
    "events",
    metadata,
    Column("stream", _name_type(), nullable=False),
    Column("seq", _Seq, nullable=False),
    Column("type", String(TYPE_MAX), nullable=False),
    Column("payload", Text, nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    PrimaryKeyConstraint("stream", "seq", name="events_pk"),
    ForeignKeyConstraint(["stream"], ["streams.stream"], name="events_stream_fk"),
)

kept = Table(
    "kept",
    metadata,
    Column("name", _name_type(), nullable=False),
    Column("value", LargeBinary, nullable=False),
    Column("kept_at", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("name", name="kept_pk"),
)
"""Answers worth keeping across restarts, by name (storage/kept.py): a bounded cache beside the
events, never part of a stream's chain (losing a row costs a recomputation, nothing else)."""

APPEND_ONLY_MESSAGE = "events is append-only"

_SQLITE_TRIGGERS = [
    f"""CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY_MESSAGE}: UPDATE rejected'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY_MESSAGE}: DELETE rejected'); END""",
]

_PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '{APPEND_ONLY_MESSAGE}: % rejected', TG_OP
        USING ERRCODE = 'restrict_violation';
END
$$
"""

# CREATE TRIGGER has no IF NOT EXISTS before PostgreSQL 14 and OR REPLACE would take a lock on
# every start-up; look in the catalogue instead. 'events'::regclass follows search_path.
_PG_TRIGGERS = """
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger
                   WHERE tgrelid = 'events'::regclass AND tgname = 'events_append_only') THEN
        CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION events_append_only();
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_trigger
                   WHERE tgrelid = 'events'::regclass AND tgname = 'events_no_truncate') THEN
        CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
            FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();
    END IF;
END
$$
"""

# Serialises concurrent start-ups: CREATE TABLE IF NOT EXISTS races on PostgreSQL.
_PG_SCHEMA_LOCK = 0x646F6D696E6F  # "domino"


def _add_head_mac(conn: Any, dialect: str) -> None:
    """Stores made before heads were sealed lack the column: add it (nullable)."""
    if dialect == "postgresql":
        conn.execute(text("ALTER TABLE streams ADD COLUMN IF NOT EXISTS head_mac VARCHAR(64)"))
        return
    columns = {row[1] for row in conn.exec_driver_sql("PRAGMA table_info(streams)")}
    if "head_mac" not in columns:
        conn.exec_driver_sql("ALTER TABLE streams ADD COLUMN head_mac VARCHAR(64)")


def create_schema(engine: Engine) -> None:
    """Create tables and triggers if missing; safe to run at every start, from many processes."""
    with write_transaction(engine) as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_SCHEMA_LOCK})
        metadata.create_all(conn, checkfirst=True)
        _add_head_mac(conn, engine.dialect.name)
        if engine.dialect.name == "sqlite":
            for statement in _SQLITE_TRIGGERS:
                conn.exec_driver_sql(statement)
        elif engine.dialect.name == "postgresql":
            conn.execute(text(_PG_FUNCTION))
            conn.execute(text(_PG_TRIGGERS))
        else:
            raise NotImplementedError(
                f"append-only triggers are not written for {engine.dialect.name!r}"
            )
