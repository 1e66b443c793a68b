"""Beliefs computed in child processes, sharded by table (`serve --inference-processes N`).

In the one-process server the beliefs were 40% of the event loop's samples (profile in
docs/profiles/): folding and snapshotting four exact beliefs per move on the thread that
also commits, acks and writes to every socket. Here each table belongs to one of N
processes (a stable hash of its id, server.feeds.topics.partition_of), and the loop only
forwards: each audience's events go once to the owning process, as the very frames that
audience's sockets get (a process never sees more than the audiences it computes), in
batches (a few moves' worth, or what came within BATCH_DELAY) that say which audiences
someone watches; the process folds each (table, observer) belief incrementally, snapshots
only the watched ones, encodes the frame once and sends the JSON back
(server/beliefs/child.py). The frame is published on the bus, retained, tagged with its seq,
as in-process inference does; one older than a belief already pushed is dropped.

Bounded: a process is sent at most DEPTH batch(es) it has not acknowledged (it acknowledges
once no cheap belief of it has events waiting); what arrives meanwhile waits in the
server's outbox and goes as one batch, so a slow process gets bigger batches and computes
one belief per audience per batch (coalescing), and the outbox holds references to frames
of the live matches, never more than their logs. A process that dies is started again and
rebuilt from the events the server holds (each table's log, re-projected per audience):
every watched belief comes back at the head. So does one that hangs: a process holding a
batch unacknowledged for `hang_after` seconds (it acknowledges within a loop turn or two when
well, a few seconds under heavy load) is killed and started again. A belief whose update
raises is marked broken and logged, as in-process.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from games.registry import Registry
from server.beliefs import child
from server.beliefs.pipe import decode, encode, receive_bytes
from server.feeds.bus import Bus, Envelope, Handler, Unsubscribe
from server.feeds.fanout import backlog
from server.feeds.topics import partition_of
from server.logs import log
from server.metrics import Metrics, Window
from server.stages import CLOCK
from server.table_game import TableGame

DEPTH = 1
"""Batches a process may have unacknowledged; more waits (and coalesces) in the outbox.
One: an idle process gets a batch once it is due (BATCH_ITEMS, BATCH_DELAY); a busy one
gets, when it is done, all that came meanwhile in one write (measured: every batch costs
the loop a write and a wake-up of the process, a large share of the forwarding's CPU when
batches are small)."""
BATCH_INTERVAL = 0.004
"""Seconds at least between two batches to one process. Under load the process answers a
batch within a loop turn or two, so batches were one or two events each, and every batch
costs the loop a pipe write, a wake-up of the process and an ack to read (the pipe write
alone: 7% of the event loop's samples at 50 tables, docs/profiles/
one-process-50-tables-n1-before.txt). What comes within the interval goes in the next
batch. Measured (clients/bench/server_cpu.py, 2 rounds, load average 2.4-3.4): server CPU
per move 0.95x, the process's 0.93x; 10 ms saved nothing more."""
BATCH_DELAY = 0.040
"""Seconds the oldest item of a batch may wait for more (unless BATCH_ITEMS came first).
The process sleeps between batches, and the same belief updates cost it 2.3x the CPU when
each follows 12 ms of idle as back to back, 1.7x in bursts of four moves, 1.2x of eight
(`domino-oracle bench bursts`): at human pace, batches of one move were paid at the cold
price. Measured side by side at 240 and 480 paced tables: the process's CPU per move 0.76-
0.81x, server and process 0.88-0.95x; beliefs p99 13-21 ms -> 49-52 ms, inside the 100 ms
bound (docs/performance.md, "Human pace, eighth round")."""
BATCH_ITEMS = 16
"""Items (four moves of a four-seat table's audiences) that are enough to amortise a
wake-up: a batch this big goes at once, so under load nothing waits for BATCH_DELAY."""
HANG_AFTER = 60.0
"""Seconds a process may hold a batch unacknowledged before it is taken for hung, killed and
started again. A stopped or deadlocked process would otherwise freeze its tables' beliefs
for good, and the server's outbox for it would grow with every `refresh`."""
STARTUP_HANGS = 4
"""A process not up `STARTUP_HANGS * hang_after` seconds after it started is hung too."""
RESTART_FIRST, RESTART_LAST = 0.05, 5.0
"""Seconds before a dead process is started again (doubling while it keeps dying young)."""


class ShardedTable(Protocol):
    """What process inference needs of a table: its id, game, log and audiences' feeds."""

    table_id: str
    game: TableGame
    log: list[Any]

    def attach(self, audience: str, on_event: Handler) -> tuple[int, Unsubscribe]: ...


class ProcessBelief:
    """The server's side of one (table, observer) belief computed in a process."""

    def __init__(self, shard: Shard, entry: _Entry, observer: str) -> None:
        self.shard = shard
        self.entry: _Entry | None = entry
        """Its table's entry until it stops (then None: the table holds this handle, the
        entry holds the table, so a kept entry would be a cycle)."""
        self.table_id = entry.table.table_id
        self.observer = observer
        self.broken = False
        self.closed = False
        self.sent_seq = 0
        """The last event seq queued for the process."""
        self.unwatched_seq = 0
        """The last event seq sent while nobody watched (folded there, not published)."""
        self.published_seq = -1
        self.first_stamp: float | None = None
        """When the oldest event not yet reflected in a published belief was published."""
        self.unsubscribe: Unsubscribe | None = None

    @property
    def stale(self) -> bool:
        """The retained belief is older than events folded unwatched (table.attach skips it
        and waits for refresh's)."""
        return self.published_seq < self.unwatched_seq

    def on_event(self, envelope: Envelope) -> None:
        if self.broken or self.closed or envelope.event is None:
            return
        if envelope.seq <= self.sent_seq:
            return  # already sent (a rebuild after a restart covered it)
        self.sent_seq = envelope.seq
        if self.first_stamp is None:
            self.first_stamp = envelope.stamp
        self.shard.queue(("event", self.table_id, self.observer, envelope.frame,
                          envelope.stamp), (self.table_id, self.observer))
        if envelope.event.type == "match_ended" and self.unsubscribe is not None:
            self.unsubscribe()  # nothing follows; the belief stays for refresh
            self.unsubscribe = None

    def refresh(self) -> None:
        """Someone started listening: if the retained belief is stale (events were folded
        there unwatched), the process is asked for the head's; else the next batch carries
        the new watcher anyway."""
        if self.stale and not self.broken and not self.closed:
            self.shard.queue(("refresh", self.table_id, self.observer),
                             (self.table_id, self.observer))

    def stop(self) -> None:
        """The table closes: unsubscribe; the last belief of a table closes it there."""
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None
        if not self.closed:
            self.closed = True
            entry, self.entry = self.entry, None
            if entry is not None:
                entry.closed(self)


class _Entry:
    """A table hosted by a shard: its handles, for rebuilds and closing."""

    def __init__(self, shard: Shard, table: ShardedTable) -> None:
        self.shard = shard
        self.table = table
        self.handles: dict[str, ProcessBelief] = {}

    def open_item(self) -> tuple[Any, ...]:
        game = self.table.game
        return ("open", self.table.table_id, game.variant.name, dict(game.chosen),
                tuple(self.handles))

    def closed(self, _handle: ProcessBelief) -> None:
        if all(h.closed for h in self.handles.values()):
            self.shard.forget(self)


class Shard:
    """One inference process: its outbox, its batches in flight, its tables, its restarts."""

    def __init__(self, owner: ProcessInference, index: int) -> None:
        self.owner = owner
        self.index = index
        self.tables: dict[str, _Entry] = {}
        self.outbox: list[tuple[Any, ...]] = []
        self.touched: set[tuple[str, str]] = set()
        """The (table, audience) pairs in the outbox: their watched flags go with it."""
        self.in_flight: dict[int, float] = {}
        """Batches sent and not acknowledged: number -> when sent."""
        self.batches = 0
        self.writer: asyncio.StreamWriter | None = None
        self.process: Any = None
        self.pid: int | None = None
        self.restarts = 0
        self.hangs = 0
        """Processes killed for holding a batch past `hang_after`."""
        self.cpu_of_dead = 0.0
        """CPU seconds of this shard's earlier processes (read just before they were reaped)."""
        self.ready = asyncio.Event()
        """Set once a process has said it is up (started, imported, listening)."""
        self._ready_at: float | None = None
        """When the current process said it is up (monotonic; None while it starts)."""
        self._flush_scheduled = False
        self._timer: asyncio.TimerHandle | None = None
        """The flush waiting for the batch to be due (cancelled when BATCH_ITEMS arrive)."""
        self._oldest = 0.0
        """When the outbox's oldest item was queued (loop time)."""
        self._last_batch = float("-inf")
        """When the last batch was written (loop time)."""
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    # -- the server's side ---------------------------------------------------------------

    def queue(self, item: tuple[Any, ...], key: tuple[str, str] | None = None) -> None:
        if not self.outbox:
            self._oldest = asyncio.get_running_loop().time()
        self.outbox.append(item)
        if len(self.outbox) == BATCH_ITEMS and self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._flush_scheduled = False
        if key is not None:
            self.touched.add(key)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._scheduled_flush)

    def _scheduled_flush(self) -> None:
        self._flush_scheduled = False
        self._timer = None
        CLOCK.enter("belief_out")
        try:
            self.flush()
        finally:
            CLOCK.leave()

    def flush(self) -> None:
        """Send the outbox as one batch, unless DEPTH batches are still unacknowledged, the
        last batch went less than BATCH_INTERVAL ago, or it holds fewer than BATCH_ITEMS
        items and the oldest has waited less than BATCH_DELAY (then it goes when due)."""
        writer = self.writer
        if (writer is None or writer.is_closing() or len(self.in_flight) >= DEPTH
                or not self.outbox):
            return
        loop = asyncio.get_running_loop()
        due = self._last_batch + BATCH_INTERVAL
        if len(self.outbox) < BATCH_ITEMS:
            due = max(due, self._oldest + BATCH_DELAY)
        if loop.time() < due:
            if not self._flush_scheduled:
                self._flush_scheduled = True
                self._timer = loop.call_at(due, self._scheduled_flush)
            return
        self._last_batch = loop.time()
        has = self.owner.bus.has_subscribers
        watched = {}
        for table_id, audience in self.touched:
            on = watched[(table_id, audience)] = has(table_id, audience, "belief")
            if not on:
                entry = self.tables.get(table_id)
                handle = entry.handles.get(audience) if entry else None
                if handle is not None:
                    handle.unwatched_seq = handle.sent_seq
        items, self.outbox, self.touched = self.outbox, [], set()
        self.batches += 1
        self.in_flight[self.batches] = time.monotonic()
        writer.write(encode(("batch", self.batches, items, watched)))

    def host(self, table: ShardedTable) -> dict[str, ProcessBelief]:
        entry = _Entry(self, table)
        for audience in table.game.audiences:
            entry.handles[audience] = ProcessBelief(self, entry, audience)
        self.tables[table.table_id] = entry
        self.queue(entry.open_item())
        for audience, handle in entry.handles.items():
            handle.unsubscribe = table.attach(audience, handle.on_event)[1]
        return entry.handles

    def forget(self, entry: _Entry) -> None:
        if self.tables.get(entry.table.table_id) is entry:
            del self.tables[entry.table.table_id]
            self.queue(("close", entry.table.table_id))

    def _rebuild(self) -> None:
        """A new process: every table again, from the events the server holds."""
        self.outbox, self.touched = [], set()
        for entry in self.tables.values():
            self.outbox.append(entry.open_item())
            table = entry.table
            for audience, handle in entry.handles.items():
                if handle.broken:
                    continue
                for envelope in backlog(table.table_id, table.log, audience, 0, table.game):
                    self.outbox.append(("event", table.table_id, audience, envelope.frame,
                                        envelope.stamp))
                handle.sent_seq = max(handle.sent_seq, len(table.log))
                self.touched.add((table.table_id, audience))
        self.flush()

    # -- what the process sends back -----------------------------------------------------

    def _on_message(self, message: Any) -> None:
        kind = message[0]
        if kind == "ready":
            self._ready_at = time.monotonic()
            self.ready.set()
        elif kind == "beliefs":
            self._publish(message[1])
        elif kind == "ack":
            sent = self.in_flight.pop(message[1], None)
            if sent is not None:
                self.owner.round_trip.add((time.monotonic() - sent) * 1000.0)
            self.flush()
        elif kind == "broken":
            _, table_id, observer, error = message
            entry = self.tables.get(table_id)
            handle = entry.handles.get(observer) if entry else None
            if handle is not None:
                handle.broken = True
            log("inference_failed", table=table_id, observer=observer, error=error,
                process=self.pid)

    def _publish(self, beliefs: list[tuple[str, str, int, str]]) -> None:
        owner = self.owner
        now = time.monotonic()
        for table_id, observer, seq, frame in beliefs:
            entry = self.tables.get(table_id)
            handle = entry.handles.get(observer) if entry else None
            if handle is None or seq <= handle.published_seq:
                continue  # a retired table, or not newer than what was pushed
            handle.published_seq = seq
            owner.bus.publish(Envelope(table_id, observer, "belief", seq, frame), retain=True)
            owner.metrics.beliefs += 1
            if handle.first_stamp is not None:
                owner.metrics.inference_lag.add((now - handle.first_stamp) * 1000.0)
                if seq >= handle.sent_seq:
                    handle.first_stamp = None

    # -- the process's life --------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"inference-process-{self.index}")

    async def _run(self) -> None:
        delay = RESTART_FIRST
        while not self._stopping:
            began = time.monotonic()
            try:
                await self._serve_one()
            except Exception as error:  # a process that would not start: try again later
                log("inference_process_error", shard=self.index, error=error)
            if self._stopping:
                return
            self.restarts += 1
            log("inference_process_died", shard=self.index, pid=self.pid,
                exitcode=getattr(self.process, "exitcode", None), restarts=self.restarts)
            delay = RESTART_FIRST if time.monotonic() - began > 10 else min(delay * 2,
                                                                              RESTART_LAST)
            await asyncio.sleep(delay)

    async def _serve_one(self) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(target=child.main, args=(theirs, self.owner.games),
                                  name=f"domino-inference-{self.index}", daemon=True)
        process.start()
        theirs.close()
        self.process, self.pid = process, process.pid
        self._ready_at = None
        sock = socket.socket(fileno=os.dup(ours.fileno()))
        ours.close()
        reader, writer = await asyncio.open_connection(sock=sock)
        self.writer = writer
        self.in_flight.clear()
        self._rebuild()
        watchdog = asyncio.create_task(self._watch(process), name=f"inference-watch-{self.index}")
        try:
            while True:
                body = await receive_bytes(reader)
                CLOCK.enter("belief_in")
                try:
                    self._on_message(decode(body))
                finally:
                    CLOCK.leave()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # the process ended
        finally:
            watchdog.cancel()
            self.writer = None
            self.cpu_of_dead += self.cpu_seconds(live_only=True)
            writer.close()
            await asyncio.to_thread(process.join, 5)
            if process.is_alive():
                process.kill()
                await asyncio.to_thread(process.join, 5)

    async def _watch(self, process: Any) -> None:
        """Kill `process` once it has held a batch unacknowledged for `hang_after` seconds
        since it was sent or the process said it is up, whichever is later, or has not said
        it is up STARTUP_HANGS times that after it started (a spawned interpreter imports
        the games first: slow on a busy machine, not a hang). Its pipe then ends, and `_run`
        starts another, rebuilt from the logs."""
        hang_after = self.owner.hang_after
        started = time.monotonic()
        while True:
            await asyncio.sleep(hang_after / 4)
            now = time.monotonic()
            if self._ready_at is None:
                held, bound = now - started, STARTUP_HANGS * hang_after
            elif self.in_flight:
                held = now - max(min(self.in_flight.values()), self._ready_at)
                bound = hang_after
            else:
                continue
            if held > bound:
                self.hangs += 1
                log("inference_process_hung", shard=self.index, pid=process.pid,
                    ready=self._ready_at is not None, held_seconds=round(held, 1),
                    batches=len(self.in_flight), outbox=len(self.outbox))
                process.kill()
                return

    def cpu_seconds(self, live_only: bool = False) -> float:
        """User + system CPU of this shard's process (Linux /proc), plus its dead ones'."""
        live = 0.0
        if self.pid is not None:
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
                live = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return live if live_only else live + self.cpu_of_dead

    async def stop(self) -> None:
        self._stopping = True
        if self.writer is not None:
            self.writer.close()  # the process sees the end of its pipe and exits
        elif self._task is not None:
            self._task.cancel()  # between two processes (or starting one): nothing to drain
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, timeout=10)


class ProcessInference:
    """Beliefs in N child processes, tables sharded by a stable hash of their id."""

    def __init__(self, bus: Bus, metrics: Metrics, processes: int, games: Registry,
                 hang_after: float = HANG_AFTER) -> None:
        if processes < 1:
            raise ValueError("process inference needs at least one process")
        if not hang_after > 0:
            raise ValueError("hang_after must be > 0 seconds")
        try:  # the registry travels to each process: refuse now, not after a 60 s wait
            pickle.dumps(games)
        except Exception as error:
            raise ValueError(f"the games registry cannot be sent to an inference process "
                             f"({error}): serve with --inference-processes 0") from error
        self.bus = bus
        self.metrics = metrics
        self.games = games
        self.hang_after = hang_after
        self.shards = [Shard(self, index) for index in range(processes)]
        self.round_trip = Window()
        """Per batch: sent to a process -> acknowledged (folded, beliefs sent back)."""

    def shard_of(self, table_id: str) -> Shard:
        return self.shards[partition_of(table_id, len(self.shards))]

    def start(self) -> None:
        for shard in self.shards:
            shard.start()

    async def ready(self, timeout: float = 60.0) -> None:
        """Until every process is up (a spawned interpreter imports the games first: the
        server opens its port after, so no early move waits on a process starting)."""
        async with asyncio.timeout(timeout):
            await asyncio.gather(*(shard.ready.wait() for shard in self.shards))

    async def stop(self) -> None:
        await asyncio.gather(*(shard.stop() for shard in self.shards))

    def attach_table(self, table: ShardedTable) -> Mapping[str, ProcessBelief]:
        return self.shard_of(table.table_id).host(table)

    def stages(self) -> dict[str, dict[str, float]]:
        """Belief lag by stage, for /healthz."""
        return {"batch_round_trip": self.round_trip.summary(),
                "commit_to_belief": self.metrics.inference_lag.summary()}

    def health(self) -> dict[str, Any]:
        """The processes, for /healthz: their CPU is not in the server's `cpu_seconds`."""
        return {"inference_processes": [
            {"pid": s.pid, "tables": len(s.tables), "restarts": s.restarts, "hangs": s.hangs,
             "in_flight": len(s.in_flight), "outbox": len(s.outbox),
             "cpu_seconds": round(s.cpu_seconds(), 3)} for s in self.shards],
            "inference_cpu_seconds": round(sum(s.cpu_seconds() for s in self.shards), 3)}
