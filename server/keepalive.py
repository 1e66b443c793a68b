"""Keepalive pings for the connections that have gone quiet only, from one timer.

websockets' own keepalive runs a task per connection that pings every `interval` seconds
whatever the connection is doing, and waits for each pong under a timeout of its own: at
10,000 paced connections, 500 pings a second, each with two task wake-ups, two timers and a
frame each way. `domino-oracle bench transport-floor` measured it at about 0.1 ms of the
server's CPU per move at 2,500 paced tables (0.48-0.53 ms per move with it, 0.37-0.41
without), a fifth of what the bare transport costs. Yet a peer whose bytes keep arriving is
alive without being asked: every read stamps its connection (`HeardConnection`, its
`data_received`), a pong's too. So one sweep every quarter of `interval` pings each
connection silent for `interval` seconds once (a ping frame written at once, as the outbox
writes its frames), and cuts one still silent `timeout` seconds after its ping (None: never), as
websockets' keepalive would have (its peer is gone or stuck). A connection mid-game sends a
move every few seconds and is not pinged; a spectator's is, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable

from websockets.asyncio.server import ServerConnection

from server.logs import log


class HeardConnection(ServerConnection):
    """A websockets server connection that notes when its peer last sent anything."""

    heard = 0.0
    """Loop time of the last bytes read from the peer (0 before any)."""
    pinged: float | None = None
    """Loop time of the ping sent since then, if one was."""

    def data_received(self, data: bytes) -> None:
        self.heard = self.loop.time()
        super().data_received(data)


class Keepalive:
    """Pings quiet connections and cuts the ones that stay quiet; counts both for /healthz."""

    def __init__(self, interval: float, timeout: float | None,
                 connections: Callable[[], Iterable[HeardConnection]]) -> None:
        self.interval = interval
        self.timeout = timeout
        self.connections = connections
        self.pings = 0
        self.cut = 0

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.interval / 4)
            try:
                self.sweep(loop.time())
            except Exception as error:  # a bug here must not end keepalive for good
                log("keepalive_failed", error=repr(error))

    def sweep(self, now: float) -> None:
        """One pass over the open connections at loop time `now`."""
        for ws in self.connections():
            heard = ws.heard
            if now - heard < self.interval:
                continue
            pinged = ws.pinged
            if pinged is None or heard > pinged:  # nothing asked since it last spoke
                ws.pinged = now
                self.pings += 1
                _ping(ws)
            elif self.timeout is not None and now - pinged >= self.timeout:
                self.cut += 1
                ws.transport.abort()  # connection_lost ends its handler (1006)


def _ping(ws: ServerConnection) -> None:
    """A ping frame to the transport now (no pong waiter: the pong's bytes stamp `heard`,
    and websockets ignores a pong it did not ask for)."""
    with contextlib.suppress(Exception):  # a transport failing under us: its handler ends
        ws.protocol.send_ping(b"")
        ws.send_data()
