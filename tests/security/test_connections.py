"""Issue 30, item 5 (and 7: slow HTTP clients): how many sockets one address may hold, for
how long before its request is in, how long a reader may stop reading, and what
`list_tables` costs whoever asks.

Real servers in-process on free ports, real sockets on loopback (all from 127.0.0.1: the
limits are set small here, or large where a test needs many connections).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from server.app import DominoServer
from tests.security.conftest import Start
from tests.security.raw_clients import (
    deaf_websocket,
    http_get,
    masked_text,
    raw_socket,
)
from tests.security.test_bounded_resources import ask, ws_url
from tests.server.helpers import wait_for


async def test_connections_per_address_are_limited_with_a_typed_refusal(start: Start) -> None:
    """Before: an address could open any number of connections (each bounded in memory, not
    in number). Now the one past the limit is answered 429 `too_many_connections`, counted
    on /healthz, and a place freed is taken again."""
    server = await start(connections_per_address=3)
    held = [await connect(ws_url(server)) for _ in range(3)]
    try:
        with pytest.raises(InvalidStatus) as refused:
            await connect(ws_url(server))
        assert refused.value.response.status_code == 429
        assert json.loads(refused.value.response.body)["code"] == "too_many_connections"
        status, _body, _ = await http_get(server.port, "/healthz")
        assert status == 429  # plain HTTP from that address is counted too
        await held.pop().close()
        await wait_for(lambda: server.connection_guard.open["127.0.0.1"] == 2)
        async with connect(ws_url(server)) as again:
            assert (await ask(again, {"type": "list_tables", "id": 1}))["type"] == "tables"
    finally:
        for ws in held:
            await ws.close()
    health = server.health()
    assert health["connections_refused"] == 2
    print(f"\nrefused: {health['connections_refused']}")


async def test_sockets_past_twice_the_limit_are_aborted_unread(start: Start) -> None:
    """Half-open sockets that send nothing: those past the limit would each wait for their
    request; past twice the limit they are aborted at the accept."""
    server = await start(connections_per_address=3, header_timeout=None)
    loop = asyncio.get_running_loop()
    held = [await raw_socket(server.port) for _ in range(6)]
    extra = await raw_socket(server.port)
    try:
        try:
            closed = await asyncio.wait_for(loop.sock_recv(extra, 1024), 10) == b""
        except OSError:
            closed = True
        assert closed
        await wait_for(lambda: server.connection_guard.open["127.0.0.1"] == 6)
        assert server.health()["connections_refused"] == 1
    finally:
        for sock in [*held, extra]:
            sock.close()
    await wait_for(lambda: not server.connection_guard.open)


async def test_headers_sent_a_byte_a_second_are_cut_off(start: Start) -> None:
    """Slowloris. Before: the handshake had websockets' open_timeout, 150 s on this server
    (its HTTP routes may compute for long), so a request line sent a byte a second held its
    socket for two and a half minutes. Now the request has `header_timeout` to arrive."""
    server = await start(header_timeout=2.0)
    sock = await raw_socket(server.port)
    loop = asyncio.get_running_loop()
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    started = time.monotonic()
    cut_at = None
    try:
        for n, byte in enumerate(request[:12]):  # 12 s if nothing cut it
            try:
                await loop.sock_sendall(sock, bytes([byte]))
                if await asyncio.wait_for(loop.sock_recv(sock, 1024), 1.0) == b"":
                    cut_at = n
                    break
            except TimeoutError:
                continue
            except OSError:
                cut_at = n
                break
    finally:
        sock.close()
    print(f"\ncut after {cut_at} bytes, {time.monotonic() - started:.1f} s")
    assert cut_at is not None, "the slow request kept its socket"
    assert server.health()["slow_requests_cut"] == 1
    status, _body, _ = await http_get(server.port, "/healthz")  # others are served
    assert status == 200


async def _many_tables(server: DominoServer, count: int) -> None:
    async with connect(ws_url(server)) as ws:
        for n in range(count):
            assert (await ask(ws, {"type": "create_table", "id": n}))["type"] == "table_created"


async def test_list_tables_is_encoded_once_whoever_asks(start: Start) -> None:
    """Before: each `list_tables` built and encoded every entry of its page anew. Now an
    entry is encoded once per change of its table, and a page is the kept entries."""
    server = await start(tables_per_connection=200, tables_per_address=200, rate_burst=1000.0)
    await _many_tables(server, 100)
    assert server.registry is not None
    cache = server.registry.listing_cache
    async with connect(ws_url(server)) as first, connect(ws_url(server)) as second:
        pages = [await ask(ws, {"type": "list_tables", "id": n})
                 for n in range(20) for ws in (first, second)]
        assert cache.encoded == 100
        assert all(p["tables"] == pages[0]["tables"] for p in pages)
        some = pages[0]["tables"][7]["table_id"]
        joined = await ask(first, {"type": "join", "table_id": some, "seat": "S",
                                   "name": "ann"})
        assert joined["type"] == "joined"
        after = await ask(second, {"type": "list_tables", "id": 99})
        assert cache.encoded == 101  # that table's entry alone, with its new seat
        entry = next(t for t in after["tables"] if t["table_id"] == some)
        assert entry["seats"]["S"] == "ann"
        assert after["tables"][:7] == pages[0]["tables"][:7]


async def test_thirty_deaf_sockets_flooding_list_tables_are_cut_and_healthz_answers(
        start: Start) -> None:
    """The issue's test: 30 raw sockets that never read, each sending 150 `list_tables` at
    20/s over a hundred tables (~30 KB a reply). Before: nothing cut them (8 MiB a
    connection was never reached in 7.5 s; websockets' keepalive takes 20 s and more), and
    every request re-encoded its page. Now a frame the socket has not taken within
    `send_timeout` cuts the connection (/healthz `slow_readers_by`), and the kernel's send
    buffer is capped (it grew to 4 MiB for a deaf socket: 150 replies fitted in it)."""
    server = await start(send_timeout=2.0, tables_per_connection=200, tables_per_address=200,
                         rate_burst=1000.0, connections_per_address=64)  # the default
    await _many_tables(server, 100)
    sockets = [await deaf_websocket(server.port) for _ in range(30)]
    loop = asyncio.get_running_loop()
    frame = masked_text(json.dumps({"type": "list_tables"}))
    refused_at: list[int] = []

    async def flood(sock: object) -> None:
        for n in range(150):
            try:
                await loop.sock_sendall(sock, frame)  # type: ignore[arg-type]
            except OSError:
                refused_at.append(n)
                return
            await asyncio.sleep(0.05)

    latencies: list[float] = []

    async def poll_health() -> None:
        while len(latencies) < 200:
            status, body, seconds = await asyncio.wait_for(
                http_get(server.port, "/healthz"), 30)
            assert status == 200 and json.loads(body)["ok"] is True
            latencies.append(seconds)
            await asyncio.sleep(0.25)

    poller = asyncio.create_task(poll_health())
    try:
        await asyncio.gather(*(flood(s) for s in sockets))
        await wait_for(lambda: server.guards.slow_readers_dropped == 30, timeout=60)
    finally:
        poller.cancel()
        for sock in sockets:
            sock.close()
    status, body, seconds = await http_get(server.port, "/healthz")
    latencies.append(seconds)
    health = json.loads(body)
    print(f"\n/healthz answered {len(latencies)} times during the flood: p50 "
          f"{statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms; "
          f"cut: {health['slow_readers_by']}; a flooder's send failed after "
          f"{sorted(refused_at)[:1]}..{sorted(refused_at)[-1:]} requests; "
          f"entries encoded: {server.registry.listing_cache.encoded}")
    assert status == 200 and health["slow_readers_dropped"] == 30
    assert len(refused_at) == 30  # each flooder's socket was reset before its 150th send
    assert health["slow_readers_by"].get("time", 0) >= 1
    assert len(latencies) >= 2
