"""The load generator's WebSocket connection (clients/python/wire.py) against websockets' own
server: the handshake, masked frames the server accepts, messages cut from any split of the
stream (fragmented ones reassembled, 16- and 64-bit lengths), pings answered and the closing
handshake completed."""

from __future__ import annotations

import asyncio

from websockets.asyncio.server import ServerConnection, serve

from clients.python.wire import BUFFER, WireConnection, open_wire

BIG = "x" * 70_000  # a 64-bit length
MIDDLE = "é" * 200  # a 16-bit length, and UTF-8


async def test_a_wire_connection_speaks_to_websockets() -> None:
    answered: list[object] = []

    async def handler(ws: ServerConnection) -> None:
        answered.append(await ws.recv())  # the client's masked frame, unmasked by the server
        await ws.send(["frag", "mented"])  # one message in three frames
        await ws.send(MIDDLE)
        await ws.send(BIG)
        pong = await ws.ping(b"hi")
        async with asyncio.timeout(10):
            answered.append(await pong)  # the client answered the ping
        await ws.send(b"\x00binary")
        await ws.wait_closed()

    received: list[bytes] = []
    async with serve(handler, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        wire = await open_wire(f"ws://127.0.0.1:{port}/ws", received.append)
        wire.send(b'{"type":"hello"}')
        async with asyncio.timeout(10):
            while len(received) < 4:
                await asyncio.sleep(0.01)
        await wire.close()
        assert wire.lost.done()  # the server closed the socket after the closing handshake
    assert answered[0] == '{"type":"hello"}' and isinstance(answered[1], float)
    assert received == [b"fragmented", MIDDLE.encode(), BIG.encode(), b"\x00binary"]


def feed(wire: WireConnection, data: bytes) -> None:
    """`data` read as asyncio reads it into a BufferedProtocol (in pieces the buffer takes)."""
    while data:
        buffer = wire.get_buffer(-1)
        piece, data = data[:len(buffer)], data[len(buffer):]
        buffer[:len(piece)] = piece
        wire.buffer_updated(len(piece))


def test_frames_are_cut_from_any_split_of_the_stream() -> None:
    """Bytes arrive in arbitrary pieces: every split of three frames gives the same messages,
    one of them larger than the connection's first buffer."""
    asyncio.run(_splits())


async def _splits() -> None:
    big = b"z" * (BUFFER + 10)
    stream = (bytes((0x81, 5)) + b"hello" + bytes((0x81, 126, 0, 200)) + b"y" * 200
              + bytes((0x82, 127)) + len(big).to_bytes(8, "big") + big)
    for cut in [*range(1, 230), len(stream) - 5]:
        got: list[bytes] = []
        wire = WireConnection("h", "/", got.append)
        wire.opened.set_result(None)  # past the handshake
        feed(wire, stream[:cut])
        feed(wire, stream[cut:])
        assert got == [b"hello", b"y" * 200, big], cut
