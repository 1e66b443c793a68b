"""The load generator's connection: a WireConnection (clients/python/wire.py) whose frames are
routed in the read that brought them, reading no more of each than the seat needs.

Beliefs (most of the bytes) and events go undecoded to the seat attached (`seat`), which
reads a belief's head and an event's offer itself (clients/python/load_seat.py); a spectator
has no seat, and its frames are dropped unread. The reply to the seat's move in flight goes to
the seat as a dict; replies to the other requests (create, join, watch, leave: a few per
match) wake their caller's future and are read with the protocol's models, as DominoClient
does.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any, Protocol

from clients.python.client import ServerError
from clients.python.wire import WireConnection, WireError, open_wire
from protocol import (
    ClientMessage,
    CreateTable,
    ErrorMessage,
    Join,
    Leave,
    ServerMessage,
    TableCreated,
    Watch,
    parse_server,
)

BELIEF_PREFIX = b'{"type":"belief"'
EVENT_PREFIX = b'{"type":"event"'


class FrameSink(Protocol):
    """What a connection hands its seat: frames as bytes, its move's reply as a dict."""

    move_id: str | None
    """The id of the seat's move awaiting its reply (None: none in flight)."""

    def belief(self, frame: bytes) -> None: ...

    def event(self, frame: bytes) -> None: ...

    def replied(self, reply: dict[str, Any]) -> None: ...

    def lost(self, error: BaseException) -> None: ...


class LoadClient:
    """One connection of a load-test table: a seat's, or a spectator's (no `seat`)."""

    def __init__(self) -> None:
        self.wire: WireConnection | None = None
        self.seat: FrameSink | None = None
        self._pending: dict[str, asyncio.Future[bytes]] = {}
        self._ids = itertools.count(1)
        self._prefix = f"l{id(self) & 0xFFFFFF:x}-"

    @classmethod
    async def connect(cls, url: str) -> LoadClient:
        client = cls()
        client.wire = await open_wire(url, client._received)
        client.wire.lost.add_done_callback(client._lost)
        return client

    def new_id(self) -> str:
        return f"{self._prefix}{next(self._ids)}"

    def _received(self, frame: bytes) -> None:
        seat = self.seat
        if frame.startswith(BELIEF_PREFIX):
            if seat is not None:
                seat.belief(frame)
            return
        if frame.startswith(EVENT_PREFIX):
            if seat is not None:
                seat.event(frame)
            return
        reply = json.loads(frame)
        command_id = reply.get("id") if isinstance(reply, dict) else None
        if command_id is None:
            return  # a push the load test does not read (chat, an error without an id)
        if seat is not None and command_id == seat.move_id:
            seat.replied(reply)
            return
        future = self._pending.pop(command_id, None)
        if future is not None and not future.done():
            future.set_result(frame)

    def _lost(self, _done: asyncio.Future[BaseException | None]) -> None:
        error = ConnectionError("connection closed")
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)
        self._pending.clear()
        if self.seat is not None:
            self.seat.lost(error)

    def send(self, payload: bytes) -> None:
        """One text frame; ConnectionError if the connection is gone."""
        if self.wire is None:
            raise ConnectionError("not connected")
        try:
            self.wire.send(payload)
        except WireError as error:
            raise ConnectionError(str(error)) from error

    def send_move(self, table_id: str, move_id: str, move: dict[str, Any]) -> None:
        """A `move`, its JSON built here (no model to validate and dump per move)."""
        self.send(json.dumps({"type": "move", "id": move_id, "table_id": table_id,
                              "move": move}, separators=(",", ":")).encode())

    async def request(self, message: ClientMessage, timeout: float = 30) -> ServerMessage:
        """Send a command with a fresh id and wait for its reply (ServerError for `error`)."""
        command_id = self.new_id()
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[command_id] = future
        try:
            self.send(message.model_copy(update={"id": command_id})
                      .model_dump_json(exclude_none=True).encode())
        except ConnectionError:
            self._pending.pop(command_id, None)
            raise
        try:
            async with asyncio.timeout(timeout):
                reply = parse_server(await future)
        finally:
            self._pending.pop(command_id, None)
        if isinstance(reply, ErrorMessage):
            raise ServerError(reply)
        return reply

    async def create_table(self, variant: str | None = None, target: int | None = None,
                           options: dict[str, Any] | None = None,
                           bots: dict[str, str] | None = None) -> str:
        reply = await self.request(CreateTable(variant=variant, target=target, bots=bots or {},
                                               options=options or {}))
        assert isinstance(reply, TableCreated)
        return reply.table_id

    async def join(self, table_id: str, seat: str, name: str = "") -> None:
        await self.request(Join(table_id=table_id, seat=seat, name=name))

    async def watch(self, table_id: str) -> None:
        await self.request(Watch(table_id=table_id))

    async def leave(self, table_id: str) -> None:
        await self.request(Leave(table_id=table_id))

    async def close(self) -> None:
        if self.wire is not None:
            await self.wire.close()
