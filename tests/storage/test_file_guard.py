"""The SQLite store's files under it: one writer per file whatever names it, and a store
that notices its database, WAL or shm deleted, replaced or shrunk (storage/guard.py,
storage/file_watch.py). Real files in tmp_path; the kernel's lock table read as it is."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest

from storage import AsyncEventStore, EventStore, StoreGone, StoreLocked
from storage.guard import file_key, flock_holder


def _posix_locks_on(path: Path) -> list[str]:
    """This process's POSIX locks (SQLite's) on `path`, from the kernel's lock table, without
    the table's ordinal (it shifts when any process on the machine takes or drops a lock)."""
    _device, inode = file_key(path)
    found = []
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields or fields[1] != "POSIX":
            continue
        if int(fields[5].split(":")[2]) == inode and int(fields[4]) == os.getpid():
            found.append(" ".join(fields[1:]))
    return found


@pytest.mark.parametrize("how", ["symlink", "hard link", "relative"])
def test_the_writer_lock_is_on_the_file_not_its_name(tmp_path: Path, how: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "one.sqlite3"
    other = tmp_path / "two.sqlite3"
    with EventStore(db, key=None, exclusive=True) as first:
        first.append("s", 0, [{"type": "x"}])
        held = _posix_locks_on(db)
        assert held  # SQLite's shared lock on the database, between transactions too
        if how == "symlink":
            other.symlink_to(db)
        elif how == "hard link":
            os.link(db, other)
        else:
            monkeypatch.chdir(tmp_path)
            other = Path("./one.sqlite3")
        with pytest.raises(StoreLocked, match=f"pid {os.getpid()}"):
            EventStore(other, key=None, exclusive=True)
        assert not Path(f"{other}-wal").exists() or how == "relative"
        # the failed attempt's fd stays open: closing it would drop SQLite's POSIX locks
        assert _posix_locks_on(db) == held
        first.append("s", 1, [{"type": "y"}])
    with EventStore(other, key=None, exclusive=True) as second:  # the first has gone
        assert [e.seq for e in second.read("s")] == [1, 2]


def test_the_lock_holder_is_read_from_the_kernel(tmp_path: Path) -> None:
    db = tmp_path / "held.sqlite3"
    assert flock_holder(file_key(db) if db.exists() else (0, 0)) is None
    with EventStore(db, key=None, exclusive=True):
        assert flock_holder(file_key(db)) == os.getpid()
    assert flock_holder(file_key(db)) is None


def _lost_store(tmp_path: Path) -> tuple[EventStore, list[tuple[str, str | None]]]:
    told: list[tuple[str, str | None]] = []
    store = EventStore(tmp_path / "s.sqlite3", key=None, exclusive=True,
                       on_loss=lambda reason, rescued: told.append((reason, rescued)))
    for n in range(20):
        store.append("s", n, [{"type": "x", "n": n}])
    return store, told


def test_a_deleted_wal_is_noticed_and_its_pages_saved_before_writes_stop(
        tmp_path: Path) -> None:
    """Without the rescue, every event since the last checkpoint went with the WAL."""
    store, told = _lost_store(tmp_path)
    Path(f"{tmp_path / 's.sqlite3'}-wal").unlink()
    with pytest.raises(StoreGone, match=r"write-ahead log .* was deleted"):
        store.append("s", 20, [{"type": "x"}])
    [(reason, rescued)] = told
    assert "write-ahead log" in reason and rescued is not None
    assert rescued.endswith("WAL pages copied into the database")
    store._engine.dispose()  # no close(): as after a kill, the WAL's last close is skipped
    with EventStore(tmp_path / "s.sqlite3", key=None) as reopened:
        assert reopened.last_seq("s") == 20
        assert reopened.verify_chain("s").ok


def _truncate_under_a_commit(path: str) -> None:
    """Truncated while SQLite writes: its next pages land at their old offsets, past a hole,
    and the file is as large as before."""
    size = os.path.getsize(path)
    os.truncate(path, 0)
    with open(path, "r+b") as file:
        file.seek(size - 4096)
        file.write(b"\1" * 4096)


@pytest.mark.parametrize("damage", ["truncate database", "truncate wal", "replace shm",
                                    "truncate wal under a commit",
                                    "truncate database under a commit"])
def test_a_file_shrunk_or_replaced_stops_writes_without_a_rescue(
        tmp_path: Path, damage: str) -> None:
    store, told = _lost_store(tmp_path)
    db = tmp_path / "s.sqlite3"
    if damage == "truncate database":
        os.truncate(db, 0)
    elif damage == "truncate wal":
        os.truncate(f"{db}-wal", 100)
    elif damage.endswith("under a commit"):
        _truncate_under_a_commit(f"{db}-wal" if "wal" in damage else str(db))
    else:
        Path(f"{db}-shm").rename(tmp_path / "old-shm")
        Path(f"{db}-shm").write_bytes(b"\0" * 32768)
    with pytest.raises(StoreGone):
        store.append("s", 20, [{"type": "x"}])
    with pytest.raises(StoreGone):  # sticky
        store.append("s", 20, [{"type": "x"}])
    assert store.check_files() is not None and store.lost == store.check_files()
    [(reason, rescued)] = told  # told once
    assert ("truncated" if damage.startswith("truncate") else "replaced") in reason
    assert rescued is None
    store.close()


async def test_a_quiet_store_notices_on_its_timer(tmp_path: Path) -> None:
    noticed = threading.Event()
    store = AsyncEventStore.open(tmp_path / "q.sqlite3", key=None, exclusive=True,
                                 watch_interval=0.05,
                                 on_loss=lambda reason, rescued: noticed.set())
    await store.append("s", 0, [{"type": "x"}])
    Path(f"{tmp_path / 'q.sqlite3'}-wal").unlink()
    assert await asyncio.to_thread(noticed.wait, 10)  # no append made it look
    assert store.store.lost is not None
    with pytest.raises(StoreGone):
        await store.append("s", 1, [{"type": "x"}])
    await store.aclose()


def test_a_growing_store_is_not_mistaken_for_damage(tmp_path: Path) -> None:
    """Checkpoints rewrite the WAL from its start (it keeps its size) and the database
    only grows: thousands of commits, past several automatic checkpoints, stay writable."""
    with EventStore(tmp_path / "g.sqlite3", key=None, exclusive=True) as store:
        for n in range(3000):
            store.append(f"s{n % 7}", n // 7, [{"type": "x", "pad": "y" * 500}])
        assert store.check_files() is None
