"""The server's side of out-of-process inference: tell the worker pool a table advanced.

Stands in for InProcessInference when the server runs with --mqtt. After each commit the table's
events reach this module through the bus; it publishes a `{"table_id", "seq"}` work
notification (QoS 0: topics.WORK_QOS) and watches the beliefs coming back. At most IN_FLIGHT
notifications per table are in flight at a time: events committed meanwhile wait, and when
a round's beliefs are all back, one notification asks for the table's head. So under load
beliefs skip seqs (as in-process inference's coalescing does) instead of queueing without bound in
the broker and in the server's socket: the beliefs in flight are at most 2 x 5 per table.
A watchdog re-notifies when some observer's belief has not reached the seq within
`retry_after` seconds (a worker died holding the notification, a message was lost in a
reconnection): the store has everything, so asking again is always safe.

Only watched audiences get beliefs (issue 15): a notification names the audiences someone
follows (`"watch"`: a connection here subscribed to its beliefs, or another server's
follower marker on the bus) when that is not all of them, and the worker folds every
audience but snapshots and publishes only those. A bot's seat, or the public at a table
nobody spectates, costs a fold, not a belief. When an audience gains its first watcher the
table is re-asked (`again`) so its belief for the head comes at once; until then its
retained belief may be older than the head, which is why a connection attaching to an
unwatched audience skips the retained copy (the `stale` of its handle) and waits for the
fresh one.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from typing import Any, Protocol

from server.feeds.bus import Bus, Envelope, Unsubscribe
from server.feeds.mqtt_bus import MqttBus
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import WORK_QOS, Topics
from server.metrics import Metrics, Window
from server.table_game import TableGame

IN_FLIGHT = 2
"""Notifications per table whose beliefs are not all back. One made an event committed
during a round wait for that round's end before its own began (commit -> notify p99 340 ms
of 500 at 10 tables, issue 15): two let the next round start at once, and the worker
still coalesces whatever is queued when it wakes."""
CARRY_MAX = 64
"""A notification carries the events since the last one (the worker then folds without
reading the store) when they are at most this many; more (a recovered table), it reads."""


class WatchedTable(Protocol):
    """What remote inference needs of a table: its id, its game's audiences, its head seq,
    and its referee log (the events a notification carries to the worker)."""

    table_id: str
    game: TableGame
    log: list[Any]

    @property
    def last_seq(self) -> int: ...


class _Watch:
    """One table's outstanding work: what seq was asked for, what came back."""

    def __init__(self, table: WatchedTable) -> None:
        self.table = table
        self.latest = dict.fromkeys(table.game.audiences, 0)
        self.stamps: deque[tuple[int, float]] = deque()
        self.notified_seq = 0
        self.carried = 0
        """The newest seq whose event a notification carried (the next carries the rest)."""
        """The newest seq a notification has covered (for the commit -> notify stage)."""
        self.notified: deque[tuple[int, float]] = deque()
        """(seq, when) of notifications whose beliefs have not all come back."""
        self.timer: asyncio.TimerHandle | None = None
        self.tries = 0
        self.unsubscribers: list[Unsubscribe] = []
        self.watching: frozenset[str] = frozenset(table.game.audiences)
        """The audiences the last notification asked beliefs for (someone follows them)."""

    def behind(self, seq: int) -> bool:
        """Some watched audience's belief is older than `seq`."""
        return any(self.latest[audience] < seq for audience in self.watching)

    def busy(self) -> bool:
        """IN_FLIGHT notifications are still waiting for beliefs: the next one waits."""
        return len(self.notified) >= IN_FLIGHT

    def floor(self) -> int:
        """The seq every watched audience's belief has reached."""
        return min((self.latest[a] for a in self.watching), default=self.notified_seq)


class _Handle:
    """What a Table holds per audience in place of an in-process BeliefWorker."""

    def __init__(self, remote: RemoteInference, table_id: str, audience: str,
                 stop: bool) -> None:
        self.remote, self.table_id, self.audience = remote, table_id, audience
        self._owns_stop = stop

    @property
    def stale(self) -> bool:
        """Nobody watched this audience, and its last belief is older than the head (a
        connection attaching now skips that retained belief and waits for `refresh`)."""
        return self.remote.stale(self.table_id, self.audience)

    def refresh(self) -> None:
        self.remote.refresh(self.table_id)

    def stop(self) -> None:
        if self._owns_stop:
            self.remote.detach(self.table_id)


class RemoteInference:
    def __init__(self, bus: Bus, link: MqttLink, topics: Topics, metrics: Metrics,
                 retry_after: float = 2.0) -> None:
        self.bus = bus
        self.link = link
        self.topics = topics
        self.metrics = metrics
        self.retry_after = retry_after
        self.notifications = 0
        self.retries = 0
        self._watches: dict[str, _Watch] = {}
        self._due: dict[str, tuple[int, bool]] = {}
        self.commit_to_notify = Window()
        """Per event: committed (on the bus) -> its table's work notification published."""
        self.notify_to_beliefs = Window()
        """Per notification: published -> every watched observer's belief for it back here
        (the broker both ways, the worker's queue, store read, fold and publish)."""
        if isinstance(bus, MqttBus):  # the bus that tells when a follower comes
            bus.on_follow = self.refresh

    def stages(self) -> dict[str, dict[str, float]]:
        """Belief lag by stage, for /healthz (what a slow stage is called)."""
        return {"commit_to_notify": self.commit_to_notify.summary(),
                "notify_to_all_beliefs": self.notify_to_beliefs.summary(),
                "commit_to_all_beliefs": self.metrics.inference_lag.summary()}

    def start(self) -> None:
        pass

    async def stop(self) -> None:
        for table_id in list(self._watches):
            self.detach(table_id)

    def attach_table(self, table: WatchedTable) -> dict[str, _Handle]:
        """Follow `table`: notify on every seq, measure and watch the beliefs coming back."""
        table_id = table.table_id
        watch = self._watches[table_id] = _Watch(table)
        watch.unsubscribers.append(
            self.bus.subscribe(table_id, "spectator", "event", self._on_event))
        audiences = table.game.audiences
        for observer in audiences:
            watch.unsubscribers.append(
                self.bus.subscribe(table_id, observer, "belief", self._on_belief))
        if table.last_seq:
            self.notify(table_id, table.last_seq, again=True)  # recovered: catch the workers up
        return {audience: _Handle(self, table_id, audience, audience == "spectator")
                for audience in audiences}

    def watched(self, table: WatchedTable) -> frozenset[str]:
        """The audiences someone follows: a belief subscriber here besides our own, or
        another node's follower marker (a bus that cannot tell: every audience)."""
        count = getattr(self.bus, "subscriber_count", None)
        followers = getattr(self.bus, "followers", None)
        if count is None or followers is None:
            return frozenset(table.game.audiences)
        table_id = table.table_id
        return frozenset(a for a in table.game.audiences
                         if count(table_id, a, "belief") > 1 or followers(table_id, a))

    def stale(self, table_id: str, audience: str) -> bool:
        watch = self._watches.get(table_id)
        return (watch is not None and audience not in watch.watching
                and watch.latest.get(audience, 0) < watch.table.last_seq)

    def detach(self, table_id: str) -> None:
        watch = self._watches.pop(table_id, None)
        if watch is not None:
            for unsubscribe in watch.unsubscribers:
                unsubscribe()
            if watch.timer is not None:
                watch.timer.cancel()

    def refresh(self, table_id: str) -> None:
        """Someone started listening: make sure a belief for the head seq is on its way."""
        watch = self._watches.get(table_id)
        if watch is None:
            return
        watch.watching = self.watched(watch.table)
        if watch.behind(watch.table.last_seq):
            self.notify(table_id, watch.table.last_seq, again=True)

    # -- notifications -------------------------------------------------------------------

    def _on_event(self, envelope: Envelope) -> None:
        watch = self._watches.get(envelope.table_id)
        if watch is not None:
            watch.stamps.append((envelope.seq, envelope.stamp))
            if watch.busy():
                return  # enough notifications in flight: their beliefs will ask for more
        self.notify(envelope.table_id, envelope.seq)

    def notify(self, table_id: str, seq: int, *, again: bool = False) -> None:
        """Publish work for `table_id` at the end of this loop turn (one per table per turn).

        `again`: the workers should publish even if they already did for this seq.
        """
        if not self._due:
            asyncio.get_running_loop().call_soon(self._flush)
        before, was_again = self._due.get(table_id, (0, False))
        self._due[table_id] = (max(seq, before), again or was_again)

    def _flush(self) -> None:
        due, self._due = self._due, {}
        now = time.monotonic()
        for table_id, (seq, again) in due.items():
            watch = self._watches.get(table_id)
            message: dict[str, object] = {"table_id": table_id, "seq": seq,
                                          "t": round(time.time(), 4)}
            if again:
                message["again"] = True
            if watch is not None:
                watch.watching = self.watched(watch.table)
                audiences = watch.table.game.audiences
                if len(watch.watching) < len(audiences):
                    message["watch"] = [a for a in audiences if a in watch.watching]
                self._carry(watch, seq, message)
            payload = json.dumps(message)
            self.link.publish(self.topics.work(table_id), payload, qos=WORK_QOS)
            self.notifications += 1
            if watch is not None:
                for stamped_seq, stamp in watch.stamps:
                    if watch.notified_seq < stamped_seq <= seq:
                        self.commit_to_notify.add((now - stamp) * 1000.0)
                watch.notified_seq = max(watch.notified_seq, seq)
                if watch.watching:
                    self._arm(watch, seq)
                    watch.notified.append((seq, now))
                else:  # no belief will come back: nobody waits for one
                    while watch.stamps and watch.stamps[0][0] <= seq:
                        watch.stamps.popleft()

    def _carry(self, watch: _Watch, seq: int, message: dict[str, object]) -> None:
        """Put the events after the last carried one, up to `seq`, into `message`: the
        worker holding the table then folds them as they are, without a store read. (They
        are the referee's events: the work topics are for servers and workers only.)"""
        log = watch.table.log
        first = watch.carried + 1
        if seq < first or len(log) < seq:
            return
        if seq - first >= CARRY_MAX:  # too many: the worker reads them; carry from here on
            watch.carried = seq
            return
        events = log[first - 1:seq]
        if getattr(events[0], "seq", first) != first or getattr(events[-1], "seq", seq) != seq:
            return  # not a log indexed by seq: the worker reads the store
        to_dict = watch.table.game.game.event_to_dict
        message["from"] = first
        message["events"] = [to_dict(event) for event in events]
        watch.carried = seq

    def _arm(self, watch: _Watch, seq: int) -> None:
        if watch.timer is not None:
            watch.timer.cancel()
        delay = min(30.0, self.retry_after * (2 ** min(watch.tries, 4)))
        watch.timer = asyncio.get_running_loop().call_later(delay, self._check, watch, seq)

    def _check(self, watch: _Watch, seq: int) -> None:
        watch.timer = None
        table_id = watch.table.table_id
        if self._watches.get(table_id) is not watch or not watch.behind(seq):
            watch.tries = 0
            return
        watch.tries += 1
        self.retries += 1
        self.notify(table_id, max(seq, watch.table.last_seq), again=True)

    # -- beliefs coming back -------------------------------------------------------------

    def _on_belief(self, envelope: Envelope) -> None:
        watch = self._watches.get(envelope.table_id)
        if watch is None:
            return
        watch.latest[envelope.audience] = max(watch.latest[envelope.audience], envelope.seq)
        floor = watch.floor()
        now = time.monotonic()
        while watch.stamps and watch.stamps[0][0] <= floor:
            _, stamp = watch.stamps.popleft()
            self.metrics.inference_lag.add((now - stamp) * 1000.0)
            self.metrics.beliefs += 1
        while watch.notified and watch.notified[0][0] <= floor:
            _, notified_at = watch.notified.popleft()
            self.notify_to_beliefs.add((now - notified_at) * 1000.0)
        head = watch.table.last_seq
        if not watch.behind(head):
            watch.tries = 0
        elif watch.notified_seq < head and not watch.busy():
            self.notify(envelope.table_id, head)  # moved on meanwhile
