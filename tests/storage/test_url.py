"""store_url: paths become SQLite files, postgresql:// gets the psycopg 3 driver."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import EventStore, store_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("events.db", "sqlite:///events.db"),
        ("/var/lib/domino/events.db", "sqlite:////var/lib/domino/events.db"),
        ("sqlite:///x.db", "sqlite:///x.db"),
        ("postgresql://u@h:5432/db", "postgresql+psycopg://u@h:5432/db"),
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
    ],
)
def test_store_url(given: str, expected: str) -> None:
    assert store_url(given) == expected


def test_path_objects_open_sqlite(tmp_path: Path) -> None:
    with EventStore(tmp_path / "e.db") as store:
        store.append("s", 0, [{"type": "t"}])
        with store.engine.connect() as conn:
            pragmas = {
                name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
            }
    assert pragmas == {
        "journal_mode": "wal",
        "synchronous": 2,
        "foreign_keys": 1,
        "busy_timeout": 5000,
    }


def test_in_memory_sqlite_is_refused() -> None:
    with pytest.raises(ValueError):
        EventStore("sqlite://")
