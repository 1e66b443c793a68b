"""DominoClient: one WebSocket connection speaking docs/protocol.md, with typed messages.

Requests get an id and wait for the reply carrying it; everything else (events, beliefs,
errors without an id) goes to `feed`, in arrival order, or to `on_message` if set.
Messages are parsed with the wire's own pydantic models (the protocol package).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol import (
    Ack,
    AdviceMessage,
    Advise,
    BeliefMessage,
    Chat,
    ChatMessage,
    ClientMessage,
    CreateTable,
    ErrorMessage,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    MoveCommand,
    Pass,
    Play,
    Resume,
    Resumed,
    ServerMessage,
    TableCreated,
    Tables,
    Watch,
    Watching,
    parse_server,
)
from protocol.fields import Reply

_BELIEF_PREFIX = '{"type":"belief"'
_REPLY_TYPES = frozenset(
    {"table_created", "tables", "joined", "resumed", "watching", "ack", "left", "advice",
     "odds_belief", "chat_message", "error"}
)


class ServerError(Exception):
    """The server answered a request with `error`. (A dead connection: ConnectionError.)"""

    def __init__(self, message: ErrorMessage) -> None:
        super().__init__(f"{message.code}: {message.message}")
        self.code = message.code
        self.message = message.message
        self.reply = message


class DominoClient:
    def __init__(self, ws: ClientConnection, trust_beliefs: bool = False) -> None:
        self.ws = ws
        self.trust_beliefs = trust_beliefs
        """Take belief frames as the server sent them, unvalidated (the load generator's
        choice: it measures the server, and a belief is most of the bytes it receives)."""
        self.feed: asyncio.Queue[ServerMessage] = asyncio.Queue()
        self.on_message: Callable[[ServerMessage], None] | None = None
        self._pending: dict[Any, asyncio.Future[ServerMessage]] = {}
        self._ids = itertools.count(1)
        self._prefix = f"c{id(self) & 0xFFFFFF:x}-"
        self._reader = asyncio.create_task(self._read())
        self.closed = asyncio.Event()

    @classmethod
    async def connect(cls, url: str, trust_beliefs: bool = False, **kwargs: Any) -> DominoClient:
        kwargs.setdefault("compression", None)
        kwargs.setdefault("max_size", 8 * 1024 * 1024)
        return cls(await connect(url, **kwargs), trust_beliefs)

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._reader, timeout=2)

    async def __aenter__(self) -> DominoClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # -- plumbing ------------------------------------------------------------------------

    def new_id(self) -> str:
        return f"{self._prefix}{next(self._ids)}"

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message: ServerMessage
                if (self.trust_beliefs and isinstance(text, str)
                        and text.startswith(_BELIEF_PREFIX)):
                    message = BeliefMessage.model_construct(**json.loads(text))
                else:
                    message = parse_server(text)
                if (isinstance(message, Reply) and message.type in _REPLY_TYPES
                        and message.id is not None):
                    future = self._pending.pop(message.id, None)
                    if future is not None:
                        if not future.done():
                            future.set_result(message)
                        continue
                if self.on_message is not None:
                    self.on_message(message)
                else:
                    self.feed.put_nowait(message)
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))
            self._pending.clear()

    async def send_raw(self, text: str | bytes) -> None:
        try:
            await self.ws.send(text)
        except ConnectionClosed as error:
            raise ConnectionError(f"connection closed: {error}") from error

    async def request(self, message: ClientMessage, timeout: float | None = 30) -> ServerMessage:
        """Send a command (an id is added if it has none) and wait for its reply."""
        if message.id is None:
            message = message.model_copy(update={"id": self.new_id()})
        future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self._pending[message.id] = future
        try:
            await self.ws.send(message.model_dump_json(exclude_none=True))
        except ConnectionClosed as error:
            self._pending.pop(message.id, None)
            raise ConnectionError(f"connection closed: {error}") from error
        reply = await asyncio.wait_for(future, timeout)
        if isinstance(reply, ErrorMessage):
            raise ServerError(reply)
        return reply

    async def next_message(self, timeout: float | None = 10) -> ServerMessage:
        """The next message, or TimeoutError after `timeout` seconds. `asyncio.timeout`, not
        `wait_for`: no Task per call (a paced load test's seats wait this way over a
        thousand times a second)."""
        async with asyncio.timeout(timeout):
            return await self.feed.get()

    # -- the protocol --------------------------------------------------------------------

    async def create_table(
        self,
        variant: str | None = None,
        target: int | None = None,
        bots: dict[str, str] | None = None,
        **extra: Any,
    ) -> str:
        reply = await self.request(
            CreateTable(variant=variant, target=target, bots=bots or {}, **extra)
        )
        assert isinstance(reply, TableCreated)
        return reply.table_id

    async def list_tables(self) -> Tables:
        reply = await self.request(ListTables())
        assert isinstance(reply, Tables)
        return reply

    async def join(self, table_id: str, seat: str, name: str = "") -> Joined:
        reply = await self.request(Join(table_id=table_id, seat=seat, name=name))
        assert isinstance(reply, Joined)
        return reply

    async def resume(self, table_id: str, token: str, after_seq: int = 0) -> Resumed:
        reply = await self.request(Resume(table_id=table_id, token=token, after_seq=after_seq))
        assert isinstance(reply, Resumed)
        return reply

    async def watch(self, table_id: str, after_seq: int = 0) -> Watching:
        reply = await self.request(Watch(table_id=table_id, after_seq=after_seq))
        assert isinstance(reply, Watching)
        return reply

    async def chat(self, table_id: str, text: str) -> ChatMessage:
        """Say `text` at a table this connection is attached to; the line as stored."""
        reply = await self.request(Chat(table_id=table_id, text=text))
        assert isinstance(reply, ChatMessage)
        return reply

    async def play(
        self, table_id: str, tile: str, end: str | None = None, id: str | int | None = None
    ) -> Ack:
        reply = await self.request(Play(table_id=table_id, tile=tile, end=end, id=id))
        assert isinstance(reply, Ack)
        return reply

    async def move(self, table_id: str, move: dict[str, Any],
                   id: str | int | None = None) -> Ack:
        """Any game's move, as its `command_to_wire` writes it."""
        reply = await self.request(MoveCommand(table_id=table_id, move=move, id=id))
        assert isinstance(reply, Ack)
        return reply

    async def pass_(self, table_id: str, id: str | int | None = None) -> Ack:
        reply = await self.request(Pass(table_id=table_id, id=id))
        assert isinstance(reply, Ack)
        return reply

    async def advise(self, table_id: str, timeout: float | None = 30,
                     model: str | None = None) -> AdviceMessage:
        """The advisor's estimate of each of this seat's legal moves (its turn only), under
        the uniform belief or, with `model` (e.g. "behaviour:greedy"), that model's."""
        message = Advise(table_id=table_id) if model is None else Advise(table_id=table_id,
                                                                          model=model)
        reply = await self.request(message, timeout)
        assert isinstance(reply, AdviceMessage)
        return reply

    async def leave(self, table_id: str) -> Left:
        reply = await self.request(Leave(table_id=table_id))
        assert isinstance(reply, Left)
        return reply
