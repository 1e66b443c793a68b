"""One connection's ordered, bounded outbox: frames written to the socket at once when it
can take them, queued (in order, counted in bytes) when it cannot.

Profiled at 50 busy tables (docs/profiles/one-process-50-tables-n1-before.txt), sending was the
largest cost left on the event loop: nine frames a move, and each went through an
asyncio.Queue, a wake-up of the connection's writer task, websockets' `send` (an async
context manager and a drain) and then the socket. When nothing is queued before it and the
transport is not paused (its buffer under websockets' high-water mark), a frame now goes
straight through the connection's protocol to the transport, in the caller's turn: the
same WebSocket frame, in the same order, with no task wake-up. Otherwise it waits in the
queue, which the writer task sends with websockets' own `send` (and its flow control) in
order; every later frame queues behind it until the queue is empty again. So the bytes
held per connection stay bounded as before: the transport's buffer up to the high-water
mark (plus one frame), the queue up to `limit` bytes.

Bytes alone do not cut a reader that stops reading when little is queued for it: a frame the
writer task cannot hand to the socket within `send_timeout` seconds (the peer's window stays
shut) calls `on_stall`, which cuts the connection off (server/session.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections import deque
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State


class Outbox:
    """Frames for one WebSocket connection, in order; `put` returns False past `limit`."""

    def __init__(self, ws: ServerConnection, limit: int, send_timeout: float | None = None,
                 on_stall: Callable[[], None] | None = None) -> None:
        self.ws = ws
        self.limit = limit
        self.send_timeout = send_timeout
        self.on_stall = on_stall
        self.queued: deque[str] = deque()
        self.queued_bytes = 0
        """Bytes (characters: frames are mostly ASCII) queued, not yet written."""
        self._wake = asyncio.Event()
        self._busy = False
        """The writer task is sending: every frame queues behind what it holds."""
        self._stopping = False

    def put(self, frame: str) -> bool:
        """Send `frame` after everything put before it; False (nothing queued) if it would
        take the queue past `limit` bytes."""
        if not self.queued and not self._busy and self._writable():
            self._write_now(frame)
            return True
        if self.queued_bytes + len(frame) > self.limit:
            return False
        self.queued_bytes += len(frame)
        self.queued.append(frame)
        self._wake.set()
        return True

    def drop(self) -> None:
        """Forget what is queued (a reader cut off) and let the writer task end."""
        self.queued.clear()
        self.queued_bytes = 0
        self.stop()

    def stop(self) -> None:
        """The writer task sends what is queued, then ends."""
        self._stopping = True
        self._wake.set()

    def _writable(self) -> bool:
        """Open, not paused by flow control, no fragmented message under way. Attributes a
        websockets release may lack count as "not writable": the frame then queues and
        goes through `send`, as before."""
        ws = self.ws
        return (ws.protocol.state is State.OPEN and not getattr(ws, "paused", True)
                and getattr(ws, "send_in_progress", None) is None
                and getattr(ws, "fragmented_send_waiter", None) is None
                and not ws.protocol.expect_continuation_frame
                and not ws.transport.is_closing())

    def _write_now(self, frame: str) -> None:
        """The frame to the transport, now: what websockets' `send` does inside its send
        context, without the awaits. With no extension negotiated (the server turns
        compression off) and nothing of the protocol's waiting, the frame's bytes are
        built here (text_frame: the same bytes, without websockets' Frame object); else
        they go through the protocol."""
        ws = self.ws
        protocol = ws.protocol
        try:
            if not protocol.extensions and not getattr(protocol, "writes", True):
                ws.transport.write(text_frame(frame.encode()))
            else:
                protocol.send_text(frame.encode())
                ws.send_data()
        except Exception:  # the transport failed under us: end the connection, as send would
            with contextlib.suppress(Exception):
                ws.transport.abort()

    async def run(self) -> None:
        """The writer task: send queued frames in order with websockets' `send` (it waits
        for the transport to drain, and raises ConnectionClosed once the socket is gone)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            self._busy = True
            try:
                while self.queued:
                    frame = self.queued.popleft()
                    self.queued_bytes -= len(frame)
                    try:
                        async with asyncio.timeout(self.send_timeout):
                            await self.ws.send(frame)
                    except TimeoutError:
                        if self.on_stall is not None:
                            self.on_stall()
                        return
            finally:
                self._busy = False
            if self._stopping:
                return


def text_frame(data: bytes) -> bytes:
    """An unmasked, final, uncompressed WebSocket text frame (RFC 6455 5.2), as a server
    sends it: the bytes websockets' Frame(TEXT, data).serialize(mask=False) makes."""
    length = len(data)
    if length < 126:
        return struct.pack("!BB", 0x81, length) + data
    if length < 65536:
        return struct.pack("!BBH", 0x81, 126, length) + data
    return struct.pack("!BBQ", 0x81, 127, length) + data
