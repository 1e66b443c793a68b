"""Keepalive (server/keepalive.py): a connection that has gone quiet is pinged once, kept when
its pong comes and cut when nothing comes; one whose peer keeps sending is never pinged.
Real servers and sockets on loopback; the sweeps are driven by hand at chosen loop times,
except in the first test, which only waits (with a bound far above need) for the cut."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable

from websockets.asyncio.client import connect

from server.app import DominoServer
from server.keepalive import HeardConnection
from tests.security.conftest import Start
from tests.security.raw_clients import deaf_websocket, masked_text

HOUR = 3600.0
"""An interval the server's own sweeps never reach in a test (its first is at 900 s)."""


async def _eof(sock: socket.socket, bound: float = 30.0) -> bytes:
    """Everything the server sends on a raw socket until it closes it."""
    loop = asyncio.get_running_loop()
    got = b""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        try:
            chunk = await asyncio.wait_for(loop.sock_recv(sock, 4096), 1.0)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk
    raise AssertionError(f"still open after {bound} s; got {got!r}")


async def _until(condition: Callable[[], bool], bound: float = 30.0) -> None:
    """Wait until `condition` holds (it only waits as long as it takes; fails past `bound`)."""
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, f"not within {bound} s"
        await asyncio.sleep(0.01)


def _server_side(server: DominoServer) -> list[HeardConnection]:
    assert server._server is not None
    connections = server._server.connections
    return [c for c in connections if isinstance(c, HeardConnection)]


async def test_a_peer_that_never_answers_its_ping_is_cut(start: Start) -> None:
    server = await start(ping_interval=0.2, ping_timeout=0.2)
    sock = await deaf_websocket(server.port)
    await _eof(sock)  # (the ping's two bytes may have come with the handshake's answer)
    assert server.keepalive is not None
    assert server.keepalive.cut == 1 and server.keepalive.pings >= 1
    assert server.health()["keepalive_cut"] == 1
    sock.close()


async def test_a_quiet_peer_is_pinged_once_and_kept_when_it_answers(start: Start) -> None:
    server = await start(ping_interval=HOUR, ping_timeout=HOUR)
    keepalive = server.keepalive
    assert keepalive is not None
    async with connect(f"ws://127.0.0.1:{server.port}/ws", ping_interval=None) as client:
        (ws,) = _server_side(server)
        assert getattr(ws, "keepalive_task", None) is None  # websockets' own is off
        heard = ws.heard
        keepalive.sweep(heard + HOUR - 1)  # not quiet long enough
        assert keepalive.pings == 0
        keepalive.sweep(heard + HOUR + 0.5)
        assert keepalive.pings == 1 and ws.pinged == heard + HOUR + 0.5
        keepalive.sweep(heard + HOUR + 1.5)  # its ping is out: no second one
        assert keepalive.pings == 1
        await _until(lambda: ws.heard > heard)  # the client's pong stamps the connection
        # the pong came "before" the ping's loop time here (the sweep ran at a time of our
        # choosing): stamp order is what the sweep reads, so ask again from the pong on
        answered = ws.heard
        ws.pinged = answered - 1
        keepalive.sweep(answered + HOUR + 0.5)  # silent a whole interval again
        assert keepalive.pings == 2 and keepalive.cut == 0
        await client.send('{"type": "list_variants", "id": 1}')
        assert '"variants"' in await client.recv()  # still open, still served


async def test_a_peer_that_keeps_sending_is_never_pinged_and_a_silent_one_is_cut(
        start: Start) -> None:
    server = await start(ping_interval=HOUR, ping_timeout=HOUR)
    keepalive = server.keepalive
    assert keepalive is not None
    sock = await deaf_websocket(server.port)
    (ws,) = _server_side(server)
    first = ws.heard
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, masked_text('{"type": "list_tables", "id": 1}'))
    await _until(lambda: ws.heard > first)
    keepalive.sweep((first + ws.heard) / 2 + HOUR)  # an hour after its first bytes, not its last
    assert keepalive.pings == 0
    pinged = ws.heard + HOUR + 0.5
    keepalive.sweep(pinged)
    assert keepalive.pings == 1 and ws.pinged == pinged
    keepalive.sweep(pinged + HOUR - 0.5)  # its pong is not late yet
    assert keepalive.cut == 0
    keepalive.sweep(pinged + HOUR + 0.5)  # a whole timeout after the ping: cut
    assert keepalive.cut == 1
    got = await _eof(sock)
    assert b"\x89\x00" in got
    sock.close()
