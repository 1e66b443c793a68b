"""Table chat: every connection attached to a table (its seats and its spectators) says
plain-text lines to all the others, within limits, and a connection attaching is sent the
latest lines.

- `ChatDesk`, one per server: each table's room (its latest lines, the connections
  listening, the next seq of its `chat:<table>` stream), and a token bucket per address.
- `ChatMember`, one per connection: the tables it listens at, under which name, and its own
  token bucket. The Session makes one and calls `enter` after an attach, `leave` at a
  detach and `say` for a `chat` message.

A line is cleaned (protocol.chat.clean_chat_text), checked against both buckets, appended
to the table's chat stream (durable before anyone sees it), then sent to every listener:
to its speaker as the reply to their `chat`, with its id. Chat is public to the table and
says nothing the table does not already show: a seat's display name, or "Spectator k".

In a cluster, the lines reach the connections on the same server (each server has its own
rooms); every line is stored all the same.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from archive.chat import chat_record, line_of, read_chat
from archive.streams import chat_stream
from archive.tables import read_table
from protocol import (
    CHAT_HISTORY,
    MAX_CHAT_CHARS,
    Chat,
    ChatHistory,
    ChatLine,
    ChatMessage,
    ProtocolError,
    clean_chat_text,
)
from server.logs import log
from server.ratelimit import AddressBuckets, TokenBucket
from storage import AsyncEventStore, ConcurrencyConflict

Send = Callable[[str], None]


@dataclass(frozen=True)
class ChatLimits:
    """How much one may say (docs/security.md, "Chat")."""

    max_chars: int = MAX_CHAT_CHARS
    history: int = CHAT_HISTORY
    """Lines sent to a connection as it attaches."""
    per_connection_rate: float = 0.5
    """Lines per second one connection may keep saying (one every two seconds)..."""
    per_connection_burst: float = 5.0
    """...after a burst of this many."""
    per_address_rate: float = 1.0
    """Lines per second all the connections of one IP address may keep saying..."""
    per_address_burst: float = 10.0
    """...after a burst of this many."""


@dataclass
class Room:
    """One table's chat on this server."""

    table_id: str
    last_seq: int
    """The chat stream's last seq as this server wrote or read it."""
    lines: deque[ChatLine]
    listeners: dict[int, Send] = field(default_factory=dict)
    spectators: int = 0
    """Spectators numbered so far ("Spectator k")."""
    names: dict[str, str] = field(default_factory=dict)
    """Seat -> display name, as stored in the seat claims (read once, again for a new seat)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One append at a time: each takes the next seq."""


class ChatDesk:
    """The chat of every table on this server (see the module docstring)."""

    def __init__(self, store: AsyncEventStore, limits: ChatLimits | None = None) -> None:
        self.store = store
        self.limits = limits or ChatLimits()
        self.addresses = AddressBuckets(self.limits.per_address_rate,
                                        self.limits.per_address_burst)
        self.rooms: dict[str, Room] = {}
        self._next_key = 0

    async def room(self, table_id: str) -> Room:
        """The table's room, its latest lines read from the store the first time."""
        found = self.rooms.get(table_id)
        if found is not None:
            return found
        last, stored = await asyncio.to_thread(self._load, table_id)
        found = self.rooms.get(table_id)  # another connection loaded it meanwhile
        if found is None:
            lines = deque((ChatLine(**line) for line in stored), maxlen=self.limits.history)
            found = self.rooms[table_id] = Room(table_id, last, lines)
            found.spectators = max((_spectator_number(line) for line in lines), default=0)
        return found

    def _load(self, table_id: str) -> tuple[int, list[dict[str, object]]]:
        store = self.store.store
        return (store.last_seq(chat_stream(table_id)),
                read_chat(store, table_id, self.limits.history))

    async def seat_name(self, room: Room, seat: str) -> str:
        """A seat's display name as its claim stored it (the seat itself if none), read
        from the store when the room does not know it yet (a seat claimed since)."""
        if seat not in room.names:
            stored = await asyncio.to_thread(read_table, self.store.store, room.table_id)
            claims = stored.latest_claims() if stored is not None else {}
            room.names.update({s: str(c.get("name") or s) for s, c in claims.items()})
        return room.names.get(seat, seat)

    def listen(self, room: Room, send: Send) -> tuple[Room, int, Callable[[], None]]:
        """Send the table's future lines to `send` until the returned call (with the room
        listened at and the key that names this listener); the room is dropped (its lines
        stay stored) when nobody listens any more.

        The room listened at is the table's room now: `room`, put back if its last listener
        dropped it while this connection was entering, or the one another connection has
        loaded since. One room per table, or the table's chat would be split in two."""
        room = self.rooms.setdefault(room.table_id, room)
        self._next_key += 1
        key = self._next_key
        room.listeners[key] = send

        def stop() -> None:
            room.listeners.pop(key, None)
            self.let_go(room)

        return room, key, stop

    def let_go(self, room: Room) -> None:
        """Drop `room` if nobody listens at it (also an entry that stopped half-way)."""
        if not room.listeners and self.rooms.get(room.table_id) is room:
            del self.rooms[room.table_id]

    async def post(self, room: Room, seat: str | None, name: str, text: str,
                   speaker: int, command_id: str | int | None) -> ChatLine:
        """Store the line, then send it to every listener (to the listener `speaker` as the
        reply, with its id)."""
        record = chat_record(seat, name, text, round(time.time(), 3))
        stream = chat_stream(room.table_id)
        async with room.lock:
            try:
                stored = await self.store.append(stream, room.last_seq, [record])
            except ConcurrencyConflict:  # another server wrote (a cluster): once more
                room.last_seq = await self.store.last_seq(stream)
                stored = await self.store.append(stream, room.last_seq, [record])
            room.last_seq = stored[-1].seq
        line = ChatLine(**line_of(stored[-1].payload))
        room.lines.append(line)
        frame = ChatMessage(table_id=room.table_id, line=line).model_dump_json()
        for key, send in list(room.listeners.items()):
            if key != speaker:
                send(frame)
        own = room.listeners.get(speaker)
        if own is not None:
            own(ChatMessage(id=command_id, table_id=room.table_id, line=line).model_dump_json())
        return line


def _spectator_number(line: ChatLine) -> int:
    """k of a stored "Spectator k" line (0 for a seat's)."""
    number = line.name.removeprefix("Spectator ")
    return int(number) if line.seat is None and number.isdigit() else 0


@dataclass
class _Seat:
    """Where a connection listens: its room, the name it speaks under, how to stop."""

    room: Room
    seat: str | None
    name: str
    key: int
    stop: Callable[[], None]


class ChatMember:
    """One connection's chat: the tables it may speak at, and its token bucket."""

    def __init__(self, desk: ChatDesk, address: str, send: Send) -> None:
        self.desk = desk
        self.address = address
        self.send = send
        limits = desk.limits
        self.bucket = TokenBucket(limits.per_connection_rate, limits.per_connection_burst)
        self.tables: dict[str, _Seat] = {}
        self._entering: dict[str, object] = {}
        """The attach being set up per table; a `leave` meanwhile cancels it."""

    async def enter(self, table_id: str, audience: str) -> None:
        """Listen at the table as `audience` (a seat, or "spectator"), and be sent its
        latest lines (`chat_history`, when there are any)."""
        self.leave(table_id)
        marker = self._entering[table_id] = object()
        seat = None if audience == "spectator" else audience
        room: Room | None = None
        try:
            room = await self.desk.room(table_id)
            name = await self.desk.seat_name(room, seat) if seat is not None else ""
        except Exception as error:  # the table is theirs all the same, without its chat
            log("chat_unavailable", table=table_id, error=repr(error)[:200])
            self._entering.pop(table_id, None)
            if room is not None:
                self.desk.let_go(room)  # loaded for nobody: not kept
            return
        if self._entering.get(table_id) is not marker:
            self.desk.let_go(room)
            return  # left (or attached again) while the room was read
        del self._entering[table_id]
        room, key, stop = self.desk.listen(room, self.send)
        if seat is None:
            room.spectators += 1
            name = f"Spectator {room.spectators}"
        self.tables[table_id] = _Seat(room, seat, name, key, stop)
        if room.lines:  # a table nobody talked at sends nothing new (old clients see no change)
            self.send(ChatHistory(table_id=table_id, lines=list(room.lines)).model_dump_json())

    def leave(self, table_id: str) -> None:
        self._entering.pop(table_id, None)
        found = self.tables.pop(table_id, None)
        if found is not None:
            found.stop()

    def leave_all(self) -> None:
        for table_id in list(self.tables):
            self.leave(table_id)
        self._entering.clear()

    async def say(self, message: Chat) -> None:
        """A `chat` message: cleaned, limited, stored, sent to the table."""
        here = self.tables.get(message.table_id)
        if here is None:
            raise ProtocolError("unauthorized", "join, resume or watch this table to chat "
                                                "at it")
        text = clean_chat_text(message.text, self.desk.limits.max_chars)
        if not self.bucket.take():
            raise ProtocolError("rate_limited", "chat: too many lines from this connection; "
                                                "wait a few seconds")
        if not self.desk.addresses.take(self.address):
            raise ProtocolError("rate_limited", "chat: too many lines from your address; "
                                                "wait a few seconds")
        await self.desk.post(here.room, here.seat, here.name, text, here.key, message.id)
