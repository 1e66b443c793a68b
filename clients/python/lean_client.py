"""The load generator's connection: a DominoClient that reads only what a load test needs.

Measured at human pace (issue 31), the generator spent more CPU per move than the server it
measured: every belief frame (most of the bytes) went through json.loads and a pydantic
model, every event through pydantic twice (the message, then the game's event) and a fold
of the seat's state, all to learn a seq and whose turn it is. The server already says that:
an event frame carries, in the seat's own feed only, the seat's legal moves when it is to
act after it (`legal_moves`, server/feeds/fanout.py). So here a belief is read as its table
and seq, from the frame's fixed head (protocol.frames.belief_frame writes `type`,
`table_id`, `seq` first), an event as a plain dict's table, seq, type and offer, and a move
is sent as JSON built by hand. Replies (acks, errors, joins) still go through the
protocol's models, as in DominoClient.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any, cast

from websockets.exceptions import ConnectionClosed

from clients.python.client import DominoClient, ServerError
from protocol import Ack, ErrorMessage, parse_server
from protocol.fields import Reply

_BELIEF_HEAD = re.compile(r'\{"type":"belief","table_id":"((?:[^"\\]|\\.)*)","seq":(\d+)')
_EVENT_PREFIX = '{"type":"event"'
_REPLY_TYPES = frozenset(
    {"table_created", "tables", "joined", "resumed", "watching", "ack", "left", "advice",
     "odds_belief", "chat_message", "error"}
)


@dataclass(slots=True)
class LeanBelief:
    """A belief frame's table and seq (the rest of it is not read)."""

    table_id: str
    seq: int


@dataclass(slots=True)
class LeanEvent:
    """An event frame's table, seq, event type and the seat's offered moves (None: not
    the seat's turn after it)."""

    table_id: str
    seq: int
    type: str
    legal_moves: list[dict[str, Any]] | None


def lean_message(text: str | bytes) -> Any:
    """A frame as a LeanBelief, a LeanEvent, or (anything else) the protocol's model."""
    if isinstance(text, str):
        if text.startswith('{"type":"belief"'):
            head = _BELIEF_HEAD.match(text)
            if head is not None:
                return LeanBelief(json.loads(f'"{head[1]}"'), int(head[2]))
        elif text.startswith(_EVENT_PREFIX):
            data = json.loads(text)
            return LeanEvent(data["table_id"], data["seq"], data["event"].get("type", ""),
                             data.get("legal_moves") or None)
    return parse_server(text)


class LeanClient(DominoClient):
    """DominoClient whose feed holds LeanBelief and LeanEvent for beliefs and events."""

    async def _read(self) -> None:
        feed = cast(asyncio.Queue[Any], self.feed)
        try:
            async for text in self.ws:
                message = lean_message(text)
                command_id = getattr(message, "id", None)
                if (command_id is not None and isinstance(message, Reply)
                        and getattr(message, "type", None) in _REPLY_TYPES):
                    future = self._pending.pop(command_id, None)
                    if future is not None:
                        if not future.done():
                            future.set_result(cast(Any, message))
                        continue
                if self.on_message is not None:
                    self.on_message(message)
                else:
                    feed.put_nowait(message)
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))
            self._pending.clear()

    async def move(self, table_id: str, move: dict[str, Any],
                   id: str | int | None = None) -> Ack:
        """A `move`, its JSON built here (no model to validate and dump per move)."""
        command_id = self.new_id() if id is None else id
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[command_id] = future
        text = json.dumps({"type": "move", "id": command_id, "table_id": table_id,
                           "move": move}, separators=(",", ":"))
        try:
            await self.ws.send(text)
        except ConnectionClosed as error:
            self._pending.pop(command_id, None)
            raise ConnectionError(f"connection closed: {error}") from error
        async with asyncio.timeout(30):
            reply = await future
        if isinstance(reply, ErrorMessage):
            raise ServerError(reply)
        assert isinstance(reply, Ack)
        return reply
