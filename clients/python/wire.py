"""A WebSocket client connection as an asyncio BufferedProtocol: frames cut where the bytes
were read, each message handed to a callback as bytes, with no task per connection.

Why not websockets' client: the load generator measured more than a third of the server's
CPU per move (issue 31), and much of it was websockets' per-frame work for the nine frames a
move brings a table's four connections: its Sans-I/O parser (a generator per frame: 5-7 µs a
frame on the shared 2-vCPU machine against 1-2 µs for the loop here) and, in its asyncio
connection, a reader task woken per message. The socket is read into one buffer kept per
connection (`recv_into`), not into a new bytes object per read: a plain Protocol's `recv`
asks for its 256 KiB maximum each time, and its send, loop turn and read of one small
message measured 46-71 µs against 14-30 µs buffered (`python -m clients.bench.wire_read`);
a move brings ~8 reads. This speaks the subset of RFC 6455 a
client needs against this project's server (compression off, no extensions): text and
binary messages (fragmented ones reassembled), pings answered, the closing handshake
echoed; its frames are masked as the RFC asks (websockets' C `apply_mask`). Anything else
the server sends (a reserved bit, a masked frame, an unknown opcode, a message over
`max_size`) closes the connection: it is not this server speaking.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from websockets.uri import parse_uri
from websockets.utils import accept_key, generate_key

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without its C extension
    from websockets.utils import apply_mask

TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0
MAX_HEAD = 16 * 1024
"""Bytes of the server's HTTP handshake answer read at most before giving up."""
BUFFER = 64 * 1024
"""Bytes a connection reads into at a time (grown for a frame that needs more)."""
MIN_ROOM = 4096
"""Free bytes the buffer offers a read at least (it grows when fewer are left)."""


class WireError(ConnectionError):
    """The handshake failed, or the peer broke the protocol."""


class WireConnection(asyncio.BufferedProtocol):
    """One client connection: `opened` resolves after the handshake, each complete message's
    payload goes to `on_message` (bytes, undecoded: the caller reads what it needs), and
    `lost` resolves (with the error, if any) when the socket is gone."""

    def __init__(self, host: str, path: str, on_message: Callable[[bytes], None],
                 max_size: int = 8 * 1024 * 1024) -> None:
        loop = asyncio.get_running_loop()
        self.on_message = on_message
        self.max_size = max_size
        self.opened: asyncio.Future[None] = loop.create_future()
        self.lost: asyncio.Future[BaseException | None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.close_sent = False
        self._host, self._path, self._key = host, path, generate_key()
        self._buffer = bytearray(BUFFER)
        self._view = memoryview(self._buffer)
        self._filled = 0
        """Bytes read and not yet consumed, at the start of the buffer (a frame's head)."""
        self._fragments: list[bytes] | None = None

    # -- asyncio.BufferedProtocol --------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(
            f"GET {self._path} HTTP/1.1\r\nHost: {self._host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self._key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode())

    def get_buffer(self, sizehint: int) -> memoryview:
        if len(self._buffer) - self._filled < MIN_ROOM:
            self._grow(2 * len(self._buffer))
        return self._view[self._filled:]

    def buffer_updated(self, nbytes: int) -> None:
        end = self._filled + nbytes
        start = 0
        if not self.opened.done():
            start = self._handshake(end)
            if start < 0:
                self._filled = end
                return
        consumed = self._frames(start, end)
        if 0 < consumed < end:  # a frame's beginning: moved to the buffer's start
            self._buffer[:end - consumed] = bytes(self._view[consumed:end])
        self._filled = end - consumed

    def connection_lost(self, exc: Exception | None) -> None:
        error = exc or WireError("connection closed")
        if not self.opened.done():
            self.opened.set_exception(error)
        if not self.lost.done():
            self.lost.set_result(exc)

    # -- sending ---------------------------------------------------------------------------

    def send(self, payload: bytes, opcode: int = TEXT) -> None:
        """One masked frame (FIN set); raises WireError once the connection is closing."""
        transport = self.transport
        if transport is None or self.close_sent or transport.is_closing():
            raise WireError("connection closed")
        size = len(payload)
        if size < 126:
            head = bytes((0x80 | opcode, 0x80 | size))
        elif size < 65536:
            head = bytes((0x80 | opcode, 0xFE)) + size.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0xFF)) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        transport.write(head + mask + apply_mask(payload, mask))

    async def close(self, timeout: float = 2.0) -> None:
        """The closing handshake (1000), waiting up to `timeout` for the server to close the
        socket, then closing it ourselves."""
        if self.transport is None:
            return
        if not self.close_sent and not self.transport.is_closing():
            self.send((1000).to_bytes(2, "big"), CLOSE)
            self.close_sent = True
        try:
            async with asyncio.timeout(timeout):
                await asyncio.shield(self.lost)
        except TimeoutError:
            pass
        finally:
            self.transport.close()

    # -- receiving -------------------------------------------------------------------------

    def _handshake(self, end: int) -> int:
        """The server's 101 answer checked; returns where the frames after it begin (-1: the
        answer is not all here yet)."""
        stop = self._buffer.find(b"\r\n\r\n", 0, end)
        if stop < 0:
            if end > MAX_HEAD:
                self._fail("handshake answer too long")
            return -1
        lines = bytes(self._view[:stop]).decode("latin-1").split("\r\n")
        headers = {name.strip().lower(): value.strip()
                   for name, _, value in (line.partition(":") for line in lines[1:])}
        if not lines[0].startswith("HTTP/1.1 101"):
            self._fail(f"handshake refused: {lines[0]!r}")
        elif headers.get("sec-websocket-accept") != accept_key(self._key):
            self._fail("handshake: wrong Sec-WebSocket-Accept")
        elif headers.get("sec-websocket-extensions"):
            self._fail("handshake: an extension was not asked for")
        else:
            self.opened.set_result(None)
            return stop + 4
        return end  # failed (the connection is aborted): nothing more to read

    def _grow(self, size: int) -> None:
        """A larger buffer, the unconsumed bytes kept at its start."""
        buffer = bytearray(size)
        buffer[:self._filled] = self._view[:self._filled]
        self._buffer, self._view = buffer, memoryview(buffer)

    def _frames(self, pos: int, end: int) -> int:
        """Every complete frame in the buffer from `pos` to `end`; returns where the first
        incomplete one begins (it waits for the next read)."""
        data, view = self._buffer, self._view
        while end - pos >= 2:
            first, second = data[pos], data[pos + 1]
            size, head = second & 0x7F, pos + 2
            if size == 126:
                if end - head < 2:
                    break
                size, head = (data[head] << 8) | data[head + 1], head + 2
            elif size == 127:
                if end - head < 8:
                    break
                size, head = int.from_bytes(view[head:head + 8], "big"), head + 8
            if second & 0x80 or first & 0x70 or size > self.max_size:
                self._fail("a masked frame, a reserved bit or a frame over max_size")
                return end
            stop = head + size
            if stop > end:  # (a frame larger than the buffer: get_buffer grows it)
                break
            payload, pos = bytes(view[head:stop]), stop
            opcode = first & 0x0F
            if opcode in (TEXT, BINARY):
                if first & 0x80:
                    self.on_message(payload)
                else:
                    self._fragments = [payload]
            elif opcode == CONTINUATION and self._fragments is not None:
                self._fragments.append(payload)
                if sum(map(len, self._fragments)) > self.max_size:  # before it is all here
                    self._fail("a message over max_size")
                    return end
                if first & 0x80:
                    message, self._fragments = b"".join(self._fragments), None
                    self.on_message(message)
            elif opcode == PING:
                if not self.close_sent:
                    self.send(payload, PONG)
            elif opcode == CLOSE:
                if not self.close_sent:  # echo its code; the server then closes the socket
                    self.send(payload[:2], CLOSE)
                    self.close_sent = True
            elif opcode != PONG:
                self._fail(f"unexpected opcode {opcode}")
                return end
        return pos

    def _fail(self, reason: str) -> None:
        error = WireError(reason)
        if not self.opened.done():
            self.opened.set_exception(error)
        if self.transport is not None:
            self.transport.abort()


async def open_wire(url: str, on_message: Callable[[bytes], None],
                    max_size: int = 8 * 1024 * 1024, timeout: float = 30.0) -> WireConnection:
    """A WireConnection to `url` (ws:// or wss://), handshake done."""
    uri = parse_uri(url)
    loop = asyncio.get_running_loop()
    host = uri.host if uri.port in (80, 443) else f"{uri.host}:{uri.port}"
    _, wire = await loop.create_connection(
        lambda: WireConnection(host, uri.resource_name, on_message, max_size),
        uri.host, uri.port, ssl=True if uri.secure else None)
    try:
        async with asyncio.timeout(timeout):
            await wire.opened
    except BaseException:
        if wire.transport is not None:
            wire.transport.abort()
        raise
    return wire
