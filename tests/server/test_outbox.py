"""The connection outbox (server/outbox.py) over real WebSocket connections on loopback:
frames written in the caller's turn while the socket takes them, queued in order and
bounded in bytes while it does not."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import Frame, Opcode

from server.outbox import Outbox, text_frame
from tests.server.helpers import wait_for

Handler = Callable[[ServerConnection], Awaitable[None]]


@asynccontextmanager
async def one_server(handler: Handler) -> AsyncIterator[str]:
    async with serve(handler, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}"


async def test_a_frame_the_socket_can_take_is_written_in_the_callers_turn() -> None:
    """No writer task runs here: before, every frame waited in a queue for one."""
    done = asyncio.Event()
    queued: list[int] = []

    async def handler(ws: ServerConnection) -> None:
        outbox = Outbox(ws, limit=1_000)
        assert outbox.put('{"n": 1}') and outbox.put('{"n": 2}')
        queued.append(outbox.queued_bytes)
        await done.wait()

    async with one_server(handler) as url, connect(url) as client:
        try:
            got = [await asyncio.wait_for(client.recv(), 5) for _ in range(2)]
        finally:
            done.set()
    assert got == ['{"n": 1}', '{"n": 2}']
    assert queued == [0]


async def test_frames_queue_in_order_behind_a_full_socket_and_the_queue_is_bounded() -> None:
    """A reader that stops: frames go to the socket until its buffers fill, then queue (in
    bytes, up to the limit: put says no past it). Once the socket drains, a frame put while
    others are still queued queues behind them (not written ahead), and the reader gets
    every frame accepted, in order, the written and the queued joined without a gap."""
    frame_size, limit = 20_000, 205_000  # room for the small frames after
    accepted: list[int] = []
    direct = asyncio.Event()
    queued_at_refusal: list[int] = []
    drained, resumed = asyncio.Event(), asyncio.Event()
    peak: list[int] = []

    async def handler(ws: ServerConnection) -> None:
        outbox = Outbox(ws, limit=limit)  # its writer task starts only at the end

        def put(n: int, size: int) -> bool:
            if not outbox.put(f"{n:08d}" + "x" * (size - 8)):
                return False
            accepted.append(n)
            peak.append(outbox.queued_bytes)
            return True

        while put(len(accepted), frame_size):
            if len(accepted) % 20 == 0:
                await asyncio.sleep(0)  # the loop turns: the kernel's buffers fill
        queued_at_refusal.append(len(outbox.queued))
        direct.set()
        await drained.wait()  # the reader took every frame written so far
        await wait_for(lambda: not ws.paused, timeout=10)
        resumed.set()
        for _ in range(3):
            assert put(len(accepted), 100)
        writer = asyncio.create_task(outbox.run())
        outbox.stop()
        await writer

    async with one_server(handler) as url, connect(url, max_queue=1) as client:
        try:
            first = await asyncio.wait_for(client.recv(), 10)  # then none until it refuses
            await asyncio.wait_for(direct.wait(), 30)
            assert max(peak) <= limit and max(peak) > limit - frame_size
            got = [first] + [await asyncio.wait_for(client.recv(), 5)
                             for _ in range(len(accepted) - queued_at_refusal[0] - 1)]
        finally:
            drained.set()
        await asyncio.wait_for(resumed.wait(), 10)
        got += [await asyncio.wait_for(client.recv(), 5)
                for _ in range(queued_at_refusal[0] + 3)]
    assert queued_at_refusal[0] > 0
    assert [int(frame[:8]) for frame in got] == accepted == list(range(len(accepted)))


async def test_a_closed_connection_takes_no_frame_directly() -> None:
    """After the peer is gone, frames queue (and the writer task ends on ConnectionClosed)
    instead of being written to a closed transport."""
    closed = asyncio.Event()
    outcome: list[object] = []

    async def handler(ws: ServerConnection) -> None:
        outbox = Outbox(ws, limit=1_000)
        writer = asyncio.create_task(outbox.run())
        await ws.wait_closed()
        outbox.put('{"late": true}')
        outcome.append(outbox.queued_bytes)
        await wait_for(writer.done, timeout=5)
        outcome.append(type(writer.exception()).__name__)
        closed.set()

    async with one_server(handler) as url:
        async with connect(url):
            pass
        await asyncio.wait_for(closed.wait(), 10)
    assert outcome[0] == len('{"late": true}')
    assert outcome[1] in ("ConnectionClosedOK", "ConnectionClosedError")


def test_a_text_frame_is_the_bytes_websockets_makes() -> None:
    """Every length encoding (7-bit, 16-bit, 64-bit) and non-ASCII text."""
    for text in ("", "x" * 125, "x" * 126, "é" * 70, "y" * 65535, "z" * 65536, "{\"n\": 1}"):
        data = text.encode()
        assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False)
