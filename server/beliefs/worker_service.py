"""The inference worker process: beliefs for tables that other processes host.

Tables are partitioned (`partition_of`, P partitions) and each partition is held by one
worker, by lease (server/cluster/partitions.py, handed in as `Partitions`). A server
publishes "table T advanced to seq N" on `{prefix}/work/{partition}/T`; a worker subscribes
only to its own partitions' topics, so every table is folded by one worker, in memory: it
reads each pending table's stream from the event store after the seq it has already folded
(one query for all the tables pending at once), folds each audience's view into its Belief,
and publishes every followed observer's belief for the head seq, retained (a notification
may name the followed audiences: the others are folded, not snapshotted). Nothing is read
twice.
A worker that gains a partition (start-up, a worker died or joined) rebuilds that
partition's open tables from the store once, at once, without waiting to be asked; one that
loses a partition forgets its tables.

Never backwards: per table, a worker publishes only seqs at least as new as its last, and
downstream gates drop anything older than what they delivered (two workers may race).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic_core import from_json

from games.interface import BeliefModel, Game, match_seats
from games.registry import GAMES
from games.registry import Registry as Games
from protocol.frames import belief_frame
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import BELIEF_QOS, WORK_QOS, Topics, partition_of
from server.logs import log
from server.metrics import Window
from storage import EventStore

READ_BATCH = 64
"""Tables processed together: one store read (one round trip) for the whole batch."""
IDLE_SECONDS = 600.0
"""A table not advanced for this long is forgotten (rebuilt from the store if it comes back)."""


class LeaseRound(Protocol):
    @property
    def held(self) -> frozenset[int]: ...

    @property
    def live_workers(self) -> tuple[str, ...]: ...


class Partitions(Protocol):
    """Who holds which partitions (server/cluster/partitions.py's PartitionLeases; blocking
    calls, run in a thread)."""

    ttl: float
    partitions: int

    def round(self) -> LeaseRound: ...

    def open_tables(self, partitions: frozenset[int]) -> list[str]: ...

    def resign(self) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class _AllPartitions:
    held: frozenset[int]
    live_workers: tuple[str, ...] = ()


class SoleWorker:
    """No leases (a SQLite store, one worker): this worker holds every partition."""

    def __init__(self, partitions: int) -> None:
        self.ttl = 5.0
        self.partitions = partitions

    def round(self) -> LeaseRound:
        return _AllPartitions(frozenset(range(self.partitions)))

    def open_tables(self, partitions: frozenset[int]) -> list[str]:
        return []  # without table leases nothing says which tables are live

    def resign(self) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class TableBeliefs:
    """One table's beliefs, one per audience, folded up to `folded`."""

    table_id: str
    game: Game | None = None
    """Known from the table's match_started (its `game`; none named: the default game)."""
    beliefs: dict[str, BeliefModel] = field(default_factory=dict)
    folded: int = 0
    published: int = 0
    broken: bool = False
    finished: bool = False
    touched: float = field(default_factory=time.monotonic)

    def start(self, match_started: dict[str, object], games: Games) -> Game:
        """The first event names the game and variant: one belief per audience of it."""
        game = self.game = games.game(str(match_started.get("game") or "") or None)
        variant = str(match_started.get("variant"))
        seats = match_seats(game, match_started)  # a table option may have changed them
        self.beliefs = {audience: game.belief(audience, variant)
                        for audience in (*seats, "spectator")}
        return game


class InferenceService:
    """Holds partitions, consumes their work notifications, folds from the store, publishes."""

    def __init__(self, store: EventStore, link_url: str, topics: Topics, identifier: str,
                 partitions: Partitions | None = None, games: Games = GAMES) -> None:
        """`partitions`: the leases; none: this worker holds them all (a single worker)."""
        self.store = store
        self.games = games
        self.topics = topics
        self.partitions = partitions or SoleWorker(topics.partitions)
        if self.partitions.partitions != topics.partitions:
            raise ValueError("the leases and the topics must count the same partitions")
        self.link = MqttLink(link_url, identifier, self.on_message)
        self.link.after_read = self._process_ready
        self.tables: OrderedDict[str, TableBeliefs] = OrderedDict()
        self._pending: OrderedDict[str, tuple[int, bool]] = OrderedDict()
        self._wake = asyncio.Event()
        self.held: frozenset[int] = frozenset()
        self.notifications = 0
        self.foreign = 0
        """Notifications for a partition we no longer hold (in flight during a hand-over)."""
        self.beliefs = 0
        self.rebuilds = 0
        self.folds = 0
        """Events folded, once per audience: the figure that shows nothing is folded twice."""
        self.gained = 0
        self.read_seconds = 0.0
        self.compute_seconds = 0.0
        self._received: dict[str, float] = {}
        self._carried: dict[str, dict[int, dict[str, Any]]] = {}
        """Events (payloads by seq) that notifications carried, not folded yet."""
        self.reads = 0
        """Store reads (one per batch that needed one): rebuilds and gaps, not steady play."""
        self._reading: set[str] = set()
        """Tables whose store read is under way (not served from a read of the link meanwhile:
        the read's events would be folded twice)."""
        self._watching: dict[str, frozenset[str]] = {}
        """Per table, the audiences its last notification named as followed (none named:
        all): the others are folded but get no snapshot and no belief."""
        self.skipped = 0
        """Snapshots not taken: audience-updates nobody followed."""
        self.stages = {name: Window() for name in ("transit", "queue", "read", "fold")}
        """Belief lag at this worker, by stage (ms): the notification's trip from the server
        (wall clocks: exact on one machine, skewed across machines), waiting here for its
        turn, the store read of its batch, the fold + snapshot + hand-off of its table."""

    async def run(self, stop: asyncio.Event) -> None:
        await self.link.start()
        await self._lease_round()
        log("worker_ready", client=self.link.identifier, partitions=len(self.held),
            cpu_s=round(time.process_time(), 3))
        tasks = [asyncio.create_task(self._loop()), asyncio.create_task(self._leasing(stop))]
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):  # let the others take over now, not in a lease
            await asyncio.to_thread(self.partitions.resign)
        self.partitions.close()
        await self.link.stop()
        log("worker_stopped", notifications=self.notifications, beliefs=self.beliefs,
            folds=self.folds, skipped=self.skipped, rebuilds=self.rebuilds, reads=self.reads,
            partitions=len(self.held),
            gained=self.gained, foreign=self.foreign, mqtt_published=self.link.published,
            mqtt_dropped=self.link.dropped, read_s=round(self.read_seconds, 2),
            compute_s=round(self.compute_seconds, 2), cpu_s=round(time.process_time(), 3),
            **{f"{name}_{q}_ms": window.summary()[q] for name, window in self.stages.items()
               for q in ("p50", "p99")})

    # -- partitions ----------------------------------------------------------------------

    async def _leasing(self, stop: asyncio.Event) -> None:
        """A lease round every third of a lease: renew, take over, hand over."""
        while not stop.is_set():
            await asyncio.sleep(self.partitions.ttl / 3)
            try:
                await self._lease_round()
            except Exception as error:  # a database hiccup: the next round tries again
                log("worker_lease_failed", error=repr(error))
            self._forget_idle()  # (the loop only wakes for store reads now)

    async def _lease_round(self) -> None:
        held = (await asyncio.to_thread(self.partitions.round)).held
        gained, lost = held - self.held, self.held - held
        for partition in sorted(lost):
            await self.link.unsubscribe(self.topics.work_partition(partition))
        self.held = held
        if lost:
            self._forget_partitions(lost)
        for partition in sorted(gained):  # subscribed first, then read: nothing between
            await self.link.subscribe(self.topics.work_partition(partition), qos=WORK_QOS)
        if gained:
            self.gained += len(gained)
            tables = await asyncio.to_thread(self.partitions.open_tables, gained)
            for table_id in tables:  # rebuilt from the store once, now
                self._want(table_id, 0, True)
        if gained or lost:
            log("worker_partitions", client=self.link.identifier, held=len(held),
                gained=len(gained), lost=len(lost))

    def _forget_partitions(self, lost: Collection[int]) -> None:
        count = self.topics.partitions
        for store in (self.tables, self._pending, self._received, self._carried,
                      self._watching):
            for table_id in [t for t in store if partition_of(t, count) in lost]:
                del store[table_id]

    # -- work ----------------------------------------------------------------------------

    def on_message(self, topic: str, payload: bytes) -> None:
        with contextlib.suppress(ValueError, KeyError, TypeError):
            data = from_json(payload)
            table_id, seq = str(data["table_id"]), int(data["seq"])
            self.notifications += 1
            if partition_of(table_id, self.topics.partitions) not in self.held:
                self.foreign += 1
                return
            if "t" in data:
                self.stages["transit"].add(max(0.0, time.time() - float(data["t"])) * 1000.0)
            self._received.setdefault(table_id, time.monotonic())
            watch = data.get("watch")
            if watch is None:
                self._watching.pop(table_id, None)
            else:  # only these audiences are followed: fold all, snapshot these
                self._watching[table_id] = frozenset(str(a) for a in watch)
            events = data.get("events")
            if events:
                first = int(data["from"])
                self._carried.setdefault(table_id, {}).update(
                    {first + i: event for i, event in enumerate(events)})
            self._want(table_id, seq, bool(data.get("again")), wake=False)

    def _want(self, table_id: str, seq: int, again: bool, *, wake: bool = True) -> None:
        """Mark the table due; `wake`: now, by the loop (a notification waits for the end of
        its read instead, `_process_ready`)."""
        before, was_again = self._pending.get(table_id, (0, False))
        self._pending[table_id] = (max(seq, before), again or was_again)
        if wake:
            self._wake.set()

    def _process_ready(self) -> None:
        """After a read of the link's socket: every due table whose notifications carried
        the events is folded and published now, in this loop turn (its beliefs leave in the
        same send as the read's end); the rest (store reads) go to the loop."""
        batch = {t: due for t, due in self._pending.items() if t not in self._reading}
        if not batch:
            return
        for table_id in batch:  # (a table being read stays due: the loop serves it after)
            del self._pending[table_id]
        wanted = self._serve(batch)
        for table_id in wanted:
            self._pending[table_id] = batch[table_id]
        if wanted:
            self._wake.set()

    async def _loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:  # a batch of tables: one store read for all of them
                batch = dict(self._pending.popitem(last=False)
                             for _ in range(min(READ_BATCH, len(self._pending))))
                await self.process(batch)
            self._forget_idle()

    async def process(self, batch: dict[str, tuple[int, bool]]) -> None:
        """Fold each table up to the store's head (at least its seq) and publish its beliefs.

        `batch` maps a table to (seq, again). A seq we already published is skipped, unless
        the server asks `again` (it has not seen that belief: lost, or overwritten by a slower
        worker's older one). A failed read is logged; the server's watchdog asks again.
        """
        wanted = self._serve(batch)
        if wanted:
            self.reads += 1
            await self._read(batch, wanted)

    def _serve(self, batch: dict[str, tuple[int, bool]]) -> dict[str, int]:
        """Publish every table of `batch` that needs no store read; return the others (each
        with the seq it has folded: the read starts after it)."""
        wanted: dict[str, int] = {}
        now = time.monotonic()
        for table_id in batch:
            received = self._received.pop(table_id, None)
            if received is not None:
                self.stages["queue"].add((now - received) * 1000.0)
        for table_id, (seq, again) in batch.items():
            if partition_of(table_id, self.topics.partitions) not in self.held:
                continue  # handed over since it was asked for
            tables = self.tables.get(table_id)
            if tables is None:
                tables = self.tables[table_id] = TableBeliefs(table_id)
                self.rebuilds += 1
            self.tables.move_to_end(table_id)
            tables.touched = time.monotonic()
            if not tables.broken and (seq > tables.published or again):
                if again and 0 < seq <= tables.folded:  # folded already: publish, no read
                    self._publish(tables, [], seq)
                    continue
                carried = self._take_carried(table_id, tables.folded, seq)
                if carried is None:
                    wanted[table_id] = tables.folded
                else:  # the notification brought the events: no store read
                    self._publish(tables, carried, seq)
        return wanted

    async def _read(self, batch: dict[str, tuple[int, bool]], wanted: dict[str, int]) -> None:
        started = time.perf_counter()
        self._reading = set(wanted)
        try:
            stored = await asyncio.to_thread(self.store.read_many, wanted)
        except Exception as error:  # a store hiccup
            log("worker_failed", tables=len(wanted), error=repr(error))
            self._reading = set()
            return
        self.read_seconds += time.perf_counter() - started
        self.stages["read"].add((time.perf_counter() - started) * 1000.0)
        try:
            for table_id, records in stored.items():
                tables = self.tables.get(table_id)
                self._carried.pop(table_id, None)
                if tables is not None:  # (forgotten while we read: nothing to publish to)
                    self._publish(tables, [r.payload for r in records if r.seq > tables.folded],
                                  batch[table_id][0])
                    self._reading.discard(table_id)
                    await asyncio.sleep(0)  # read the socket between tables: notifications
        finally:
            self._reading = set()

    def _take_carried(self, table_id: str, folded: int,
                      seq: int) -> list[dict[str, Any]] | None:
        """The events after `folded` up to at least `seq`, if the notifications carried
        them all (else None: the store fills the gap, e.g. a lost notification, a rebuild)."""
        carried = self._carried.get(table_id)
        if not carried:
            return None
        for old in [s for s in carried if s <= folded]:
            del carried[old]
        events: list[dict[str, Any]] = []
        while folded + 1 + len(events) in carried:
            events.append(carried.pop(folded + 1 + len(events)))
        if folded + len(events) < seq:
            carried.update({folded + 1 + i: e for i, e in enumerate(events)})
            return None
        return events

    def _publish(self, tables: TableBeliefs, stored: list[dict[str, Any]], seq: int) -> None:
        """Fold the events `stored` (payloads) into every audience's belief and publish
        each, retained."""
        started = time.perf_counter()
        table_id = tables.table_id
        if tables.folded + len(stored) < seq:
            return  # not visible yet: the notification overtook the commit (cannot happen
            # with a committed-then-published server; kept as a guard), the watchdog re-asks
        try:
            for payload in stored:
                game = tables.game or tables.start(payload, self.games)
                event = game.parse_event(payload)
                for audience, belief in tables.beliefs.items():
                    belief.apply(game.view(event, audience))
                self.folds += len(tables.beliefs)
                tables.folded = event.seq
                tables.finished = event.type == "match_ended"
            if tables.folded == 0 or tables.folded < tables.published:
                return
            watching = self._watching.get(table_id)
            frames = [(audience, belief_frame(table_id, belief.snapshot_dict()))
                      for audience, belief in tables.beliefs.items()
                      if watching is None or audience in watching]
            self.skipped += len(tables.beliefs) - len(frames)
        except Exception as error:
            tables.broken = True
            log("inference_failed", table=table_id, error=repr(error))
            return
        for audience, frame in frames:
            self.link.publish(self.topics.beliefs(table_id, audience), frame, qos=BELIEF_QOS,
                              retain=True)
        tables.published = tables.folded
        self.compute_seconds += time.perf_counter() - started
        self.stages["fold"].add((time.perf_counter() - started) * 1000.0)
        self.beliefs += len(frames)

    def _forget_idle(self) -> None:
        now = time.monotonic()
        idle = [t for t, b in self.tables.items()
                if now - b.touched > (60.0 if b.finished else IDLE_SECONDS)]
        for table_id in idle:
            del self.tables[table_id]
            self._carried.pop(table_id, None)
            self._watching.pop(table_id, None)
