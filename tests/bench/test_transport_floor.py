"""The transport-floor bench's bare server writes a move's frames where `serve` would: the ack
to the mover, an event and a belief to every connection of the table, none to another table;
its paced tables count moves and acks. Real WebSocket connections on loopback; nothing is
timed."""

from __future__ import annotations

import argparse
import asyncio
import json
import os

from websockets.asyncio.server import serve

from clients.bench.transport_floor import measure
from clients.bench.transport_floor_server import FloorServer
from clients.python.wire import open_wire


async def test_a_move_writes_an_ack_to_the_mover_and_an_event_and_belief_to_each_seat() -> None:
    floor = FloorServer(events=4, beliefs=4, event_bytes=169, belief_bytes=1541)
    async with serve(floor.handle, "127.0.0.1", 0, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        got: dict[tuple[str, int], list[dict]] = {}
        arrived = asyncio.Event()

        def sink(table: str, seat: int):
            def received(frame: bytes) -> None:
                got.setdefault((table, seat), []).append(json.loads(frame))
                if sum(len(v) for v in got.values()) >= 9:
                    arrived.set()
            return received

        wires = [await open_wire(f"ws://127.0.0.1:{port}/?table={t}&seat={s}", sink(t, s))
                 for t in ("a", "b") for s in range(4)]
        wires[2].send(json.dumps({"type": "play", "id": "m1", "tile": "3-5"}).encode())
        await asyncio.wait_for(arrived.wait(), 10)
        await asyncio.sleep(0.1)  # anything more (there must be nothing) would arrive now
        for wire in wires:
            await wire.close()
    assert not any(table == "b" for table, _ in got)
    kinds = {seat: sorted(f["type"] for f in got[("a", seat)]) for seat in range(4)}
    assert kinds == {0: ["belief", "event"], 1: ["belief", "event"],
                     2: ["ack", "belief", "event"], 3: ["belief", "event"]}
    ack = next(f for f in got[("a", 2)] if f["type"] == "ack")
    assert ack["id"] == "m1"
    beliefs = [f for frames in got.values() for f in frames if f["type"] == "belief"]
    assert sorted(f["seat"] for f in beliefs) == [0, 1, 2, 3]
    assert all(1400 <= len(json.dumps(f)) <= 1600 for f in beliefs)


async def test_paced_tables_take_turns_and_count_their_acks() -> None:
    floor = FloorServer(events=4, beliefs=4, event_bytes=169, belief_bytes=300)
    async with serve(floor.handle, "127.0.0.1", 0, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        args = argparse.Namespace(seed=3, tables=3, pace=0.01, settle=0.2, seconds=0.5)
        figures = await measure(args, f"ws://127.0.0.1:{port}/", os.getpid())
    assert figures["moves_per_s"] > 0
    assert figures["server_ms_per_move"] > 0
    assert figures["ack_p99_ms"] == figures["ack_p99_ms"]  # acks were timed (not NaN)
    assert not floor.tables  # every connection closed and left its table

