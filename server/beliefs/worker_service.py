"""The inference worker process: beliefs for tables that other processes host.

A server publishes "table T advanced to seq N" on `{prefix}/work/T`; the worker pool shares
`$share/workers/{prefix}/work/#`, so each notification reaches one worker. The worker reads
each pending table's stream from the event store after the seq it has already folded (from
scratch when the table is new to it, e.g. after another worker died; one query for all the
tables pending at once), folds each audience's view into its Belief, and publishes every
observer's belief for the head seq, retained. So any worker can serve any notification, and
one that takes over carries on from the store.

Never backwards: per table, a worker publishes only seqs at least as new as its last, and
downstream gates drop anything older than what they delivered (two workers may race).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from pydantic_core import from_json

from games.interface import BeliefModel, Game
from games.registry import GAMES
from games.registry import Registry as Games
from server.beliefs.message import belief_frame
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import WORKER_GROUP, Topics
from server.logs import log
from storage import EventStore, StoredEvent

READ_BATCH = 64
"""Tables processed together: one store read (one round trip) for the whole batch."""
IDLE_SECONDS = 600.0
"""A table not advanced for this long is forgotten (rebuilt from the store if it comes back)."""


@dataclass
class TableBeliefs:
    """One table's beliefs, one per audience, folded up to `folded`."""

    table_id: str
    game: Game | None = None
    """Known from the table's match_started (its `game`; none named: dominoes)."""
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
        seats = game.variants()[variant].seats
        self.beliefs = {audience: game.belief(audience, variant)
                        for audience in (*seats, "spectator")}
        return game


class InferenceService:
    """Consumes work notifications, folds from the store, publishes beliefs."""

    def __init__(self, store: EventStore, link_url: str, topics: Topics, identifier: str,
                 group: str = WORKER_GROUP, games: Games = GAMES) -> None:
        self.store = store
        self.games = games
        self.topics = topics
        self.group = group
        self.link = MqttLink(link_url, identifier, self.on_message)
        self.tables: OrderedDict[str, TableBeliefs] = OrderedDict()
        self._pending: OrderedDict[str, tuple[int, bool]] = OrderedDict()
        self._wake = asyncio.Event()
        self.notifications = 0
        self.beliefs = 0
        self.rebuilds = 0
        self.read_seconds = 0.0
        self.compute_seconds = 0.0

    async def run(self, stop: asyncio.Event) -> None:
        await self.link.start()
        await self.link.subscribe(self.topics.work_shared(self.group), qos=1)
        log("worker_ready", client=self.link.identifier, group=self.group)
        loop_task = asyncio.create_task(self._loop())
        await stop.wait()
        loop_task.cancel()
        await asyncio.gather(loop_task, return_exceptions=True)
        await self.link.stop()
        log("worker_stopped", notifications=self.notifications, beliefs=self.beliefs,
            rebuilds=self.rebuilds, read_s=round(self.read_seconds, 2),
            compute_s=round(self.compute_seconds, 2), cpu_s=round(time.process_time(), 2))

    def on_message(self, topic: str, payload: bytes) -> None:
        with contextlib.suppress(ValueError, KeyError, TypeError):
            data = from_json(payload)
            table_id, seq = str(data["table_id"]), int(data["seq"])
            again = bool(data.get("again"))
            self.notifications += 1
            before, was_again = self._pending.get(table_id, (0, False))
            self._pending[table_id] = (max(seq, before), again or was_again)
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
        wanted: dict[str, int] = {}
        for table_id, (seq, again) in batch.items():
            tables = self.tables.get(table_id)
            if tables is None:
                tables = self.tables[table_id] = TableBeliefs(table_id)
                self.rebuilds += 1
            self.tables.move_to_end(table_id)
            tables.touched = time.monotonic()
            if not tables.broken and (seq > tables.published or again):
                wanted[table_id] = tables.folded
        if not wanted:
            return
        started = time.perf_counter()
        try:
            stored = await asyncio.to_thread(self.store.read_many, wanted)
        except Exception as error:  # a store hiccup
            log("worker_failed", tables=len(wanted), error=repr(error))
            return
        self.read_seconds += time.perf_counter() - started
        for table_id, records in stored.items():
            tables = self.tables.get(table_id)
            if tables is not None:  # (forgotten while we read: nothing to publish to)
                self._publish(tables, records, batch[table_id][0])
                await asyncio.sleep(0)  # read the socket between tables: acks, notifications

    def _publish(self, tables: TableBeliefs, stored: list[StoredEvent], seq: int) -> None:
        """Fold `stored` into every audience's belief and publish each, retained."""
        started = time.perf_counter()
        table_id = tables.table_id
        if tables.folded + len(stored) < seq:
            return  # not visible yet: the notification overtook the commit (cannot happen
            # with a committed-then-published server; kept as a guard), the watchdog re-asks
        try:
            for record in stored:
                game = tables.game or tables.start(record.payload, self.games)
                event = game.parse_event(record.payload)
                for audience, belief in tables.beliefs.items():
                    belief.apply(game.view(event, audience))
                tables.folded = event.seq
                tables.finished = event.type == "match_ended"
            if tables.folded == 0 or tables.folded < tables.published:
                return
            frames = [(audience, belief_frame(table_id, belief.snapshot_dict()))
                      for audience, belief in tables.beliefs.items()]
        except Exception as error:
            tables.broken = True
            log("inference_failed", table=table_id, error=repr(error))
            return
        for audience, frame in frames:
            self.link.publish(self.topics.beliefs(table_id, audience), frame, qos=1, retain=True)
        tables.published = tables.folded
        self.compute_seconds += time.perf_counter() - started
        self.beliefs += len(frames)

    def _forget_idle(self) -> None:
        now = time.monotonic()
        idle = [t for t, b in self.tables.items()
                if now - b.touched > (60.0 if b.finished else IDLE_SECONDS)]
        for table_id in idle:
            del self.tables[table_id]
