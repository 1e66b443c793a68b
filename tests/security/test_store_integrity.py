"""Findings 5, 6 and 7: one writer per SQLite store, a store that notices its file going
away, and history that cannot be rewritten without the key.

Real SQLite files in tmp_path, real `serve` processes for the second-server case, the
real server in-process elsewhere; the attacker edits the database with sqlite3 as anyone
who can write the file could, recomputing every hash so that the plain chain still holds.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from clients.commands.verify import _verify_store
from games.registry import GAMES
from server.app import DominoServer
from storage import GENESIS_HASH, EventStore, StoreKeyError, canonical_json, link_hash
from tests.conftest import make_config
from tests.processes import free_port, spawn, start_server, stop
from tests.server.helpers import wait_for

Start = Callable[..., Awaitable[DominoServer]]


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[Start]:
    """start(): the real server on tmp_path/server.sqlite3 (its key beside it); stopped
    after the test if still running."""
    started: list[DominoServer] = []

    async def run(**overrides: Any) -> DominoServer:
        instance = DominoServer(make_config(tmp_path, **overrides))
        await instance.start()
        started.append(instance)
        return instance

    yield run
    for instance in started:
        if not getattr(instance, "stopped_by_test", False):
            await instance.stop()


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


def test_a_second_server_on_the_same_sqlite_file_exits_with_a_clear_message(
        tmp_path: Path) -> None:
    """Before: the second server took over every table and its stand-ins played for people
    connected to the first."""
    db = tmp_path / "shared.sqlite3"
    log = tmp_path / "server.log"
    first = start_server(free_port(), ["--db", str(db)], log)
    try:
        second = spawn(["serve", "--port", str(free_port()), "--db", str(db)],
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
    finally:
        assert stop(first) == 0


# -- finding 6: the database file deleted or replaced ----------------------------------------


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_store_whose_file_goes_away_acknowledges_nothing_more(
        start: Start, tmp_path: Path, how: str) -> None:
    """Before: 16 more moves were acknowledged into the deleted file; after a restart all
    were gone and verify said "ok: 0 matches"."""
    server = await start()
    db = tmp_path / "server.sqlite3"
    async with connect(url(server)) as ws:
        bots = dict.fromkeys(("W", "N", "E"), "greedy")
        table_id = (await ask(ws, {"type": "create_table", "bots": bots}))["table_id"]
        busy = (await ask(ws, {"type": "create_table", "bots": {
            **bots, "S": "random"}}))["table_id"]
        table = server.registry.tables[busy]
        await wait_for(lambda: table.last_seq > 20)
        if how == "deleted":
            db.unlink()
        else:
            shutil.copy(db, tmp_path / "copy.sqlite3")
            os.replace(tmp_path / "copy.sqlite3", db)
        for n, request in enumerate([{"type": "create_table"},
                                     {"type": "join", "table_id": table_id, "seat": "S"}]):
            reply = await ask(ws, {**request, "id": n})
            assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        await asyncio.sleep(0.3)  # the bots' table: one commit may have been in flight
        frozen = table.last_seq
        await asyncio.sleep(0.5)
        assert table.last_seq == frozen  # nothing more is acknowledged
        health = server.health()
        assert health["ok"] is False and how in health["store_lost"]


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
