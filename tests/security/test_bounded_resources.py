"""Findings 2 and 4: what one client can make the server hold or do is bounded.

Each test runs a real server in-process on a free port (tests/conftest.py) and real
WebSocket clients on loopback; limits are set small in the server's config so the tests
reach them quickly (the defaults are in docs/security.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from archive.jsonl import dump_lines
from games.dominoes.game import DOMINOES
from games.dominoes.selfplay import random_match_events
from server.app import DominoServer
from server.replay.build import MAX_DEPTH, build_replay
from tests.conftest import make_config
from tests.server.helpers import wait_for

Start = Callable[..., Awaitable[DominoServer]]


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[Start]:
    """start(**limits): a server with those ServerConfig fields set (stopped after)."""
    started: list[DominoServer] = []

    async def run(**limits: object) -> DominoServer:
        instance = DominoServer(make_config(tmp_path, **limits))
        await instance.start()
        started.append(instance)
        return instance

    yield run
    for instance in started:
        await instance.stop()


def ws_url(server: DominoServer, path: str = "/ws") -> str:
    return f"ws://127.0.0.1:{server.port}{path}"


async def ask(ws, payload: dict) -> dict:
    await ws.send(json.dumps(payload))
    while True:
        message = json.loads(await ws.recv())
        if message["type"] not in ("event", "belief"):
            return message


async def test_a_reader_that_never_reads_is_cut_off_by_bytes_and_its_socket_closed(
        start: Start) -> None:
    """Before: the limit counted frames (20,000), so four never-reading sockets asking for
    356 KB listings held 1.2 GB; after `slow_reader_dropped` the socket stayed open and its
    commands still ran. Now: past `outbox_bytes` queued, the outbox is freed, the socket
    aborted, and nothing more it sent is run."""
    small = await start(outbox_bytes=1_000_000, rate_per_second=100_000.0, rate_burst=100_000.0)
    async with connect(ws_url(small)) as ws:
        for n in range(20):
            assert (await ask(ws, {"type": "create_table", "id": n}))["type"] == "table_created"
    listing = json.dumps({"type": "list_tables"})
    # max_queue=1: the client stops reading its socket after one frame (TCP backpressure)
    async with connect(ws_url(small), max_queue=1, write_limit=2**20) as greedy:
        with pytest.raises(ConnectionClosed):
            for _ in range(50_000):  # ~5 KB replies: 250 MB if nothing stopped it
                await greedy.send(listing)
            # what reached its socket before the cut-off, then the close; still open after
            # all 50,000 replies: the test fails here
            for _ in range(50_000):
                await greedy.recv()
    await wait_for(lambda: small.guards.slow_readers_dropped == 1, timeout=30)
    await wait_for(lambda: small.metrics.connections == 0, timeout=30)
    async with connect(ws_url(small)) as other:  # the server is fine
        assert (await ask(other, {"type": "list_tables", "id": 1}))["type"] == "tables"


async def test_unfinished_tables_are_limited_per_connection_and_per_address(
        start: Start) -> None:
    """Before: ten connections made ~2,000 tables in 7 s."""
    small = await start(tables_per_connection=5, tables_per_address=8)
    async with connect(ws_url(small)) as first, connect(ws_url(small)) as second:
        replies = [await ask(first, {"type": "create_table", "id": n}) for n in range(6)]
        assert [r["type"] for r in replies] == ["table_created"] * 5 + ["error"]
        assert replies[-1]["code"] == "limit_reached"
        replies = [await ask(second, {"type": "create_table", "id": n}) for n in range(5)]
        assert [r["type"] for r in replies] == ["table_created"] * 3 + ["error"] * 2
        assert {r.get("code") for r in replies[3:]} == {"limit_reached"}
    assert len(small.registry.tables) == 8


async def test_list_tables_is_read_in_pages(
        start: Start) -> None:
    # 130 creates in a row would pass the message rate (100 at once): not what is tested here
    small = await start(tables_per_connection=200, tables_per_address=200, rate_burst=1000.0)
    async with connect(ws_url(small)) as ws:
        made = {(await ask(ws, {"type": "create_table", "id": n}))["table_id"]
                for n in range(130)}
        first = await ask(ws, {"type": "list_tables", "id": 1})
        assert len(first["tables"]) == 100 and first["next"] is not None
        second = await ask(ws, {"type": "list_tables", "id": 2, "after": first["next"]})
        assert len(second["tables"]) == 30 and second["next"] is None
        listed = [t["table_id"] for t in first["tables"] + second["tables"]]
        assert listed == sorted(made)
        small_page = await ask(ws, {"type": "list_tables", "limit": 7})
        assert len(small_page["tables"]) == 7
        too_many = await ask(ws, {"type": "list_tables", "limit": 1000})
        assert too_many["code"] == "bad_request"


async def _long_table(server: DominoServer, events: int) -> str:
    """A table of four random bots, played until its log holds `events` events."""
    async with connect(ws_url(server)) as ws:
        bots = dict.fromkeys(("S", "W", "N", "E"), "random")
        table_id = (await ask(ws, {"type": "create_table", "bots": bots, "target": 500}))[
            "table_id"]
    table = server.registry.tables[table_id]
    await wait_for(lambda: table.last_seq >= events, timeout=60)
    return table_id


async def test_a_catch_up_is_charged_by_its_size(start: Start) -> None:
    """Before: 50 `watch after_seq=0`/s on a 2,742-event table, under the message rate,
    used 11.6 s of CPU in 15 s. Now each backlog costs a token per 20 events."""
    small = await start()
    table_id = await _long_table(small, 300)
    async with connect(ws_url(small), max_size=None) as ws:
        codes = []
        for n in range(12):  # 12 messages: far under the 100-message burst
            await ws.send(json.dumps({"type": "watch", "id": n, "table_id": table_id}))
        while len(codes) < 12:
            message = json.loads(await ws.recv())
            if message["type"] == "watching":
                codes.append("watching")
            elif message["type"] == "error":
                codes.append(message["code"])
        assert codes[0] == "watching"
        assert "rate_limited" in codes, codes


async def test_simultaneous_catch_ups_are_paced_and_capped(
        start: Start) -> None:
    """Before: 200 simultaneous `resume`s stalled the loop 5.9 s. Now catch-ups are admitted
    at a server-wide pace in events/s, and past a ceiling the others hear `busy`."""
    small = await start(backlog_ceiling=2, backlog_events_per_second=400.0,
                        backlog_burst=400.0)
    table_id = await _long_table(small, 300)
    sockets = [await connect(ws_url(small), max_size=None, close_timeout=1) for _ in range(8)]
    try:
        for n, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "watch", "id": n, "table_id": table_id}))
        answers = []
        for ws in sockets:
            while True:
                message = json.loads(await ws.recv())
                if message["type"] in ("watching", "error"):
                    answers.append(message.get("code", "watching"))
                    break
        assert "busy" in answers and "watching" in answers, answers
        assert small.guards.backlogs.refused == answers.count("busy")
    finally:  # they read no events: do not wait on each one's close handshake in turn
        await asyncio.gather(*(ws.close() for ws in sockets))


# -- replay uploads (finding 4) --------------------------------------------------------------


async def upload(server: DominoServer, text: str, perspective: str = "spectator") -> dict:
    path = f"/api/replay/upload?perspective={perspective}"
    async with connect(ws_url(server, path), max_size=None) as ws:
        with contextlib.suppress(ConnectionClosed):  # refused (429) before it was read
            await ws.send(text)
        return json.loads(await ws.recv())


@pytest.fixture(scope="module")
def match_log() -> tuple[list, str]:
    events = random_match_events(random.Random(5), target=40, match_id="m-upload")
    return events, dump_lines(DOMINOES, events)


async def test_a_deeply_nested_upload_is_refused_without_a_traceback(
        start: Start, match_log: tuple[list, str],
        capsys: pytest.CaptureFixture[str]) -> None:
    """Before: RecursionError, unhandled, and the upload connection died with 1011."""
    small = await start()
    for body in ("[" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000,
                 match_log[1] + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n"):
        reply = await upload(small, body)
        assert reply["status"] == 400 and "nests" in reply["error"], reply
    assert "Traceback" not in capsys.readouterr().err
    events, text = match_log
    assert await upload(small, text) == json.loads(json.dumps(build_replay(events,
                                                                           "spectator")))


async def test_uploads_are_rate_limited_per_address(start: Start,
                                                    match_log: tuple[list, str]) -> None:
    small = await start(uploads_per_minute=3.0)
    replies = [await upload(small, match_log[1], "S") for _ in range(5)]
    assert [r.get("status", 200) for r in replies] == [200, 200, 200, 429, 429]
    assert replies[0]["perspective"] == "S" and len(replies[0]["beliefs"]) == len(
        match_log[0])


async def test_a_long_upload_is_streamed_in_fragments(start: Start,
                                                      match_log: tuple[list, str]) -> None:
    """The reply (a belief per event, ~100x the log) is built and sent piece by piece,
    never held whole; the pieces make the same document."""
    small = await start()
    async with connect(ws_url(small, "/api/replay/upload?perspective=N"),
                       max_size=None) as ws:
        await ws.send(match_log[1])
        pieces = [piece async for piece in ws.recv_streaming()]
    assert len(pieces) > 4
    assert json.loads("".join(pieces)) == json.loads(json.dumps(
        build_replay(match_log[0], "N")))


async def test_an_upload_with_too_many_events_is_refused_before_parsing(
        start: Start) -> None:
    small = await start()
    line = json.dumps({"type": "hand_started", "seq": 1}) + "\n"
    reply = await upload(small, line * 5000)
    assert reply["status"] == 413 and "events" in reply["error"]
    await asyncio.sleep(0)
