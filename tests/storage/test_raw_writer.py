"""The raw sqlite3 writer (storage/raw_sqlite.py) writes exactly the rows SQLAlchemy's path
wrote: the same bytes in `events` and `streams` (times included), read back identically by
the normal reader, verified and sealed; the same answers to conflicts and atomic units, and
the same exception class for a database error. PostgreSQL keeps SQLAlchemy's path."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

import storage.store
from storage import ConcurrencyConflict, EventStore
from tests.storage.conftest import events

KEY = bytes(range(32))
NOW = datetime(2026, 11, 25, 20, 30, 1, 234567, tzinfo=UTC)


def _script(store: EventStore) -> list[Any]:
    """Appends of every kind: new streams, advances, a group with a conflict, atomic units."""
    out: list[Any] = [store.append("a", 0, events(3)), store.append("a", 3, events(2, "x", s="é"))]
    out.append(store.append_batch([("b", 0, events(2)), ("a", 4, events(1)),  # a conflict
                                   ("a", 5, events(1)), ("c", 0, events(4))]))
    out.append(store.append_atomic([("a", 6, events(1)), ("commands:a", 0, events(1))]))
    with pytest.raises(ConcurrencyConflict) as refused:
        store.append_atomic([("b", 2, events(1)), ("c", 3, events(1))])  # c is at 4
    out.append(refused.value)
    return out


def _rows(store: EventStore) -> tuple[list[Any], list[Any]]:
    with store.engine.connect() as conn:
        return (conn.execute(text("SELECT * FROM events ORDER BY stream, seq")).all(),
                conn.execute(text("SELECT * FROM streams ORDER BY stream")).all())


def _store(path: Path, raw: bool) -> EventStore:
    return EventStore(path, key=KEY, seal_unkeyed=True, raw_sqlite=raw)


def test_raw_writer_rows_equal_sqlalchemy_rows(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage.store, "_utc_now", lambda: NOW)
    with _store(tmp_path / "raw.db", True) as raw, _store(tmp_path / "sa.db", False) as old:
        assert raw._raw is not None and old._raw is None  # each path is the one compared
        answers_raw, answers_old = _script(raw), _script(old)
        assert answers_raw == answers_old
        assert _rows(raw) == _rows(old)
        assert len(_rows(raw)[0]) == 14
        for stream in ("a", "b", "c", "commands:a"):
            assert raw.read(stream) == old.read(stream)
            assert raw.read(stream)[0].recorded_at == NOW
            report = raw.verify_chain(stream)
            assert report.ok and raw.sealed, report
        assert raw.read_many({"a": 2, "c": 0}) == old.read_many({"a": 2, "c": 0})
        assert raw.streams() == old.streams()


def test_raw_writer_reads_back_through_a_store_without_it(tmp_path: Path) -> None:
    """What the raw writer wrote, a SQLAlchemy-only store reads, verifies and continues."""
    with _store(tmp_path / "events.db", True) as raw:
        written = _script(raw)
    with _store(tmp_path / "events.db", False) as old:
        assert old.read("a") == written[0] + written[1] + written[2][2] + written[3][0]
        assert old.append("a", 7, events(1))[0].seq == 8
        assert all(old.verify_chain(s).ok for s in ("a", "b", "c", "commands:a"))
    with _store(tmp_path / "events.db", True) as raw:
        assert raw.append("a", 8, events(1))[0].prev_hash == raw.read("a")[-2].hash
        assert raw.verify_chain("a").ok


@pytest.mark.parametrize("raw", [True, False], ids=["raw", "sqlalchemy"])
def test_a_database_error_is_the_same_exception(tmp_path: Path, raw: bool) -> None:
    """A row put in behind the store's back makes the next append fail in the database: the
    same IntegrityError on both paths, and nothing of the failed transaction is kept."""
    with _store(tmp_path / "events.db", raw) as store:
        store.append("s", 0, events(2))
        with store.engine.begin() as conn:
            conn.execute(text("INSERT INTO events VALUES ('s', 3, 'x', '{}', "
                              "'2026-01-01 00:00:00.000000', 'h', 'h')"))
        with pytest.raises(IntegrityError):
            store.append_batch([("t", 0, events(1)), ("s", 2, events(1))])
        assert store.read("t") == [] and store.last_seq("s") == 2


def test_postgresql_keeps_the_sqlalchemy_path(pg_url: str) -> None:
    with EventStore(pg_url) as store:
        assert store._raw is None
        assert store.append("s", 0, events(2))[-1].seq == 2


def test_heads_remembered_by_one_writer_never_hide_another_writers_appends(
        tmp_path: Path) -> None:
    """The raw writer remembers the heads it committed instead of reading them again; two
    stores on one file each append behind the other's back: every conflict is still a real
    one, every append that fits still commits, and the chain is whole."""
    path = tmp_path / "events.db"
    with _store(path, True) as first, _store(path, True) as second:
        assert [e.seq for e in first.append("s", 0, events(2))] == [1, 2]  # first remembers 2
        assert second.append("s", 2, events(1))[0].seq == 3  # ... which is now stale
        with pytest.raises(ConcurrencyConflict) as stale:  # its memory agreed, the table not
            first.append("s", 2, events(1))
        assert (stale.value.expected, stale.value.actual) == (2, 3)
        assert first.append("s", 3, events(1))[0].seq == 4  # its memory said 2: looked up
        answers = second.append_batch([("s", 3, events(1)), ("s", 4, events(1)),
                                       ("t", 0, events(1))])
        conflict, fifth, new = answers
        assert isinstance(conflict, ConcurrencyConflict) and conflict.actual == 4
        assert isinstance(fifth, list) and [e.seq for e in fifth] == [5]
        assert isinstance(new, list) and [e.seq for e in new] == [1]
        report = first.verify_chain("s")
        assert report.ok and report.last_seq == 5, report
        assert [e.seq for e in first.read("s")] == [1, 2, 3, 4, 5]
