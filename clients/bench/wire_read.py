"""Why the load generator's connection (clients/python/wire.py) is what it is, measured.

Reads: over a socketpair, one 300-byte message is sent per loop turn and read in a turn of
its own, as at human pace each frame is. A plain Protocol's `recv` asks for its 256 KiB
maximum each read; a BufferedProtocol reads into its own buffer (`recv_into`). Printed: CPU
µs per message (the send, the loop turns and the read), each kind run twice, alternated.
Frames: CPU µs per frame to cut a belief, an event and an ack out of the bytes, by
websockets' Sans-I/O ClientProtocol and by WireConnection.

    .venv/bin/python -m clients.bench.wire_read --messages 20000
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time

SIZE = 300


class Plain(asyncio.Protocol):
    def __init__(self, count: int, done: asyncio.Future[None]) -> None:
        self.count, self.done, self.seen = count, done, 0

    def data_received(self, data: bytes) -> None:
        self.seen += len(data) // SIZE
        if self.seen >= self.count and not self.done.done():
            self.done.set_result(None)


class Buffered(asyncio.BufferedProtocol):
    def __init__(self, count: int, done: asyncio.Future[None]) -> None:
        self.count, self.done, self.seen = count, done, 0
        self.view = memoryview(bytearray(64 * 1024))

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.view

    def buffer_updated(self, nbytes: int) -> None:
        bytes(self.view[:nbytes])  # the copy a frame's payload costs
        self.seen += nbytes // SIZE
        if self.seen >= self.count and not self.done.done():
            self.done.set_result(None)


async def one(kind: type[Plain] | type[Buffered], count: int) -> float:
    """CPU µs per message for `count` messages, one per loop turn."""
    loop = asyncio.get_running_loop()
    ours, theirs = socket.socketpair()
    done: asyncio.Future[None] = loop.create_future()
    transport, _ = await loop.connect_accepted_socket(lambda: kind(count, done), ours)
    theirs.setblocking(False)
    message = b"x" * SIZE

    async def send() -> None:
        for _ in range(count):
            theirs.send(message)
            await asyncio.sleep(0)  # the read gets a turn of its own
            await asyncio.sleep(0)

    started = time.process_time()
    await asyncio.gather(send(), done)
    spent = time.process_time() - started
    transport.close()
    theirs.close()
    return spent / count * 1e6


def frames(rounds: int) -> tuple[float, float]:
    """CPU µs per frame for websockets' ClientProtocol and for WireConnection."""
    from websockets.client import ClientProtocol
    from websockets.frames import Frame
    from websockets.uri import parse_uri
    from websockets.utils import accept_key

    from clients.python.wire import WireConnection
    from protocol.frames import belief_frame, event_frame

    def frame(text: str) -> bytes:
        data = text.encode()
        size = len(data)
        head = bytes((0x81, size)) if size < 126 else bytes((0x81, 126)) + size.to_bytes(2, "big")
        return head + data

    marginals = {f"{a}-{b}": {"W": 0.3, "N": 0.3, "E": 0.4} for a in range(7) for b in range(a, 7)}
    chunk = (frame(belief_frame("t1", {"seq": 12, "observer": "S", "marginals": marginals}))
             + frame(event_frame("t1", 7, {"type": "tile_played", "tile": "6-6"},
                                 [{"tile": "6-5"}, {"tile": "4-4"}]))
             + frame('{"type":"ack","id":"l1-5","seq":7}'))
    theirs = ClientProtocol(parse_uri("ws://h/ws"), max_size=None)
    request = theirs.connect()
    theirs.send_request(request)
    theirs.receive_data(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                        b"Connection: Upgrade\r\nSec-WebSocket-Accept: "
                        + accept_key(request.headers["Sec-WebSocket-Key"]).encode()
                        + b"\r\n\r\n")
    theirs.events_received()
    started = time.process_time()
    for _ in range(rounds):
        theirs.receive_data(chunk)
        for event in theirs.events_received():
            assert isinstance(event, Frame)  # the payload, as a caller reads it
    websockets_us = (time.process_time() - started) / rounds / 3 * 1e6

    async def ours() -> float:
        got: list[bytes] = []
        wire = WireConnection("h", "/", got.append)
        wire.opened.set_result(None)
        started = time.process_time()
        for _ in range(rounds):
            buffer = wire.get_buffer(-1)
            buffer[:len(chunk)] = chunk
            wire.buffer_updated(len(chunk))
            got.clear()
        return (time.process_time() - started) / rounds / 3 * 1e6

    return websockets_us, asyncio.run(ours())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=20000)
    args = parser.parse_args(argv)

    async def run() -> None:
        for kind in (Plain, Buffered, Plain, Buffered):
            print(f"{kind.__name__:<9}{await one(kind, args.messages):7.1f} µs per message")

    asyncio.run(run())
    theirs, ours = frames(args.messages)
    print(f"frames: websockets' ClientProtocol {theirs:.1f} µs, WireConnection {ours:.1f} µs "
          "per frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
