"""The bare transport of a move, as a server: the floor under `serve`'s CPU per move.

A WebSocket server with `serve`'s settings (websockets, compression off; keepalive pings
every PING_SECONDS by websockets' own task per connection, what `serve` ran before
server/keepalive.py, or none) that does
for each frame it reads only what no server of this protocol can skip: read the frame
(websockets' reader, as `Session.run` does), parse its JSON, then write the move's frames the
way `server/outbox.py` writes them when a socket can take them at once (each encoded, framed
and handed to the transport, one write per frame): an ack to the mover, the event to each of
the table's connections, a belief to each. No game, no store, no inference. Run by
`domino-oracle bench transport-floor` (clients/bench/transport_floor.py), which starts it as
its own process: `python -m clients.bench.transport_floor_server PORT EVENTS BELIEFS
EVENT_BYTES BELIEF_BYTES PING_SECONDS` (0: no keepalive pings).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, serve

from server.outbox import text_frame

SEATS = 4


def padded(frame: dict[str, object], size: int) -> str:
    """`frame` as JSON, padded with a filler field to about `size` bytes (the size of the
    real frame it stands for)."""
    text = json.dumps(frame)
    return json.dumps({**frame, "pad": "x" * max(0, size - len(text) - 10)})


class FloorServer:
    """Connections by table and seat (from the URL's query), and the move's writes."""

    def __init__(self, events: int, beliefs: int, event_bytes: int, belief_bytes: int) -> None:
        self.events = events
        self.beliefs = beliefs
        self.event_bytes = event_bytes
        self.belief_frames = [padded({"type": "belief", "seat": seat}, belief_bytes)
                              for seat in range(SEATS)]
        self.tables: dict[str, list[ServerConnection | None]] = {}
        self.seq = itertools.count(1)

    async def handle(self, ws: ServerConnection) -> None:
        query = parse_qs(urlsplit(ws.request.path if ws.request else "").query)
        table, seat = query["table"][0], int(query["seat"][0]) % SEATS
        members = self.tables.setdefault(table, [None] * SEATS)
        members[seat] = ws
        try:
            async for text in ws:
                self.move(ws, table, members, json.loads(text))
        finally:
            members[seat] = None
            if not any(members):
                self.tables.pop(table, None)

    def move(self, mover: ServerConnection, table: str,
             members: list[ServerConnection | None], command: dict[str, object]) -> None:
        seq = next(self.seq)
        write(mover, json.dumps({"type": "ack", "id": command.get("id"), "seq": seq}))
        event = padded({"type": "event", "table_id": table, "seq": seq,
                        "event": {"type": "tile_played", "tile": command.get("tile")}},
                       self.event_bytes)
        for peer in itertools.islice((m for m in members if m is not None), self.events):
            write(peer, event)
        for peer, belief in itertools.islice(
                ((m, b) for m, b in zip(members, self.belief_frames, strict=True)
                 if m is not None), self.beliefs):
            write(peer, belief)


def write(ws: ServerConnection, frame: str) -> None:
    """One frame to the transport now, as Outbox._write_now does for a writable socket."""
    ws.transport.write(text_frame(frame.encode()))


async def main(port: int, events: int, beliefs: int, event_bytes: int, belief_bytes: int,
               ping_seconds: int) -> None:
    floor = FloorServer(events, beliefs, event_bytes, belief_bytes)
    ping = float(ping_seconds) or None
    async with serve(floor.handle, "127.0.0.1", port, compression=None, max_queue=64,
                     ping_interval=ping, ping_timeout=ping) as server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(*(int(a) for a in sys.argv[1:7])))
