"""The server process: store, bus, inference, tables, and the WebSocket/HTTP listener.

Start order matters for recovery: the store opens, unfinished matches are rebuilt, and only
then does the port accept connections, so a client resuming after a restart finds its table.
Stop order matters for durability: stop accepting, let every table finish the jobs it has
queued (each commit before its ack), then close the store (which flushes its writer).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import socket
import sys
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.server import Server, ServerConnection, serve

from archive.db import DEFAULT_DB
from games.registry import GAMES
from games.registry import Registry as Games
from protocol import CreateTable
from server import strategy_processes
from server.advice_memo import KeptAdvice
from server.beliefs.in_process import InProcessInference
from server.beliefs.processes import HANG_AFTER, ProcessInference
from server.beliefs.remote import RemoteInference
from server.chat import ChatDesk, ChatLimits
from server.cluster.ownership import Cluster
from server.connections import ConnectionGuard, guarded_connection, refused_for_count
from server.feeds.bus import Bus, InProcessBus
from server.feeds.topics import DEFAULT_PARTITIONS, DEFAULT_PREFIX, Topics
from server.http import WEB_ROOT, make_process_request
from server.keepalive import HeardConnection, Keepalive
from server.logs import log
from server.metrics import Metrics, rss_bytes, watch_loop_lag
from server.ratelimit import AddressBuckets, BacklogGate, TableQuota
from server.replay.http import (
    UPLOAD_PATH,
    ReplayDesk,
    UploadGuard,
    replay_upload_ws,
    wrap_process_request,
)
from server.session import Guards, Limits, Session, table_alive
from server.stages import CLOCK
from server.tables.advice import AdviceDesk
from server.tables.local import Table, TableOptions
from server.tables.registry import Registry
from storage import AsyncEventStore, server_key

T = TypeVar("T")



def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS says, else all)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_inference_processes(cores: int | None = None) -> int:
    """`serve`'s default --inference-processes for a machine with `cores` usable cores
    (measured side by side at human pace, issue 31: docs/operations.md "Inference
    processes"). One process from two cores: with it, server and process together spent
    less CPU per move than in-process inference (the process folds each batch in the turn
    it arrives and answers in one write), and the beliefs leave the event loop. On one
    core the process cannot run beside the loop, and in-process cost less: 0."""
    return 0 if (usable_cores() if cores is None else cores) <= 1 else 1


DEFAULT_INFERENCE_PROCESSES = default_inference_processes()
"""`serve`'s default --inference-processes on this machine."""
HTTP_ROUTE_TIMEOUT = 150.0
"""Seconds a connection may take from accept to its handshake or HTTP answer (beyond the
advice desk's give-up of 60 + 20 s for a slow answer on a loaded machine)."""


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    db: str | Path = DEFAULT_DB
    tables: TableOptions = field(default_factory=TableOptions)
    max_message: int = 64 * 1024
    """Largest accepted frame (bytes); bigger ones get `too_large`."""
    hard_max_message: int = 4 * 1024 * 1024
    """Beyond this the connection is closed (1009) without reading the frame."""
    rate_per_second: float = 50.0
    rate_burst: float = 100.0
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    web_root: Path = WEB_ROOT
    switch_interval: float = 0.0005
    """sys.setswitchinterval for the process (see DominoServer.start)."""
    mqtt: str | None = None
    """Broker URL: events and beliefs over MQTT, inference in worker processes, leases."""
    node: str | None = None
    """This server's name in the cluster (unique; default host-pid-random)."""
    topic_prefix: str = DEFAULT_PREFIX
    partitions: int = DEFAULT_PARTITIONS
    """Inference partitions (work topics); the same number as every worker's --partitions."""
    lease_seconds: float = 10.0
    """How long a table's owner may be silent before another server takes the table."""
    forward_timeout: float = 5.0
    belief_retry: float = 2.0
    """Seconds before the workers are asked again for a belief that has not come back."""
    games: Games = GAMES
    """The games hosted (every registered game; a test may bring a registry of its own)."""
    outbox_bytes: int = 8 * 1024 * 1024
    """Bytes queued for one connection that does not read before it is cut off."""
    tables_per_connection: int = 20
    """Unfinished tables one connection may have created (`limit_reached` beyond)."""
    tables_per_address: int = 256
    """Unfinished tables all connections from one IP address may have created."""
    connections_per_address: int = 64
    """Open connections (WebSocket or HTTP, counted from the TCP accept) from one IP
    address; beyond, HTTP 429 `too_many_connections`; beyond twice this, aborted unread."""
    listen_backlog: int = 1024
    """Connections the kernel queues before the loop accepts them (asyncio's default, 100,
    dropped and reset connects when a few thousand players arrived at once; the kernel caps
    it at net.core.somaxconn)."""
    header_timeout: float | None = 10.0
    """Seconds a connection has to send its request line and headers (slowloris)."""
    send_timeout: float | None = 10.0
    """Seconds a frame may wait for a connection's socket to take it; then it is cut off."""
    attached_tables: int = 64
    """Tables one connection may follow at once (joined, resumed or watched)."""
    asks_per_second: float = 2.0
    asks_burst: float = 10.0
    """`advise` and `odds` per connection (a bucket of its own, checked before any work)."""
    asks_per_address_per_second: float = 10.0
    asks_per_address_burst: float = 40.0
    """`advise` and `odds` from all the connections of one address."""
    commit_window: float = 0.0
    """Seconds the store's writer waits after an append for others to share its commit
    (storage/aio.py): at human pace, moves of many tables in one fsync."""
    send_buffer: int | None = 256 * 1024
    """The kernel's send buffer per connection (SO_SNDBUF; None: autotuned, up to 4 MiB
    on Linux, held for a reader that never reads)."""
    backlog_events_per_second: float = 10_000.0
    """Server-wide pace of `watch`/`resume` history sent (events/s; spreads catch-ups)."""
    backlog_burst: float = 5_000.0
    """History events that may go out at once before the pace applies (one long match's
    catch-up: a few served in one turn of the loop would stall it)."""
    backlog_ceiling: int = 32
    """Catch-ups waiting or served at once; beyond it `watch`/`resume` get `busy`."""
    uploads_per_minute: float = 20.0
    """Replay uploads per address per minute (bursts of as many); beyond, status 429."""
    uploads_at_once: int = 2
    """Replay uploads built at the same time; others wait up to 30 s, then status 503."""
    inference_processes: int = 0
    """Beliefs in this many child processes, tables sharded among them by a stable hash
    (server/beliefs/processes.py); 0: on this process (the loop, and one thread for costly
    ones). `serve` picks its own default (DEFAULT_INFERENCE_PROCESSES)."""
    inference_hang_after: float = HANG_AFTER
    """Seconds an inference process may hold a batch unacknowledged before it is killed and
    started again (rebuilt from the logs): a hung process would stop its tables' beliefs."""
    chat: ChatLimits = field(default_factory=ChatLimits)
    """Table chat's length and rate limits (server/chat.py)."""
    store_key_file: str | Path | None = "auto"
    """The key that seals the store's stream heads (storage/keys.py): "auto" is `<db>.key`
    beside a SQLite store, created on first run (none for PostgreSQL unless given)."""


class DominoServer:
    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.metrics = Metrics()
        self.bus: Bus = InProcessBus()
        self.store: AsyncEventStore | None = None
        self.replays: ReplayDesk | None = None
        """The replay routes' store and caches (once the store is open)."""
        self.inference: InProcessInference | ProcessInference | RemoteInference | None = None
        self.cluster: Cluster | None = None
        self.registry: Registry | None = None
        self.advice = AdviceDesk()
        self.guards: Guards | None = None
        self.chat: ChatDesk | None = None
        self.uploads = UploadGuard(config.uploads_per_minute, config.uploads_per_minute,
                                   config.uploads_at_once)
        self.connection_guard = ConnectionGuard(config.connections_per_address,
                                                config.header_timeout, config.send_buffer)
        self._server: Server | None = None
        self._lag_task: asyncio.Task[None] | None = None
        self.keepalive: Keepalive | None = None
        self._keepalive_task: asyncio.Task[None] | None = None
        self.port = config.port

    async def start(self) -> None:
        # The store's writer thread needs the GIL back after every SQLite call; with the
        # default 5 ms switch interval a busy loop makes each commit wait several slices
        # (measured: 20 ms commits for 2 ms of fsync). A short interval keeps commits short.
        sys.setswitchinterval(self.config.switch_interval)
        self.store = await asyncio.to_thread(self._open_store)
        strategy_processes.acquire()  # pimc and advice workers (started when first needed)
        self.advice.kept = KeptAdvice(self.store.store)
        self.replays = ReplayDesk(self.store, self.config.games, memo=self.advice.memo,
                                  kept=self.advice.kept)
        inference: InProcessInference | ProcessInference | RemoteInference
        if self.config.mqtt:
            inference = await self._join_cluster(self.config.mqtt)
        elif self.config.inference_processes > 0:
            inference = ProcessInference(self.bus, self.metrics,
                                         self.config.inference_processes, self.config.games,
                                         hang_after=self.config.inference_hang_after)
        else:
            inference = InProcessInference(self.bus, self.metrics)
        self.inference = inference
        inference.start()
        if isinstance(inference, ProcessInference):
            await inference.ready()
        self.registry = Registry(self.store, self.bus, inference, self.metrics,
                                 self.config.tables, cluster=self.cluster,
                                 games=self.config.games)
        recovered = await self.registry.recover()
        self.chat = ChatDesk(self.store, self.config.chat)
        registry = self.registry
        self.guards = Guards(
            TableQuota(self.config.tables_per_address, lambda t: table_alive(registry, t)),
            BacklogGate(self.config.backlog_events_per_second, self.config.backlog_burst,
                        self.config.backlog_ceiling),
            AddressBuckets(self.config.asks_per_address_per_second,
                           self.config.asks_per_address_burst))
        self._lag_task = asyncio.create_task(watch_loop_lag(self.metrics), name="loop-lag")
        self._server = await serve(
            self._handle,
            self.config.host,
            self.config.port,
            process_request=wrap_process_request(
                make_process_request(self.health, self.config.web_root), lambda: self.replays,
                lambda connection: refused_for_count(self.connection_guard, connection),
            ),
            create_connection=guarded_connection(self.connection_guard),
            compression=None,
            max_size=self.config.hard_max_message,
            max_queue=64,
            ping_interval=None,  # server/keepalive.py pings the quiet connections only
            ping_timeout=None,
            # the opening handshake includes process_request's HTTP routes (a replay's advice
            # may take seconds of CPU): websockets' 10 s default closed them unanswered
            open_timeout=HTTP_ROUTE_TIMEOUT,
            server_header="domino-oracle",
            backlog=self.config.listen_backlog,
        )
        if self.config.ping_interval is not None:
            server = self._server
            self.keepalive = Keepalive(
                self.config.ping_interval, self.config.ping_timeout,
                lambda: [c for c in server.connections if isinstance(c, HeardConnection)])
            self._keepalive_task = asyncio.create_task(self.keepalive.run(), name="keepalive")
        sockets = self._server.sockets
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log("listening", host=self.config.host, port=self.port, db=self.config.db,
            loop=type(asyncio.get_running_loop()).__module__.partition(".")[0],
            recovered=recovered, node=self.cluster.node if self.cluster else "-")

    def _open_store(self) -> AsyncEventStore:
        """The store, locked to this server (SQLite) and sealed with its key; a key file
        created here for a store that turns out not to take it is removed again."""
        key, created = server_key(self.config.db, self.config.store_key_file)
        try:
            store = AsyncEventStore.open(self.config.db, key=key, exclusive=True,
                                         seal_unkeyed=created is not None,
                                         on_loss=_tell_store_lost,
                                         commit_window=self.config.commit_window)
        except BaseException:
            if created is not None:
                created.unlink(missing_ok=True)
            raise
        if created is not None:
            log("store_key_created", path=str(created))
        if key is None:
            log("store_unsealed", db=str(self.config.db),
                note="no --store-key-file: a rewrite of the database passes verify")
        return store

    async def _join_cluster(self, mqtt: str) -> RemoteInference:
        """Bus over MQTT, inference by the worker pool, tables by lease (server/cluster/)."""
        assert self.store is not None
        config, store = self.config, self.store.store
        node = config.node or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
        topics = Topics(config.topic_prefix, config.partitions)
        cluster = self.cluster = await asyncio.to_thread(
            lambda: Cluster(mqtt=mqtt, db=str(config.db), node=node, topics=topics,
                            store=store, lease_seconds=config.lease_seconds,
                            forward_timeout=config.forward_timeout, games=config.games))
        await cluster.connect()
        self.bus = cluster.bus
        return RemoteInference(self.bus, cluster.link, topics, self.metrics,
                               config.belief_retry)

    async def _handle(self, ws: ServerConnection) -> None:
        if ws.request is not None and ws.request.path.partition("?")[0] == UPLOAD_PATH:
            await replay_upload_ws(ws, self.config.games, self.uploads)  # not a player
            return
        assert self.registry is not None  # connections are accepted only after start()
        config = self.config
        limits = Limits(config.max_message, config.rate_per_second, config.rate_burst,
                        outbox_bytes=config.outbox_bytes,
                        tables_per_connection=config.tables_per_connection,
                        send_timeout=config.send_timeout,
                        attached_tables=config.attached_tables,
                        asks_per_second=config.asks_per_second, asks_burst=config.asks_burst)
        await Session(ws, self.registry, self.advice, self.metrics, limits, self.guards,
                      chat=self.chat).run()

    async def create_table(self, **fields: Any) -> Table:
        """Create a table server-side (e.g. for `serve --open`)."""
        assert self.registry is not None
        return await self.registry.create(CreateTable(**fields))

    def health(self) -> dict[str, Any]:
        registry = self.registry
        tables = registry.tables.values() if registry else ()
        playing = sum(1 for t in tables if t.status == "playing")
        abandoned = sum(1 for t in tables if t.status == "abandoned")
        store = self.store
        lost = store.store.lost if store else None
        return {
            "ok": lost is None,
            **({"store_lost": lost} if lost else {}),
            "quarantined": dict(registry.quarantined) if registry else {},
            "tables": len(tables),
            "tables_playing": playing,
            "tables_abandoned": abandoned,
            "connections": self.metrics.connections,
            "uptime": round(self.metrics.uptime(), 3),
            "loop_lag_ms": self.metrics.loop_lag.summary(),
            "inference_lag_ms": self.metrics.inference_lag.summary(),
            "belief_stages_ms": self.inference.stages() if self.inference else {},
            "commit_ms": self.metrics.commit_latency.summary(),
            "moves": self.metrics.moves,
            "events": self.metrics.events,
            "beliefs": self.metrics.beliefs,
            "commits": store.commits if store else 0,
            "rss_bytes": rss_bytes(),
            "cpu_seconds": round(time.process_time(), 3),
            "stage_cpu_seconds": CLOCK.snapshot(),
            **(self.inference.health() if isinstance(self.inference, ProcessInference) else {}),
            **self._guard_health(),
            **({"cluster": self.cluster.health()} if self.cluster else {}),
        }

    def _guard_health(self) -> dict[str, Any]:
        guards = self.guards
        if guards is None:
            return {}
        return {"slow_readers_dropped": guards.slow_readers_dropped,
                "slow_readers_by": dict(guards.slow_readers_by),
                "asks_refused": guards.asks_refused,
                **self.connection_guard.health(),
                **({"keepalive_pings": self.keepalive.pings, "keepalive_cut": self.keepalive.cut}
                   if self.keepalive else {}),
                "catch_ups_refused": guards.backlogs.refused,
                **(self.replays.gate.health() if self.replays else {})}

    async def stop(self) -> None:
        """Graceful: no new connections, tables drain their queued jobs, store flushes."""
        log("stopping")
        if self._server is not None:
            # Stop listening only (new handshakes get 503); open connections stay for the
            # drain's acks. Not `close(close_connections=False)`: websockets' close() is
            # idempotent, the first call wins, and the close(close_connections=True) below
            # would be a no-op, leaving every client connected until wait_closed timed out.
            self._server.server.close()
        if self.registry is not None:
            await self.registry.close()
        if self._server is not None:
            self._server.close(close_connections=True)
            try:
                await asyncio.wait_for(self._server.wait_closed(), timeout=5)
            except TimeoutError:
                # A peer that never answers the close frame (half-open TCP, a stalled
                # client) would otherwise hold the process for websockets' close_timeout
                # even after "stopped", and a supervisor's SIGKILL may come first.
                for connection in self._server.all_connections:
                    connection.transport.abort()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._server.wait_closed(), timeout=1)
        if self.cluster is not None:
            await self.cluster.stop()
        if self.inference is not None:
            await self.inference.stop()
        if self.cluster is not None:
            await self.cluster.release()  # our tables drained: the others may take them now
        if self._lag_task is not None:
            self._lag_task.cancel()
        if self._keepalive_task is not None:
            self._keepalive_task.cancel()
        if self.store is not None:
            await self.store.aclose()
        strategy_processes.release()
        log("stopped")


def _tell_store_lost(reason: str, rescued: str | None) -> None:
    """The operator's one line when the store's files change (writes are refused from now:
    `/healthz` says `ok: false` with `store_lost`)."""
    log("store_lost", logging.ERROR, reason=reason,
        rescued=rescued or "nothing to rescue: only the WAL of an intact database can be",
        action="every write refused; stop the server, inspect the files, run verify, restart")


EVENT_LOOPS = ("auto", "uvloop", "asyncio")


def loop_factory(choice: str = "auto") -> tuple[Callable[[], asyncio.AbstractEventLoop] | None,
                                                str]:
    """The event loop a server runs on, and its name: uvloop where it is importable ("auto"),
    else asyncio's own. uvloop's loop (libuv, Cython) spends less of the server's CPU per
    turn, per socket write and per timer; it is a drop-in loop, so nothing else changes.
    "uvloop" insists (ImportError if missing); "asyncio" keeps the standard loop (for
    side-by-side measurements)."""
    if choice not in EVENT_LOOPS:
        raise ValueError(f"unknown event loop {choice!r} (one of {', '.join(EVENT_LOOPS)})")
    if choice != "asyncio":
        try:
            import uvloop
        except ImportError:
            if choice == "uvloop":
                raise
        else:
            return uvloop.new_event_loop, "uvloop"
    return None, "asyncio"


def run_server(main: Coroutine[Any, Any, T], event_loop: str = "auto") -> T:
    """asyncio.run(main) on the loop `loop_factory(event_loop)` names."""
    factory, _name = loop_factory(event_loop)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)


async def run_until_signalled(server: DominoServer, on_started: Any = None) -> None:
    """Serve until SIGINT or SIGTERM, then stop cleanly."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await server.start()
    if on_started is not None:
        await on_started(server)
    await stop.wait()
    await server.stop()
