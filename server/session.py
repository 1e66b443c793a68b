"""One WebSocket connection: read, check limits, validate, dispatch, and an ordered outbox.

Everything the connection is sent goes through its outbox queue, drained by one writer
task, so replies, events and beliefs leave in the order they were produced. A connection
acts only for the seats it joined or resumed (per table); watching gives the spectator feed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from games.interface import RuleViolation
from server.feeds.bus import Envelope, Unsubscribe
from server.logs import log
from server.metrics import Metrics
from server.outbox import Outbox
from server.protocol import (
    MAX_SAFE_INTEGER,
    Ack,
    Advise,
    CreateTable,
    Draw,
    ErrorCode,
    ErrorMessage,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    ListVariants,
    MoveCommand,
    Odds,
    Pass,
    Play,
    ProtocolError,
    Resume,
    Resumed,
    TableCreated,
    Tables,
    Variants,
    Watch,
    Watching,
    move_payload,
    parse_client,
)
from server.ratelimit import BacklogGate, TableQuota, TokenBucket
from server.tables.advice import AdviceDesk, advice_offered
from server.tables.interface import TableHandle
from server.tables.odds import OddsDesk
from server.tables.registry import Registry, settled
from storage import StorageError


@dataclass(frozen=True)
class Limits:
    """What one connection may send and hold: frame size (bytes), a token bucket's rate,
    the bytes queued for it, the tables it may have open (docs/security.md)."""

    max_message: int = 64 * 1024
    rate_per_second: float = 50.0
    rate_burst: float = 100.0
    outbox_bytes: int = 8 * 1024 * 1024
    """Bytes queued for a reader that does not keep up before it is cut off (socket closed)."""
    tables_per_connection: int = 20
    """Unfinished tables one connection may have created."""
    backlog_events_per_token: int = 20
    """A `watch`/`resume` backlog costs one rate token per this many events."""


@dataclass
class Guards:
    """What the connections of one server share: quotas per address, the backlog gate."""

    tables: TableQuota
    backlogs: BacklogGate
    slow_readers_dropped: int = 0


def _peer(ws: ServerConnection) -> str:
    address = ws.remote_address
    return str(address[0]) if isinstance(address, tuple) and address else str(address)


@dataclass
class _Attachment:
    audience: str
    detach: Unsubscribe


def _error(command_id: Any, code: ErrorCode, message: str) -> str:
    return ErrorMessage(id=command_id, code=code, message=message).model_dump_json()


def _too_large(text: str | bytes, limit: int) -> bool:
    """Over the limit in bytes, not characters (a character takes up to 4 in UTF-8)."""
    if isinstance(text, bytes) or len(text) > limit or 4 * len(text) <= limit:
        return len(text) > limit
    return len(text.encode()) > limit


def _guess_id(text: str | bytes) -> Any:
    """The id of a message we could not validate, if it has a usable one (to echo it)."""
    with contextlib.suppress(ValueError, TypeError, RecursionError):
        data = json.loads(text)
        if isinstance(data, dict):
            value = data.get("id")
            if (isinstance(value, str) and 0 < len(value) <= 64) or (
                isinstance(value, int) and not isinstance(value, bool)
                and 0 <= value <= MAX_SAFE_INTEGER
            ):
                return value
    return None


def _explain(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "message"
    return f"{where}: {first.get('msg', 'invalid')}"[:300]


class Session:
    """One connection; it is given the tables, the counters and the limits it uses."""

    def __init__(self, ws: ServerConnection, registry: Registry, advice: AdviceDesk,
                 metrics: Metrics, limits: Limits, guards: Guards | None = None) -> None:
        self.ws = ws
        self.registry = registry
        self.advice = advice
        self.odds = OddsDesk()
        """`odds` requests of this connection (server/tables/odds.py)."""
        self.metrics = metrics
        self.limits = limits
        self.guards = guards or default_guards(registry)
        self.peer = _peer(ws)
        self.outbox = Outbox(ws, limits.outbox_bytes)
        """Written at once while the socket takes them, else queued (server/outbox.py)."""
        self.bucket = TokenBucket(limits.rate_per_second, limits.rate_burst)
        self.attachments: dict[str, _Attachment] = {}
        self.created: set[str] = set()
        """Tables this connection created (pruned to the unfinished ones when it creates)."""
        self.closed = False

    # -- sending -------------------------------------------------------------------------

    def send(self, frame: str) -> None:
        if self.closed:
            return
        if not self.outbox.put(frame):
            self._cut_off()

    @property
    def queued_bytes(self) -> int:
        """Bytes (characters: frames are mostly ASCII) in the outbox, not yet written."""
        return self.outbox.queued_bytes

    def _cut_off(self) -> None:
        """A reader that fell `outbox_bytes` behind: free what is queued, stop its feeds and
        its commands, and close the socket now (not after a close handshake it will not
        read)."""
        log("slow_reader_dropped", peer=self.peer, queued_bytes=self.queued_bytes)
        self.guards.slow_readers_dropped += 1
        self.closed = True
        self.outbox.drop()
        for table_id in list(self.attachments):
            self._detach(table_id)
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            transport.abort()

    def _deliver(self, envelope: Envelope) -> None:
        self.send(envelope.frame)

    # -- the connection's life -----------------------------------------------------------

    async def run(self) -> None:
        self.metrics.connections += 1
        writer = asyncio.create_task(self.outbox.run())
        try:
            async for text in self.ws:
                if self.closed:
                    break  # cut off: nothing it sent after that is run
                await self.handle(text)
                if writer.done():
                    break
        except ConnectionClosed:
            pass
        finally:
            self.metrics.connections -= 1
            self.closed = True
            for table_id in list(self.attachments):
                self._detach(table_id)
            # let the writer flush what is queued, unless the peer is gone
            self.outbox.stop()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, timeout=1.0)
            writer.cancel()

    async def handle(self, text: str | bytes) -> None:
        """Answer one frame; every failure becomes a typed error, never a crash."""
        if self.closed:
            return
        if _too_large(text, self.limits.max_message):
            self.send(_error(None, "too_large", f"messages are limited to "
                                                f"{self.limits.max_message} bytes"))
            return
        if not self.bucket.take():
            self.send(_error(_guess_id(text), "rate_limited", "slow down: too many messages"))
            return
        try:
            message = parse_client(text)
        except ValidationError as error:
            self.send(_error(_guess_id(text), "bad_request", _explain(error)))
            return
        try:
            await self.dispatch(message)
        except ProtocolError as error:
            self.send(_error(message.id, error.code, error.message))
        except RuleViolation as error:
            code = error.code if error.code in ("not_your_turn", "illegal_move", "wrong_phase") \
                else "illegal_move"
            self.send(_error(message.id, code, error.message))  # type: ignore[arg-type]
        except ConnectionClosed:
            raise
        except StorageError as error:  # the store refuses writes (file gone, no key)
            log("store_refused", type=message.type, error=str(error)[:200])
            self.send(_error(message.id, "unavailable", "the event store is not accepting "
                                                        "writes; nothing was done"))
        except Exception as error:
            log("internal_error", type=message.type, error=repr(error))
            self.send(_error(message.id, "internal", "the server failed on this message"))

    async def dispatch(self, message: Any) -> None:
        registry = self.registry
        if isinstance(message, CreateTable):
            quota = self.guards.tables
            quota.check(self.peer, self.created, self.limits.tables_per_connection)
            table = await registry.create(message)
            self.created.add(table.table_id)
            quota.add(self.peer, table.table_id)
            self.send(TableCreated(id=message.id, table_id=table.table_id).model_dump_json())
        elif isinstance(message, ListTables):
            listing, more = await registry.listing_page(message.after, message.limit)
            self.send(Tables(id=message.id, tables=listing, next=more).model_dump_json())
        elif isinstance(message, ListVariants):
            self.send(Variants(id=message.id, variants=registry.variant_listing()
                               ).model_dump_json())
        elif isinstance(message, Join):
            await self._join(message, await registry.find(message.table_id))
        elif isinstance(message, Resume):
            await self._resume(message, await registry.find(message.table_id))
        elif isinstance(message, Watch):
            await self._watch(message, await registry.find(message.table_id))
        elif isinstance(message, Play | Pass | Draw | MoveCommand):
            await self._move(message, await registry.find(message.table_id))
        elif isinstance(message, Leave):
            if message.table_id not in self.attachments:
                raise ProtocolError("bad_request", f"not at table {message.table_id}")
            self._detach(message.table_id)
            self.send(Left(id=message.id, table_id=message.table_id).model_dump_json())
        elif isinstance(message, Advise):  # answered later, by a task (server/tables/advice.py)
            attachment = self.attachments.get(message.table_id)
            await self.advice.start(attachment.audience if attachment else None, self.send,
                                    message, await registry.find(message.table_id))
        elif isinstance(message, Odds):  # answered later, by a task (server/tables/odds.py)
            attachment = self.attachments.get(message.table_id)
            await self.odds.start(attachment.audience if attachment else None, self.send,
                                  message, await registry.find(message.table_id))

    # -- commands ------------------------------------------------------------------------

    async def _attach(self, table: TableHandle, audience: str, after_seq: int,
                      reply: Callable[[int, int], Any], *, paced: bool = True) -> None:
        """Reply, then the backlog and the live feed, in order (see Table.open_feed).

        `paced`: wait for the server-wide backlog gate first (`watch`, `resume`); a `join`
        is not, since its seat is already claimed and its token must reach the player."""
        if table.table_id in self.attachments:
            self._detach(table.table_id)
        known = getattr(table, "last_seq", None)  # local and archived tables know it now
        expected = max(0, known - after_seq) if isinstance(known, int) else 0
        if paced:
            await self.guards.backlogs.admit(expected)
        else:
            self.guards.backlogs.charge(expected)
        if self.closed:
            return
        per_token = max(1, self.limits.backlog_events_per_token)

        def send_reply(after: int, last: int) -> None:
            # the backlog is paid for by its size, before the connection's next message
            self.bucket.charge((last - after) / per_token)
            if last - after > expected:
                self.guards.backlogs.charge(last - after - expected)
            self.send(reply(after, last).model_dump_json())

        detach = await table.open_feed(audience, self._deliver, after_seq, send_reply)
        if self.closed:  # the connection went away while the feed was being set up
            detach()
            return
        self.attachments[table.table_id] = _Attachment(audience, detach)
        self.registry.presence(table.table_id, audience, +1)

    def _detach(self, table_id: str) -> None:
        attachment = self.attachments.pop(table_id, None)
        if attachment is None:
            return
        attachment.detach()
        self.registry.presence(table_id, attachment.audience, -1)

    async def _join(self, message: Join, table: TableHandle) -> None:
        token, last_seq = await table.join_seat(message.seat, message.name)
        await settled(table)
        advice = await advice_offered(table)
        await self._attach(table, message.seat, 0, lambda _after, _last: Joined(
            id=message.id, table_id=table.table_id, seat=message.seat, token=token,
            last_seq=last_seq, advice=advice), paced=False)

    async def _resume(self, message: Resume, table: TableHandle) -> None:
        seat = await table.find_seat(message.token)
        if seat is None:
            raise ProtocolError("unauthorized", "that token holds no seat at this table")
        advice = await advice_offered(table)
        await self._attach(table, seat, message.after_seq, lambda after, last: Resumed(
            id=message.id, table_id=table.table_id, seat=seat, after_seq=after, last_seq=last,
            advice=advice, finished=table.finished))

    async def _watch(self, message: Watch, table: TableHandle) -> None:
        await self._attach(table, "spectator", message.after_seq, lambda after, last: Watching(
            id=message.id, table_id=table.table_id, after_seq=after, last_seq=last,
            finished=table.finished))

    async def _move(self, message: Play | Pass | Draw | MoveCommand, table: TableHandle) -> None:
        attachment = self.attachments.get(table.table_id)
        if attachment is None or attachment.audience == "spectator":
            raise ProtocolError("unauthorized", "join or resume a seat at this table first")
        seq = await table.move(attachment.audience, move_payload(message), message.id)
        self.send(Ack(id=message.id, seq=seq).model_dump_json())


def default_guards(registry: Registry) -> Guards:
    """The server-wide guards with their default limits (DominoServer passes its own)."""
    return Guards(TableQuota(256, lambda t: table_alive(registry, t)),
                  BacklogGate(events_per_second=10_000, burst=5_000, ceiling=32))


def table_alive(registry: Registry, table_id: str) -> bool:
    """A table that still counts against its creator's quota: hosted and not finished."""
    table = registry.tables.get(table_id)
    return table is not None and not table.finished
