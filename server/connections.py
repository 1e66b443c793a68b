"""Who may hold a socket open, and for how long before its request is in.

Counted from the TCP accept, before anything is read: open connections per IP address
(`ConnectionGuard`). Past `per_address`, the connection is let through the HTTP request
only to be answered 429 `too_many_connections` (a typed refusal the client can read); past twice
that, it is aborted at once, unread, so a flood of half-open sockets costs nothing more.

A request line and headers have `header_timeout` seconds to arrive (slowloris: a client
sending its headers a byte a second held a connection for websockets' whole `open_timeout`,
which the HTTP routes need long, 150 s); past it the socket is aborted and counted.

The kernel's send buffer of each accepted socket is capped (`send_buffer`): on loopback
Linux grew it to 4 MiB for a peer that never read, so a deaf reader held megabytes that no
outbox counted, and the server's writes never backed up for `send_timeout` to see them.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Response

from server.keepalive import HeardConnection


@dataclass
class ConnectionGuard:
    """Open connections per address, and what was refused or cut (for /healthz)."""

    per_address: int
    header_timeout: float | None
    send_buffer: int | None = None
    """SO_SNDBUF of each accepted socket (None: the kernel's own, autotuned)."""
    open: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    """Connections answered 429 or aborted for their address's count."""
    slow_requests_cut: int = 0
    """Connections aborted because their request had not arrived within header_timeout."""

    def enter(self, address: str) -> int:
        """Count one more connection from `address`; the number now open from it."""
        self.open[address] += 1
        return self.open[address]

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def health(self) -> dict[str, Any]:
        return {"connections_per_address_max": max(self.open.values(), default=0),
                "connections_refused": self.refused,
                "slow_requests_cut": self.slow_requests_cut}


def refusal(limit: int) -> Response:
    """HTTP 429 with a JSON body naming the code, for a handshake or a plain request."""
    body = json.dumps({"error": f"too many connections from your address (limit {limit})",
                       "code": "too_many_connections", "status": 429}).encode()
    headers = Headers([("Content-Type", "application/json"),
                       ("Content-Length", str(len(body))), ("Connection", "close")])
    return Response(429, "Too Many Requests", headers, body)


def guarded_connection(limit: ConnectionGuard) -> type[ServerConnection]:
    """A websockets connection class counted in `limit` from accept to close."""

    class Guarded(HeardConnection):
        address = "-"
        over_limit = False
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            peer = transport.get_extra_info("peername")
            self.address = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
            sock = transport.get_extra_info("socket")
            if limit.send_buffer is not None and sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limit.send_buffer)
            count = limit.enter(self.address)
            self.over_limit = count > limit.per_address
            super().connection_made(transport)
            if count > 2 * limit.per_address:
                limit.refused += 1
                self.transport.abort()  # connection_lost follows and uncounts it
                return
            if limit.header_timeout is not None:
                self._deadline = self.loop.call_later(limit.header_timeout,
                                                      self._request_late)

        def _request_late(self) -> None:
            if not self.request_rcvd.done():
                limit.slow_requests_cut += 1
                self.transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            limit.leave(self.address)
            super().connection_lost(exc)

    return Guarded


def refused_for_count(limit: ConnectionGuard, connection: Any) -> Response | None:
    """The 429 for a connection over its address's limit (None: let it through)."""
    if getattr(connection, "over_limit", False):
        limit.refused += 1
        return refusal(limit.per_address)
    return None
