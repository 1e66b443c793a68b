"""EventStore: append with optimistic concurrency, read back, list streams, verify chains.

Appends are checked against each stream's head in the `streams` table under a write lock
(SQLite: BEGIN IMMEDIATE; PostgreSQL: SELECT ... FOR UPDATE), and the (stream, seq) primary
key is the backstop: two writers can never both store seq n. A batch of appends is one
transaction, hence one fsync. Inside it, each *unit* commits or fails as a whole: with
`append_batch` every append is its own unit (a conflicting append is reported, the others
commit); with `append_atomic` the whole batch is one unit (any conflict commits none of it),
for writes that must not be split, such as a table's move and its command-id record.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import Connection, Engine, and_, bindparam, insert, or_, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from storage.engine import make_engine, store_url, write_transaction
from storage.errors import ConcurrencyConflict, StoreClosed, StoreGone
from storage.file_watch import FileWatch, Loss
from storage.guard import OPEN_FILES, FileKey, WriterLock, file_key
from storage.keys import (
    ENV_KEY_FILE,
    StoreKeyError,
    UnsealedStore,
    create_key,
    head_mac,
    key_file_for,
    key_id,
    read_key,
)
from storage.plan import Head, UnitResult, plan_units, seal
from storage.prepare import PreparedAppend, check_seq, check_stream, prepare_append
from storage.raw_sqlite import RawSqliteWriter
from storage.records import ChainReport, StoredEvent, StreamInfo
from storage.schema import UTCDateTime, create_schema, events, store_meta, streams
from storage.verify import verify_stream

AppendResult = list[StoredEvent] | ConcurrencyConflict
AppendRequest = tuple[str, int, Sequence[Mapping[str, Any]]]
LossListener = Callable[[str, str | None], None]
"""Told once when a SQLite store's files change: why, and what the rescue saved (or None)."""

_IN_CHUNK = 500  # streams per IN (...) list when reading heads


def sqlite_path(url: str | Path) -> Path | None:
    """The database file of a SQLite store (None for PostgreSQL)."""
    parsed = make_url(store_url(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    return Path(parsed.database)


def _auto_key(path: Path | None) -> bytes | None:
    """The key every tool finds by itself: $DOMINO_ORACLE_STORE_KEY_FILE, else a SQLite
    store's `<db>.key` if there is one."""
    named = os.environ.get(ENV_KEY_FILE)
    if named:
        return read_key(Path(named))
    if path is not None and key_file_for(path).is_file():
        return read_key(key_file_for(path))
    return None


def server_key(db: str | Path, key_file: str | Path | None = "auto"
               ) -> tuple[bytes | None, Path | None]:
    """The key a server seals its store with, and the file it was just created in (None if
    it already existed). "auto": `<db>.key` beside a SQLite store, created on first run;
    a PostgreSQL store has no default (every server of a deployment must share one key,
    so it is given to each: --store-key-file). None: no key."""
    if key_file == "auto":
        path = sqlite_path(db)
        if path is None:
            return None, None
        key_file = key_file_for(path)
    if key_file is None:
        return None, None
    target = Path(key_file)
    if target.exists():
        return read_key(target), None
    return create_key(target), target


class EventStore:
    """Append-only event store over SQLAlchemy Core. Thread-safe; one instance per process.

    `key`: the key that seals stream heads (storage/keys.py); "auto" finds it (see
    `_auto_key`). A store sealed with a key refuses writes when opened without it.
    `exclusive`: hold the SQLite store's writer lock (storage/guard.py) — a server does.
    `seal_unkeyed`: a store that has streams but no key yet is sealed with `key` as it is
    now (trust on first use: only when the key was just created for it).
    `raw_sqlite`: a SQLite store commits through raw sqlite3 (storage/raw_sqlite.py: the
    same rows, less per-row overhead); False keeps SQLAlchemy's path (for comparisons).
    `on_loss`: told (once, from the thread that noticed) when a SQLite store's files were
    deleted, replaced or shrunk (storage/file_watch.py); writes are refused from then on.
    """

    def __init__(self, url: str | Path, *, key: bytes | Literal["auto"] | None = "auto",
                 exclusive: bool = False, seal_unkeyed: bool = False,
                 raw_sqlite: bool = True, on_loss: LossListener | None = None,
                 **engine_kwargs: Any) -> None:
        path = sqlite_path(url)
        self._lock: WriterLock | None = None
        self._file: FileKey | None = None
        self._watch: FileWatch | None = None
        self._on_loss = on_loss
        self._raw: RawSqliteWriter | None = None
        if exclusive and path is not None:
            self._lock = WriterLock(path)  # before SQLite opens the file (and its WAL)
            self._lock.acquire()
        try:
            self._engine = make_engine(url, **engine_kwargs)
            self._closed = False
            create_schema(self._engine)  # SQLite has its WAL and shm open from here on
            if path is not None:
                self._file = file_key(path)
                OPEN_FILES.opened(self._file)
                self._watch = FileWatch(path, self._lost)
            self._key = _auto_key(path) if key == "auto" else key
            self.key_id = self._meta("key_id")
            """The id of the key the store's heads are sealed with (None: not sealed)."""
            self._check_key(seal_unkeyed)
            self._raw = (RawSqliteWriter(self._engine)
                         if raw_sqlite and self._engine.dialect.name == "sqlite" else None)
        except BaseException:
            engine = getattr(self, "_engine", None)
            if engine is not None:
                engine.dispose()  # its connections close before the lock's fd may
            self._release()
            raise

    @property
    def sealed(self) -> bool:
        """Heads carry HMACs under a key (so `verify_chain` checks them)."""
        return self.key_id is not None

    def mac(self, message: bytes) -> bytes | None:
        """HMAC-SHA256 of `message` under the store's key (None: the store has no key), for
        what the store keeps beside its events (storage/kept.py): the key never leaves."""
        return None if self._key is None else hmac.digest(self._key, message, "sha256")

    @property
    def lost(self) -> str | None:
        """Why writes are refused because a file of the store changed (None: none did)."""
        return self._watch.lost if self._watch is not None else None

    def check_files(self) -> str | None:
        """Check the store's files now (a timer calls this between commits); why writes
        are refused, if they are."""
        if self._watch is not None and not self._closed:
            with contextlib.suppress(StoreGone):
                self._watch.check()
        return self.lost

    def _lost(self, loss: Loss) -> None:
        """A file changed: save what the open WAL holds if that is still possible, then
        tell the listener."""
        rescued = self._rescue_wal() if loss.wal_rescuable else None
        if self._on_loss is not None:
            self._on_loss(loss.reason, rescued)

    def _rescue_wal(self) -> str:
        """Copy every page of the WAL this store has open into the database (a full
        checkpoint). The WAL's name is gone, so SQLite would never read that file again:
        after a kill, every acknowledged event since the last checkpoint was lost."""
        try:
            if self._raw is not None:  # the writer's connection holds the WAL it wrote
                busy, frames, copied = self._raw.checkpoint()
            else:
                raw = self._engine.raw_connection()
                try:
                    driver = raw.driver_connection  # sqlite3's own: only SQLite has a WAL
                    assert isinstance(driver, sqlite3.Connection)
                    busy, frames, copied = driver.execute(
                        "PRAGMA wal_checkpoint(FULL)").fetchone()
                finally:
                    raw.close()
        except Exception as error:  # reported to the operator, never raised at a writer
            return f"the checkpoint failed: {error}"
        if busy:
            return f"the checkpoint was blocked: {copied} of {frames} WAL pages copied"
        return f"{copied} of {frames} WAL pages copied into the database"

    def _meta(self, name: str) -> str | None:
        with self._engine.connect() as conn:
            return conn.execute(select(store_meta.c.value).where(store_meta.c.name == name)
                                ).scalar()

    def _check_key(self, seal_unkeyed: bool) -> None:
        key = self._key
        if key is None:
            return  # a sealed store opened without its key: readable, writes refused
        if self.key_id is not None:
            if self.key_id != key_id(key):
                raise StoreKeyError(f"the key given is not this store's (the store was sealed "
                                    f"with key id {self.key_id}, this is {key_id(key)})")
            return
        with write_transaction(self._engine) as conn:
            rows = conn.execute(select(streams.c.stream, streams.c.last_seq,
                                       streams.c.last_hash)).all()
            if rows and not seal_unkeyed:
                raise UnsealedStore(
                    "this store was never sealed with a key, or its seal was removed, and "
                    "a key is given: refusing to seal what may have been rewritten (run "
                    "`verify` on it; to seal it as it is, move the key file away and let "
                    "`serve` create a new one)")
            for stream, last_seq, last_hash in rows:  # trust on first use, as they are now
                conn.execute(update(streams).where(streams.c.stream == stream).values(
                    head_mac=head_mac(key, stream, last_seq, last_hash)))
            conn.execute(insert(store_meta), [{"name": "key_id", "value": key_id(key)}])
        self.key_id = key_id(key)

    @property
    def engine(self) -> Engine:
        """The underlying engine, for operations and tests; writes through it bypass checks."""
        return self._engine

    @property
    def dialect(self) -> str:
        return self._engine.dialect.name

    # -- writing -------------------------------------------------------------------------

    def append(
        self, stream: str, expected_seq: int, events: Sequence[Mapping[str, Any]]
    ) -> list[StoredEvent]:
        """Append `events` after seq `expected_seq` (0 for a new stream), atomically.

        Raises ConcurrencyConflict if the stream's last seq is not `expected_seq`, and
        InvalidEvent (before any database work) if an event is malformed.
        """
        result = self.commit_prepared([prepare_append(stream, expected_seq, events)])[0]
        if isinstance(result, ConcurrencyConflict):
            raise result
        return result

    def append_batch(self, appends: Iterable[AppendRequest]) -> list[AppendResult]:
        """Group commit: many appends in one transaction; each gets its events or its conflict.

        Results are in input order. Appends to the same stream apply in input order, so the
        second may continue from the first. InvalidEvent anywhere refuses the whole batch.
        """
        prepared = [prepare_append(stream, seq, evts) for stream, seq, evts in appends]
        return self.commit_prepared(prepared)

    def append_atomic(self, appends: Iterable[AppendRequest]) -> list[list[StoredEvent]]:
        """All or nothing: every append commits, or none does and the first conflict is raised.

        For appends to several streams that only make sense together (a move and the record
        of the command id that caused it): a conflict on any stream leaves every stream as it
        was. Appends to the same stream chain as in `append_batch`.
        """
        prepared = [prepare_append(stream, seq, evts) for stream, seq, evts in appends]
        if not prepared:
            return []
        result = self.commit_units([prepared])[0]
        if isinstance(result, ConcurrencyConflict):
            raise result
        return result

    def commit_prepared(self, prepared: Sequence[PreparedAppend]) -> list[AppendResult]:
        """Commit already-validated appends in one transaction, each on its own."""
        results = self.commit_units([[append] for append in prepared])
        return [r if isinstance(r, ConcurrencyConflict) else r[0] for r in results]

    def commit_units(self, units: Sequence[Sequence[PreparedAppend]]) -> list[UnitResult]:
        """Commit already-validated units in one transaction (used by AsyncEventStore).

        Each unit is all or nothing; units are independent of each other, so a conflict in
        one does not sink the others (group commit of unrelated writers).
        """
        self._check_writable()
        if not units:
            return []
        now = _utc_now()
        key = self._key
        try:
            if self._raw is not None:
                results = self._raw.write(units, now, key)
            else:
                with write_transaction(self._engine) as conn:
                    results = _write_units(conn, units, now, key)
        except IntegrityError:
            # PostgreSQL gets here when two writers create the same stream at once (SQLite
            # holds the write lock, so its checks cannot be overtaken: there it is rows put
            # in behind the store's back, and the redo below raises it again). Redo unit by
            # unit, each in a savepoint, so that the loser is reported and the others commit.
            with write_transaction(self._engine) as conn:
                results = [_write_unit_guarded(conn, unit, now, key) for unit in units]
        if self._watch is not None:
            self._watch.check()  # a file changed during the commit: no acks for it
        return results

    def _check_writable(self) -> None:
        self._check_open()
        if self._watch is not None:
            self._watch.check()
        if self.key_id is not None and self._key is None:
            raise StoreKeyError(f"this store is sealed with a key (id {self.key_id}) that was "
                                f"not given: it can be read, not written "
                                f"(--store-key-file, or ${ENV_KEY_FILE})")

    # -- reading -------------------------------------------------------------------------

    def read(self, stream: str, after_seq: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of `stream` with seq > after_seq, in order, at most `limit` of them."""
        self._check_open()
        check_stream(stream)
        check_seq(after_seq, "after_seq")
        query = (
            select(events)
            .where(events.c.stream == stream, events.c.seq > after_seq)
            .order_by(events.c.seq)
        )
        if limit is not None:
            query = query.limit(check_seq(limit, "limit"))
        with self._engine.connect() as conn:
            rows = conn.execute(query).all()
        return [_stored(row) for row in rows]

    def read_many(self, after: Mapping[str, int]) -> dict[str, list[StoredEvent]]:
        """`read` for several streams in one query (one round trip instead of one each).

        `after` maps each stream to the seq already seen; every stream named is in the result.
        """
        self._check_open()
        for stream, after_seq in after.items():
            check_stream(stream)
            check_seq(after_seq, "after_seq")
        result: dict[str, list[StoredEvent]] = {stream: [] for stream in after}
        names = list(after)
        with self._engine.connect() as conn:
            for start in range(0, len(names), _IN_CHUNK):
                chunk = names[start:start + _IN_CHUNK]
                query = (
                    select(events)
                    .where(or_(*(and_(events.c.stream == name, events.c.seq > after[name])
                                 for name in chunk)))
                    .order_by(events.c.stream, events.c.seq)
                )
                for row in conn.execute(query):
                    result[row.stream].append(_stored(row))
        return result

    def last_seq(self, stream: str) -> int:
        """The seq of the stream's last event; 0 if the stream does not exist."""
        self._check_open()
        check_stream(stream)
        with self._engine.connect() as conn:
            return _db_last_seq(conn, stream)

    def streams(self, prefix: str | None = None) -> list[StreamInfo]:
        """All streams (or those whose name starts with `prefix`), ordered by name."""
        self._check_open()
        query = select(streams).order_by(streams.c.stream)
        if prefix:
            # A range on the primary key rather than LIKE: exact (LIKE is case-insensitive on
            # SQLite) and an index scan on both databases (binary collation).
            query = query.where(streams.c.stream >= prefix)
            upper = _prefix_upper_bound(prefix)
            if upper is not None:
                query = query.where(streams.c.stream < upper)
        with self._engine.connect() as conn:
            rows = conn.execute(query).all()
        return [StreamInfo(r.stream, r.last_seq, r.created_at, r.updated_at) for r in rows]

    def verify_chain(self, stream: str) -> ChainReport:
        """Re-hash the stream from its first event; report where (if anywhere) it breaks."""
        self._check_open()
        check_stream(stream)
        return verify_stream(self._engine, stream, self._key if self.sealed else None,
                             sealed=self.sealed)

    # -- lifecycle -----------------------------------------------------------------------

    def close(self) -> None:
        self._closed = True
        if self._raw is not None:
            self._raw.close()
        self._engine.dispose()
        self._release()

    def _release(self) -> None:
        """The writer lock, then this store's count on its file (which closes the lock's fd
        once no store of this process uses the file: storage/guard.py)."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._watch is not None:
            self._watch.close()
        if self._file is not None:
            OPEN_FILES.closed(self._file)
            self._file = None

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the event store is closed")


def _utc_now() -> datetime:
    """A commit's time (one function: a test can fix it to compare two writers' rows)."""
    return datetime.now(UTC)


def _stored(row: Any) -> StoredEvent:
    return StoredEvent(
        stream=row.stream,
        seq=row.seq,
        type=row.type,
        payload=json.loads(row.payload),
        recorded_at=row.recorded_at,
        hash=row.hash,
        prev_hash=row.prev_hash,
    )


def _write_units(
    conn: Connection, units: Sequence[Sequence[PreparedAppend]], now: datetime,
    key: bytes | None = None,
) -> list[UnitResult]:
    """Check every unit against the locked heads (storage/plan.py), then write all rows in
    three statements."""
    heads = _lock_heads(conn, {append.stream for unit in units for append in unit})
    plan = plan_units(units, heads, now)
    new = [
        {
            "stream": stream,
            "last_seq": head.last_seq,
            "last_hash": head.last_hash,
            "created_at": now,
            "updated_at": now,
            "head_mac": seal(key, stream, head),
        }
        for stream, head in plan.new
    ]
    old = [
        {
            "b_stream": stream,
            "b_old": head.db_seq,
            "b_last_seq": head.last_seq,
            "b_last_hash": head.last_hash,
            "b_now": now,
            "b_mac": seal(key, stream, head),
        }
        for stream, head in plan.moved
    ]
    if new:
        conn.execute(insert(streams), new)
    if old:
        done = conn.execute(_ADVANCE_HEAD, old).rowcount
        if done != len(old):  # impossible under the row locks; refuse rather than fork a stream
            raise RuntimeError(f"stream heads moved under a lock ({done} of {len(old)})")
    if plan.rows:
        conn.execute(insert(events), [
            {"stream": stream, "seq": seq, "type": kind, "payload": text, "recorded_at": now,
             "prev_hash": prev_hash, "hash": digest}
            for stream, seq, kind, text, _stamp, prev_hash, digest in plan.rows])
    return plan.results


def _write_unit_guarded(
    conn: Connection, unit: Sequence[PreparedAppend], now: datetime, key: bytes | None = None
) -> UnitResult:
    savepoint = conn.begin_nested()
    try:
        result = _write_units(conn, [unit], now, key)[0]
    except IntegrityError:
        savepoint.rollback()
        seen: set[str] = set()
        for append in unit:  # only a stream's first append was expected against the database
            if append.stream in seen:
                continue
            seen.add(append.stream)
            actual = _db_last_seq(conn, append.stream)
            if actual != append.expected_seq:
                return ConcurrencyConflict(append.stream, append.expected_seq, actual)
        raise  # not a lost race: something else is wrong
    savepoint.commit()
    return result


_ADVANCE_HEAD = (
    update(streams)
    .where(
        and_(streams.c.stream == bindparam("b_stream"), streams.c.last_seq == bindparam("b_old"))
    )
    .values(
        last_seq=bindparam("b_last_seq"),
        last_hash=bindparam("b_last_hash"),
        updated_at=bindparam("b_now", type_=UTCDateTime()),
        head_mac=bindparam("b_mac"),
    )
)


def _lock_heads(conn: Connection, names: set[str]) -> dict[str, Head]:
    heads: dict[str, Head] = {}
    ordered = sorted(names)  # one lock order for every writer: no deadlocks between batches
    for start in range(0, len(ordered), _IN_CHUNK):
        chunk = ordered[start : start + _IN_CHUNK]
        query = (
            select(streams.c.stream, streams.c.last_seq, streams.c.last_hash)
            .where(streams.c.stream.in_(chunk))
            .order_by(streams.c.stream)
            .with_for_update()
        )
        for name, last_seq, last_hash in conn.execute(query):
            heads[name] = Head(last_seq, last_hash, last_seq, exists=True)
    return heads


def _db_last_seq(conn: Connection, stream: str) -> int:
    found = conn.execute(select(streams.c.last_seq).where(streams.c.stream == stream)).scalar()
    return int(found or 0)


def _prefix_upper_bound(prefix: str) -> str | None:
    """The least string above every string that starts with `prefix` (code point order)."""
    while prefix:
        last = ord(prefix[-1])
        if last < 0x10FFFF:
            nxt = last + 1 if last + 1 != 0xD800 else 0xE000  # skip surrogates
            return prefix[:-1] + chr(nxt)
        prefix = prefix[:-1]
    return None
