"""Findings 5, 6 and 7: one writer per SQLite store, a store that notices its file going
away, and history that cannot be rewritten without the key.

Real SQLite files in tmp_path, real `serve` processes for the second-server case, the
real server in-process elsewhere; the attacker edits the database with sqlite3 as anyone
who can write the file could, recomputing every hash so that the plain chain still holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from clients.commands.verify import _verify_store
from games.registry import GAMES
from server.app import DominoServer
from storage import GENESIS_HASH, EventStore, StoreKeyError, canonical_json, link_hash
from tests.processes import free_port, kill, spawn, start_server, stop
from tests.security.conftest import Start
from tests.server.helpers import wait_for


async def stop_server(server: DominoServer) -> None:
    await server.stop()
    server.stopped_by_test = True  # type: ignore[attr-defined]


async def ask(ws, payload: dict) -> dict:
    await ws.send(json.dumps(payload))
    while True:
        message = json.loads(await ws.recv())
        if message["type"] not in ("event", "belief"):
            return message


def url(server: DominoServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


# -- finding 5: one server per SQLite store --------------------------------------------------


def _another_name(db: Path, how: str) -> Path:
    """The same database file under another name."""
    if how == "same path":
        return db
    other = db.with_name("other.sqlite3")
    if how == "symlink":
        other.symlink_to(db)
    elif how == "hard link":
        os.link(db, other)
    else:
        raise ValueError(how)
    return other


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
def test_a_second_server_on_the_same_sqlite_file_exits_with_a_clear_message(
        tmp_path: Path, how: str) -> None:
    """Before: the second server took over every table and its stand-ins played for people
    connected to the first. Issue 30: through a symlink or a hard link it still started
    (the lock was on the path as given), the hard link with a `-wal` of its own."""
    db = tmp_path / "shared.sqlite3"
    log = tmp_path / "server.log"
    first = start_server(free_port(), ["--db", str(db)], log)
    try:
        other = _another_name(db, how)
        second = spawn(["serve", "--port", str(free_port()), "--db", str(other)],
                       tmp_path / "second.log")
        try:
            code = second.wait(timeout=60)
        finally:
            if second.poll() is None:
                second.kill()
                second.wait()
        message = (tmp_path / "second.log").read_text()
        assert code == 2, message
        assert "in use by another server" in message and f"pid {first.pid}" in message
        assert "Traceback" not in message
        assert first.poll() is None  # the first one serves on
        assert not Path(f"{other}-wal").exists() or other == db  # SQLite never opened it
    finally:
        assert stop(first) == 0


# -- finding 6 (and issue 30's first): the database or its WAL/shm deleted, replaced, shrunk --


def _damage(db: Path, how: str) -> None:
    """What an operator's slip or an attacker does to the files under a running server."""
    wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
    if how == "deleted":
        db.unlink()
    elif how == "replaced":
        shutil.copy(db, db.with_name("copy.sqlite3"))
        os.replace(db.with_name("copy.sqlite3"), db)
    elif how == "wal deleted":
        wal.unlink()
    elif how == "wal replaced":
        shutil.copy(wal, db.with_name("copy-wal"))
        os.replace(db.with_name("copy-wal"), wal)
    elif how == "shm deleted":
        shm.unlink()
    elif how == "truncated":  # in place: the same inode, fewer bytes
        os.truncate(db, 0)
    elif how == "wal truncated":
        os.truncate(wal, 0)
    else:
        raise ValueError(how)


@pytest.mark.parametrize("how", ["deleted", "replaced", "wal deleted", "wal replaced",
                                 "shm deleted", "truncated", "wal truncated"])
async def test_a_store_whose_files_change_acknowledges_nothing_more(
        start: Start, tmp_path: Path, how: str) -> None:
    """Before: 16 more moves were acknowledged into the deleted file; after a restart all
    were gone and verify said "ok: 0 matches". Issue 30: deleting the `-wal` (or
    truncating the database in place) went unnoticed: `/healthz` ok, 6 more moves acked,
    and after kill -9 every acked move was gone."""
    server = await start()
    db = tmp_path / "server.sqlite3"
    async with connect(url(server)) as ws:
        bots = dict.fromkeys(("W", "N", "E"), "greedy")
        table_id = (await ask(ws, {"type": "create_table", "bots": bots}))["table_id"]
        busy = (await ask(ws, {"type": "create_table", "bots": {
            **bots, "S": "random"}}))["table_id"]
        table = server.registry.tables[busy]
        await wait_for(lambda: table.last_seq > 20)
        _damage(db, how)
        for n, request in enumerate([{"type": "create_table"},
                                     {"type": "join", "table_id": table_id, "seat": "S"}]):
            reply = await ask(ws, {**request, "id": n})
            assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        frozen = table.last_seq  # from the refusal on, every commit fails its check
        await asyncio.sleep(0.5)
        assert table.last_seq == frozen  # nothing more is acknowledged
        health = server.health()
        assert health["ok"] is False and how.split()[-1] in health["store_lost"], health


@pytest.mark.parametrize("how", ["wal deleted", "truncated"])
async def test_the_store_notices_on_its_own_when_nothing_is_written(
        start: Start, tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture) -> None:
    """No commit needed: a timer checks the files, `/healthz` turns not ok and the
    operator is told in the log."""
    server = await start()
    async with connect(url(server)) as ws:
        await ask(ws, {"type": "create_table"})
    assert server.health()["ok"] is True
    with caplog.at_level("ERROR", logger="domino"):
        _damage(tmp_path / "server.sqlite3", how)
        await wait_for(lambda: not server.health()["ok"])
        await wait_for(lambda: "event=store_lost" in caplog.text)
    assert how.split()[-1] in server.health()["store_lost"]


def _watch_until(port: int, table_id: str, seq: int) -> list[dict]:
    """A spectator's events of `table_id` up to at least `seq` (or the error it got)."""
    async def run() -> list[dict]:
        got: list[dict] = []
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send(json.dumps({"type": "watch", "table_id": table_id}))
            while not got or (got[-1].get("type") == "event" and got[-1]["seq"] < seq):
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] in ("event", "error"):
                    got.append(message)
        return got
    return asyncio.run(run())


def test_moves_acknowledged_before_the_wal_was_deleted_survive_a_kill(
        tmp_path: Path) -> None:
    """Issue 30: `-wal` deleted, then kill -9 and restart: the table was `unknown_table`
    (14 of 14 acked moves gone). Now the store, on noticing, copies what its open WAL holds
    into the database (a checkpoint) before refusing more: every acked event is there."""
    db, log = tmp_path / "kept.sqlite3", tmp_path / "server.log"
    port = free_port()
    args = ["--db", str(db), "--bot-delay", "0.02", "--hand-pause", "0"]
    first = start_server(port, args, log)
    try:
        async def create_and_watch() -> tuple[str, int]:
            async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
                bots = dict.fromkeys(("S", "W", "N", "E"), "random")
                table_id = (await ask(ws, {"type": "create_table", "bots": bots}))["table_id"]
                await ws.send(json.dumps({"type": "watch", "table_id": table_id}))
                seen = 0
                while seen < 30:
                    message = json.loads(await ws.recv())
                    if message["type"] == "event":
                        seen = message["seq"]
                Path(f"{db}-wal").unlink()
                for _ in range(200):  # acks (events a spectator got) until the store notices
                    health = json.loads(await asyncio.to_thread(
                        lambda: urllib.request.urlopen(
                            f"http://127.0.0.1:{port}/healthz").read()))
                    if not health["ok"]:
                        break
                    with contextlib.suppress(TimeoutError):
                        while True:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 0.05))
                            if message["type"] == "event":
                                seen = message["seq"]
                with contextlib.suppress(TimeoutError):
                    while True:  # whatever was published before the refusals began
                        message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        if message["type"] == "event":
                            seen = message["seq"]
                return table_id, seen
        table_id, acked = asyncio.run(create_and_watch())
        kill(first)
        second = start_server(port, args, log)
        try:
            got = _watch_until(port, table_id, acked)
        finally:
            assert stop(second) == 0
    finally:
        if first.poll() is None:
            kill(first)
    assert got[-1]["type"] == "event", got[-1]  # before: unknown_table
    assert [e["seq"] for e in got[:acked]] == list(range(1, acked + 1))
    with EventStore(db) as store:
        assert store.verify_chain(table_id).ok


# -- finding 7: a keyed chain ----------------------------------------------------------------


def rewrite(db: Path, stream: str, seq: int, change: Callable[[dict], None]) -> None:
    """What someone with write access to the file can do: edit one event, then recompute
    every later hash and the stream's head, so that the plain hash chain holds."""
    with sqlite3.connect(db) as con:
        con.execute("DROP TRIGGER IF EXISTS events_no_update")
        rows = con.execute("SELECT seq, payload FROM events WHERE stream = ? ORDER BY seq",
                           (stream,)).fetchall()
        prev = GENESIS_HASH
        for row_seq, payload in rows:
            if row_seq == seq:
                data = json.loads(payload)
                change(data)
                payload = canonical_json(data)
            digest = link_hash(prev, payload)
            con.execute("UPDATE events SET payload = ?, prev_hash = ?, hash = ? "
                        "WHERE stream = ? AND seq = ?", (payload, prev, digest, stream, row_seq))
            prev = digest
        con.execute("UPDATE streams SET last_hash = ? WHERE stream = ?", (prev, stream))


async def _two_tables(server: DominoServer) -> list[tuple[str, str]]:
    """Two tables, each with a person at S (and bots elsewhere): (table id, S's token)."""
    out = []
    async with connect(url(server)) as ws:
        for n in range(2):
            bots = dict.fromkeys(("W", "N", "E"), "greedy")
            table_id = (await ask(ws, {"type": "create_table", "id": n, "bots": bots}))[
                "table_id"]
            joined = await ask(ws, {"type": "join", "table_id": table_id, "seat": "S",
                                    "name": "ann"})
            out.append((table_id, joined["token"]))
    return out


async def test_a_rewritten_seat_token_is_quarantined_and_the_other_tables_served(
        start: Start, tmp_path: Path) -> None:
    """Before: swapping a seat's token hash (chain recomputed) handed the seat to the
    attacker, and a match that failed to fold made `serve` exit, taking every table down."""
    server = await start()
    (victim, _), (other, other_token) = await _two_tables(server)
    await stop_server(server)
    forged = "f" * 32
    rewrite(tmp_path / "server.sqlite3", f"seats:{victim}", 2,
            lambda claim: claim.update(token_sha256=hashlib.sha256(forged.encode()).hexdigest()))
    server = await start()
    async with connect(url(server)) as ws:
        stolen = await ask(ws, {"type": "resume", "table_id": victim, "token": forged})
        assert stolen["type"] == "error" and stolen["code"] == "unavailable", stolen
        mine = await ask(ws, {"type": "resume", "table_id": other, "token": other_token})
        assert mine["type"] == "resumed"
    health = server.health()
    assert list(health["quarantined"]) == [victim]
    assert "seal" in health["quarantined"][victim]


async def test_a_match_that_does_not_fold_is_quarantined_not_fatal(
        start: Start, tmp_path: Path) -> None:
    """A stored event the game refuses (here in a store the server could not seal, so the
    fold is what catches it): the server starts, the rest is served."""
    server = await start(store_key_file=None)
    (victim, _), (other, other_token) = await _two_tables(server)
    await stop_server(server)
    rewrite(tmp_path / "server.sqlite3", victim, 2, lambda event: event.update(
        type="hand_started", seq=2, hand=99))
    server = await start(store_key_file=None)
    assert list(server.health()["quarantined"]) == [victim]
    async with connect(url(server)) as ws:
        assert (await ask(ws, {"type": "resume", "table_id": other, "token": other_token}
                          ))["type"] == "resumed"


async def test_verify_fails_a_rewrite_made_without_the_key(
        start: Start, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: changing a played tile or a player's name and recomputing the chain passed
    `verify`."""
    server = await start()
    (table_id, _), _ = await _two_tables(server)
    await stop_server(server)
    db = tmp_path / "server.sqlite3"
    assert _verify_store(str(db), GAMES) == 0
    assert "sealed by key" in capsys.readouterr().out
    rewrite(db, table_id, 1, lambda started: started["players"].update(S="mallory"))
    assert _verify_store(str(db), GAMES) == 1
    said = capsys.readouterr().out
    assert said.startswith(f"BAD {table_id}: hash chain breaks at seq ") and "(seal)" in said
    server = await start()  # the server does not serve the rewritten history either
    with pytest.raises(urllib.error.HTTPError) as refused:
        await asyncio.to_thread(urllib.request.urlopen, f"http://127.0.0.1:{server.port}"
                                f"/api/matches/{table_id}/replay?perspective=spectator")
    assert refused.value.code == 409
    await stop_server(server)
    (tmp_path / "server.sqlite3.key").write_text("ab" * 32)  # another key: not this store's
    with pytest.raises(StoreKeyError):
        EventStore(db)
    (tmp_path / "server.sqlite3.key").unlink()  # no key at all: readable, never writable
    with EventStore(db) as store:
        assert store.sealed and not store.verify_chain(table_id).ok
        with pytest.raises(StoreKeyError):
            store.append("anything", 0, [{"type": "x"}])
