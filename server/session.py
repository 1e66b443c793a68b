"""One WebSocket connection: read, check limits, validate, dispatch, and an ordered outbox.

Everything the connection is sent goes through its outbox queue, drained by one writer
task, so replies, events and beliefs leave in the order they were produced. A connection
acts only for the seats it joined or resumed (per table); watching gives the spectator feed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from games.interface import RuleViolation
from protocol import (
    MAX_SAFE_INTEGER,
    Ack,
    Advise,
    Chat,
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
    Variants,
    Watch,
    Watching,
    move_payload,
    parse_client,
)
from server.chat import ChatDesk, ChatMember
from server.feeds.bus import Envelope, Unsubscribe
from server.logs import log
from server.metrics import Metrics
from server.outbox import Outbox
from server.ratelimit import AddressBuckets, BacklogGate, TableQuota, TokenBucket
from server.stages import CLOCK
from server.tables.advice import AdviceDesk, advice_offered
from server.tables.interface import TableHandle
from server.tables.odds import OddsDesk
from server.tables.registry import Registry, settled
from server.tables.seats import abandoned_error
from storage import StorageError, StoreGone


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
    send_timeout: float | None = 10.0
    """Seconds a queued frame may wait for the socket to take it before the connection is
    cut off (a reader that stopped reading, however little is queued for it)."""
    attached_tables: int = 64
    """Tables one connection may be attached to at once (joined, resumed or watched)."""
    asks_per_second: float = 2.0
    asks_burst: float = 10.0
    """`advise` and `odds` requests of one connection: each folds the table's log on the
    event loop before anything else is decided, so they have their own, slower bucket."""


@dataclass
class Guards:
    """What the connections of one server share: quotas per address, the backlog gate."""

    tables: TableQuota
    backlogs: BacklogGate
    asks: AddressBuckets = field(default_factory=lambda: AddressBuckets(10.0, 40.0))
    """`advise`/`odds` per address (every connection of it together)."""
    asks_refused: int = 0
    slow_readers_dropped: int = 0
    slow_readers_by: Counter[str] = field(default_factory=Counter)
    """Readers cut off by what: "bytes" (outbox_bytes queued) or "time" (send_timeout)."""


def _peer(ws: ServerConnection) -> str:
    address = ws.remote_address
    return str(address[0]) if isinstance(address, tuple) and address else str(address)


@dataclass
class _Attachment:
    audience: str
    detach: Unsubscribe


RULE_CODES: tuple[ErrorCode, ...] = ("not_your_turn", "illegal_move", "wrong_phase")
"""A rule violation's codes the protocol names; any other is sent as `illegal_move`."""


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


def _unsent(frame: str) -> None:
    """A closed connection's chat member sends nowhere."""


_SERIALS = itertools.count(1)
"""Connection numbers: never reused in a process (an object's id() is, once it is freed)."""


class Session:
    """One connection; it is given the tables, the counters and the limits it uses."""

    def __init__(self, ws: ServerConnection, registry: Registry, advice: AdviceDesk,
                 metrics: Metrics, limits: Limits, guards: Guards | None = None, *,
                 chat: ChatDesk | None = None) -> None:
        self.ws = ws
        self.registry = registry
        self.advice = advice
        self.odds = OddsDesk(registry.games)
        """`odds` requests of this connection (server/tables/odds.py)."""
        self.metrics = metrics
        self.limits = limits
        self.guards = guards or default_guards(registry)
        self.peer = _peer(ws)
        self.asker = f"connection:{next(_SERIALS)}"
        """This connection as an owner of shared workers' jobs (server/strategy_processes.py,
        Admission): a job it left running holds its share, and only its share."""
        self.outbox = Outbox(ws, limits.outbox_bytes, limits.send_timeout,
                             lambda: self._cut_off("time"))
        """Written at once while the socket takes them, else queued (server/outbox.py)."""
        self.bucket = TokenBucket(limits.rate_per_second, limits.rate_burst)
        self.asks = TokenBucket(limits.asks_per_second, limits.asks_burst)
        self.attachments: dict[str, _Attachment] = {}
        self.created: set[str] = set()
        """Tables this connection created (pruned to the unfinished ones when it creates)."""
        self.closed = False
        self.chat = ChatMember(chat or ChatDesk(registry.store), self.peer, self.send)
        """What this connection says at its tables, and hears (server/chat.py)."""

    # -- sending -------------------------------------------------------------------------

    def send(self, frame: str) -> None:
        if self.closed:
            return
        if not self.outbox.put(frame):
            self._cut_off("bytes")

    @property
    def queued_bytes(self) -> int:
        """Bytes (characters: frames are mostly ASCII) in the outbox, not yet written."""
        return self.outbox.queued_bytes

    def _cut_off(self, why: str) -> None:
        """A reader that fell `outbox_bytes` behind, or whose socket took nothing for
        `send_timeout` seconds: free what is queued, stop its feeds and its commands, and
        close the socket now (not after a close handshake it will not read)."""
        if self.closed:
            return
        log("slow_reader_dropped", peer=self.peer, queued_bytes=self.queued_bytes, why=why)
        self.guards.slow_readers_dropped += 1
        self.guards.slow_readers_by[why] += 1
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
            try:
                done, _ = await asyncio.wait({writer}, timeout=1.0)
                if done and not writer.cancelled():
                    # an error it ended with (the socket gone) is read, not raised here:
                    # raised, its traceback would hold this frame and the writer's, which
                    # holds the error: a cycle
                    writer.exception()
            finally:
                writer.cancel()
                self._release()

    def _release(self) -> None:
        """Break the two cycles through this session (its outbox's stall callback and its
        chat member's `send` are bound to it), so a closed connection is freed by reference
        counting: the collector freezes what lives long (server/collector.py) and would not
        find them."""
        self.outbox.on_stall = None
        self.chat.send = _unsent

    async def handle(self, text: str | bytes) -> None:
        """Answer one frame; every failure becomes a typed error, never a crash."""
        if self.closed:
            return
        CLOCK.enter("parse")
        try:
            if _too_large(text, self.limits.max_message):
                self.send(_error(None, "too_large", f"messages are limited to "
                                                    f"{self.limits.max_message} bytes"))
                return
            if not self.bucket.take():
                self.send(_error(_guess_id(text), "rate_limited",
                                 "slow down: too many messages"))
                return
            try:
                message = parse_client(text)
            except ValidationError as error:
                self.send(_error(_guess_id(text), "bad_request", _explain(error)))
                return
        finally:
            CLOCK.leave()
        try:
            await self.dispatch(message)
        except ProtocolError as error:
            self.send(_error(message.id, error.code, error.message))
        except RuleViolation as error:
            code = error.code if error.code in RULE_CODES else "illegal_move"
            self.send(_error(message.id, code, error.message))
        except ConnectionClosed:
            raise
        except StoreGone as error:  # refused before or (its files changed) just after a commit
            log("store_refused", type=message.type, error=str(error)[:200])
            self.send(_error(message.id, "unavailable", "the event store stopped accepting "
                             "writes: this may not have been stored; retry it with the same "
                             "id once the server is back"))
        except StorageError as error:  # the store refuses writes (no key)
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
            self.send(await registry.listing_reply(message.id, message.after, message.limit))
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
            self._may_ask()
            attachment = self.attachments.get(message.table_id)
            await self.advice.start(attachment.audience if attachment else None, self.send,
                                    message, await registry.find(message.table_id),
                                    self.asker)
        elif isinstance(message, Odds):  # answered later, by a task (server/tables/odds.py)
            self._may_ask()
            attachment = self.attachments.get(message.table_id)
            await self.odds.start(attachment.audience if attachment else None, self.send,
                                  message, await registry.find(message.table_id), self.asker)
        elif isinstance(message, Chat):
            await self.chat.say(message)

    def _may_ask(self) -> None:
        """An `advise` or `odds` within the connection's and its address's pace, checked
        before the table's log is read or folded; `rate_limited` otherwise."""
        if not self.asks.take() or not self.guards.asks.take(self.peer):
            self.guards.asks_refused += 1
            raise ProtocolError("rate_limited", "too many advice and odds requests from "
                                                "this connection or address: wait a moment")

    def _room_for(self, table_id: str) -> None:
        """Refuse (`limit_reached`) a new attachment past `attached_tables` tables in play,
        before a seat is claimed or a backlog read. A finished or retired table does not
        count (a client playing rematch after rematch on one connection never leaves): at
        the limit, the connection lets go of the one of those it attached to longest ago,
        so it never holds more than `attached_tables` feeds, chat rooms and presences."""
        if table_id in self.attachments or len(self.attachments) < self.limits.attached_tables:
            return
        registry = self.registry
        remote = registry.cluster.remote if registry.cluster is not None else {}
        in_play = {t for t in self.attachments if table_alive(registry, t) or t in remote}
        if len(in_play) >= self.limits.attached_tables:
            raise ProtocolError("limit_reached", f"this connection follows {len(in_play)} "
                                f"tables in play (limit {self.limits.attached_tables}); "
                                "leave one first")
        self._detach(next(t for t in self.attachments if t not in in_play))

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
        await self.chat.enter(table.table_id, audience)  # the table's latest chat lines

    def _detach(self, table_id: str) -> None:
        self.chat.leave(table_id)
        attachment = self.attachments.pop(table_id, None)
        if attachment is None:
            return
        attachment.detach()
        self.registry.presence(table_id, attachment.audience, -1)

    async def _join(self, message: Join, table: TableHandle) -> None:
        self._room_for(table.table_id)
        token, last_seq = await table.join_seat(message.seat, message.name)
        await settled(table)
        advice = await advice_offered(table)
        await self._attach(table, message.seat, 0, lambda _after, _last: Joined(
            id=message.id, table_id=table.table_id, seat=message.seat, token=token,
            last_seq=last_seq, advice=advice), paced=False)

    async def _resume(self, message: Resume, table: TableHandle) -> None:
        self._room_for(table.table_id)
        seat = await table.find_seat(message.token)
        if seat is None:
            raise ProtocolError("unauthorized", "that token holds no seat at this table")
        if getattr(table, "abandoned", False):  # stopped unfinished: watch its replay
            raise abandoned_error(int(getattr(table, "last_seq", 0)))
        advice = await advice_offered(table)
        await self._attach(table, seat, message.after_seq, lambda after, last: Resumed(
            id=message.id, table_id=table.table_id, seat=seat, after_seq=after, last_seq=last,
            advice=advice, finished=table.finished))

    async def _watch(self, message: Watch, table: TableHandle) -> None:
        self._room_for(table.table_id)
        await self._attach(table, "spectator", message.after_seq, lambda after, last: Watching(
            id=message.id, table_id=table.table_id, after_seq=after, last_seq=last,
            finished=table.finished))

    async def _move(self, message: Play | Pass | Draw | MoveCommand, table: TableHandle) -> None:
        attachment = self.attachments.get(table.table_id)
        if attachment is None or attachment.audience == "spectator":
            raise ProtocolError("unauthorized", "join or resume a seat at this table first")
        seq = await table.move(attachment.audience, move_payload(message), message.id)
        CLOCK.enter("fanout")
        try:
            self.send(Ack(id=message.id, seq=seq).model_dump_json())
        finally:
            CLOCK.leave()


def default_guards(registry: Registry) -> Guards:
    """The server-wide guards with their default limits (DominoServer passes its own)."""
    return Guards(TableQuota(256, lambda t: table_alive(registry, t)),
                  BacklogGate(events_per_second=10_000, burst=5_000, ceiling=32))


def table_alive(registry: Registry, table_id: str) -> bool:
    """A table that still counts against its creator's quota: hosted and not finished."""
    table = registry.tables.get(table_id)
    return table is not None and not table.finished
