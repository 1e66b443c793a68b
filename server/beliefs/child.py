"""An inference process: the beliefs of the tables the server hashes to it.

The server sends each audience's events once, exactly the frames that audience's sockets
get (so a process never learns more than the audiences it computes may see), in batches,
with which of those audiences someone is watching. Here they are decoded back into the
game's events and fed to the same engine the one-process server uses (InProcessInference:
cheap beliefs in slices, costly ones on a thread, coalescing, a broken worker stops), on a
bus that ends in the pipe: each belief frame is encoded once here and sent back as text,
for the server to publish as it is. After each batch the process answers `ack` once no
cheap belief has events waiting, and the server sends at most a few batches ahead (what
arrives meanwhile waits there and goes as one batch: back-pressure coalesces). A batch's
cheap beliefs are computed in the turn it arrives, and go back with its ack in one write.

Messages in (server/beliefs/pipe.py): ("batch", n, items, watched) with items
("open", table, variant, options, audiences), ("event", table, audience, frame, stamp),
("refresh", table, audience), ("close", table); watched maps (table, audience) -> bool.
Out: ("ready",) once, ("beliefs", [(table, audience, seq, frame), ...]), ("ack", n),
("broken", table, audience, error).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from multiprocessing.connection import Connection
from typing import Any

from pydantic_core import from_json

from games.registry import Registry
from server.beliefs.in_process import BeliefWorker, InProcessInference
from server.beliefs.pipe import encode, receive
from server.collector import tune_collector
from server.feeds.bus import Envelope, Handler, Kind, Unsubscribe
from server.metrics import Metrics
from server.table_game import TableGame


class PipeBus:
    """The process's bus: events go to the workers, beliefs into the pipe; `has_subscribers`
    for beliefs is what the server says is watched."""

    def __init__(self, send: Any) -> None:
        self._send = send
        self._handlers: dict[tuple[str, str], Handler] = {}
        self.watched: set[tuple[str, str]] = set()

    def publish(self, envelope: Envelope, *, retain: bool = False) -> None:
        if envelope.kind == "belief":
            self._send((envelope.table_id, envelope.audience, envelope.seq, envelope.frame))
            return
        handler = self._handlers.get((envelope.table_id, envelope.audience))
        if handler is not None:
            handler(envelope)

    def subscribe(self, table_id: str, audience: str, kind: Kind, handler: Handler) -> Unsubscribe:
        key = (table_id, audience)
        self._handlers[key] = handler
        return lambda: self._handlers.pop(key, None) and None

    def has_subscribers(self, table_id: str, audience: str, kind: Kind) -> bool:
        return (table_id, audience) in self.watched


class _Table:
    """What InProcessInference needs of a table, here: its game and its audiences' feeds."""

    def __init__(self, table_id: str, game: TableGame, bus: PipeBus) -> None:
        self.table_id = table_id
        self.game = game
        self.bus = bus

    def attach(self, audience: str, on_event: Handler) -> tuple[int, Unsubscribe]:
        return 0, self.bus.subscribe(self.table_id, audience, "event", on_event)


class Child:
    def __init__(self, writer: asyncio.StreamWriter, games: Registry) -> None:
        self.writer = writer
        self.games = games
        self.bus = PipeBus(self._belief)
        self.inference = InProcessInference(
            self.bus, Metrics(), lambda table_id, observer, error: self.send(
                ("broken", table_id, observer, repr(error))), inline=True)
        self.tables: dict[str, tuple[TableGame, dict[str, BeliefWorker]]] = {}
        self._beliefs: list[tuple[str, str, int, str]] = []
        self._flushing = False

    def _belief(self, item: tuple[str, str, int, str]) -> None:
        self._beliefs.append(item)
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self, then: Any = None) -> None:
        """The beliefs made so far (and `then`, after them) in one write."""
        self._flushing = False
        out = b""
        if self._beliefs:
            beliefs, self._beliefs = self._beliefs, []
            out = encode(("beliefs", beliefs))
        if then is not None:
            out += encode(then)
        if out and not self.writer.is_closing():  # a closed pipe: the server is gone or
            self.writer.write(out)                 # stopping, nobody is left to tell

    def send(self, message: Any) -> None:
        self._flush(message)  # in order: beliefs already made go first

    def batch(self, items: list[Any], watched: dict[tuple[str, str], bool]) -> None:
        for key, on in watched.items():
            if on:
                self.bus.watched.add(key)
            else:
                self.bus.watched.discard(key)
        parsed: dict[int, Any] = {}
        """Events by id(frame): most events look the same to every audience, the server
        sends the one frame object for all of them, and unpickling keeps it one object."""
        for item in items:
            kind = item[0]
            if kind == "event":
                _, table_id, audience, frame, stamp = item
                event = parsed.get(id(frame))
                if event is None:
                    game = self.tables[table_id][0].game
                    event = parsed[id(frame)] = game.parse_event(from_json(frame)["event"])
                self.bus.publish(Envelope(table_id, audience, "event", event.seq, frame,
                                          event, stamp))
            elif kind == "open":
                _, table_id, variant, options, _audiences = item
                self.close(table_id)
                table_game = TableGame.of(variant, self.games, options)
                workers = self.inference.attach_table(_Table(table_id, table_game, self.bus))
                self.tables[table_id] = (table_game, workers)
            elif kind == "refresh":
                found = self.tables.get(item[1])
                worker = found[1].get(item[2]) if found else None
                if worker is not None:
                    worker.refresh()
            elif kind == "close":
                self.close(item[1])

    def close(self, table_id: str) -> None:
        found = self.tables.pop(table_id, None)
        if found is not None:
            for worker in found[1].values():
                worker.stop()
            for key in [k for k in self.bus.watched if k[0] == table_id]:
                self.bus.watched.discard(key)


async def _serve(conn: Connection, games: Registry) -> None:
    sock = socket.socket(fileno=os.dup(conn.fileno()))
    conn.close()
    reader, writer = await asyncio.open_connection(sock=sock)
    child = Child(writer, games)
    child.inference.start()
    tune_collector()  # short pauses: its beliefs' latency is the players' too
    child.send(("ready",))
    try:
        while True:
            message = await receive(reader)
            if message[0] == "batch":
                child.batch(message[2], message[3])
                child.inference.run_marked()  # the cheap beliefs, now: they and the ack
                child.send(("ack", message[1]))  # go in one write
                await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass  # the server closed the pipe (or died): nothing left to compute for
    finally:
        await child.inference.stop()
        with contextlib.suppress(Exception):
            writer.close()


def main(conn: Connection, games: Registry) -> None:
    """The process's entry point (multiprocessing, spawn): serve the pipe until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    try:
        import uvloop  # the server's loop too, where installed (server.app.loop_factory)
    except ImportError:
        factory = None
    else:
        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_serve(conn, games))
