"""The transport's floor: what one paced move costs a server that only reads and writes frames.

Issue 31 asks `serve` (server and inference together) for 0.5 ms of CPU per move at human
pace. This measures the part of it no change to the game, the store or the inference can
remove while the protocol and its stack stay: a bare server (transport_floor_server.py, its
own process) that reads each move's frame and writes the move's frames (an ack, an event and
a belief to each of the table's four connections: the frames a partnership-6 move brings, with
their sizes measured from a real table), with `serve`'s WebSocket settings. The load is paced
as `loadtest --pace`: every table's seats take turns, each thinking a seeded exponential time,
over the load test's own client (clients/python/wire.py). Printed: moves/s, play -> ack p99,
and the server's CPU per move over the window (its threads' time on a CPU, /proc schedstat),
beside the generator's.

    domino-oracle bench transport-floor --tables 2500 --pace 3 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from clients.python.loadtest import free_port, percentile, process_cpu_seconds
from clients.python.wire import WireConnection, open_wire

SEATS = 4
WAVE = 200
"""Connections opened at once while seating (the server's backlog stays short)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=1000, help="tables of four connections")
    parser.add_argument("--pace", type=float, default=3.0,
                        help="mean think time per move, seconds (exponential)")
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured window")
    parser.add_argument("--settle", type=float, default=None,
                        help="seconds of play before the window (default: twice the pace)")
    parser.add_argument("--events", type=int, default=SEATS,
                        help="event frames a move writes (one per connection of the table)")
    parser.add_argument("--beliefs", type=int, default=SEATS,
                        help="belief frames a move writes (one per seat)")
    parser.add_argument("--event-bytes", type=int, default=169,
                        help="an event frame's size (partnership-6's mean, measured)")
    parser.add_argument("--belief-bytes", type=int, default=1541,
                        help="a belief frame's size (partnership-6's mean, measured)")
    parser.add_argument("--ping-interval", type=int, default=20,
                        help="seconds between websockets' keepalive pings per connection "
                        "(serve's before server/keepalive.py pinged quiet ones only; 0: none)")
    parser.add_argument("--seed", type=int, default=1)


class PacedTable:
    """Four connections taking turns: think, send a move on the seat to play, wait its ack."""

    def __init__(self, index: int, rng: random.Random, pace: float) -> None:
        self.index = index
        self.rng = rng
        self.pace = pace
        self.wires: list[WireConnection] = []
        self.waiting: asyncio.Future[None] | None = None
        self.acks: list[float] = []
        self.moves = 0

    def received(self, frame: bytes) -> None:
        waiting = self.waiting
        if frame.startswith(b'{"type": "ack"') and waiting is not None and not waiting.done():
            waiting.set_result(None)

    async def seat(self, url: str) -> None:
        for seat in range(SEATS):
            self.wires.append(await open_wire(f"{url}?table=t{self.index}&seat={seat}",
                                              self.received))

    async def play(self) -> None:
        loop = asyncio.get_running_loop()
        turn = 0
        while True:
            await asyncio.sleep(self.rng.expovariate(1 / self.pace))
            self.waiting = loop.create_future()
            started = time.perf_counter()
            command = {"type": "play", "id": f"m{turn}", "table_id": f"t{self.index}",
                       "tile": "3-5", "end": "left"}
            self.wires[turn % SEATS].send(json.dumps(command).encode())
            await self.waiting
            self.acks.append(time.perf_counter() - started)
            self.moves += 1
            turn += 1

    async def close(self) -> None:
        for wire in self.wires:
            await wire.close()


async def measure(args: argparse.Namespace, url: str, server_pid: int) -> dict[str, float]:
    """Seat the tables, let them play `settle` seconds, then read the server's and this
    process's CPU over a window of `seconds`: the figures of the moves acked within it."""
    rng = random.Random(args.seed)
    tables = [PacedTable(i, random.Random(rng.getrandbits(64)), args.pace)
              for i in range(args.tables)]
    for start in range(0, len(tables), WAVE // SEATS):
        await asyncio.gather(*(t.seat(url) for t in tables[start:start + WAVE // SEATS]))
    players = [asyncio.create_task(t.play()) for t in tables]
    await asyncio.sleep(args.pace * 2 if args.settle is None else args.settle)
    me = [os.getpid()]
    for t in tables:
        t.acks.clear()
    moves0 = sum(t.moves for t in tables)
    server0, mine0, wall0 = process_cpu_seconds([server_pid]), process_cpu_seconds(me), \
        time.perf_counter()
    await asyncio.sleep(args.seconds)
    server1, mine1, wall1 = process_cpu_seconds([server_pid]), process_cpu_seconds(me), \
        time.perf_counter()
    moves = sum(t.moves for t in tables) - moves0
    acks = [a for t in tables for a in t.acks]
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    await asyncio.gather(*(t.close() for t in tables), return_exceptions=True)
    elapsed = wall1 - wall0
    return {"moves_per_s": moves / elapsed,
            "ack_p99_ms": percentile(acks, 0.99) * 1e3 if acks else float("nan"),
            "server_ms_per_move": (server1 - server0) / max(1, moves) * 1e3,
            "server_core_share": (server1 - server0) / elapsed,
            "generator_ms_per_move": (mine1 - mine0) / max(1, moves) * 1e3}


def run(args: argparse.Namespace) -> int:
    port = free_port()
    root = Path(__file__).resolve().parents[2]
    server = subprocess.Popen(
        [sys.executable, "-m", "clients.bench.transport_floor_server", str(port),
         str(args.events), str(args.beliefs), str(args.event_bytes), str(args.belief_bytes),
         str(args.ping_interval)],
        cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    try:
        url = f"ws://127.0.0.1:{port}/"
        deadline = time.monotonic() + 20
        while True:  # wait until it listens
            try:
                asyncio.run(_probe(url))
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the floor server did not start") from None
                time.sleep(0.2)
        figures = asyncio.run(measure(args, url, server.pid))
    finally:
        server.terminate()
        server.wait(10)
    frames = 1 + args.events + args.beliefs
    pings = f"pings every {args.ping_interval} s" if args.ping_interval else "no pings"
    print(f"transport floor: {args.tables} paced tables ({args.tables * SEATS} connections), "
          f"think {args.pace} s; a move = 1 frame read, {frames} written "
          f"(ack, {args.events} x {args.event_bytes} B events, {args.beliefs} x "
          f"{args.belief_bytes} B beliefs); {pings}; window "
          f"{args.seconds:.0f} s; load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"  moves/s {figures['moves_per_s']:.1f}   play->ack p99 {figures['ack_p99_ms']:.1f} ms"
          f"   server CPU per move {figures['server_ms_per_move']:.3f} ms "
          f"({figures['server_core_share']:.1%} of a core)   generator "
          f"{figures['generator_ms_per_move']:.3f} ms per move")
    return 0


async def _probe(url: str) -> None:
    wire = await open_wire(f"{url}?table=probe&seat=0", lambda _frame: None, timeout=2)
    await wire.close()
