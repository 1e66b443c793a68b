"""The bus over MQTT: same interface as InProcessBus, topics shared by every server and worker.

Local subscribers are served synchronously, exactly as in-process (the owner's sessions and
bots never wait for the broker); a table with local subscribers is subscribed to on the
broker (`no_local`, so a server does not hear its own publishes back).

The broker carries an audience's frames only while another process follows that audience
(issue 15: with one server, publishing every event once per audience to a broker nobody
read was 42% of the server's main thread). A process with local subscribers to an
audience's events says so with a retained marker, `tables/T/followers/A/NODE` (set on the
first subscriber, cleared on the last); a publish for (T, A) goes to the broker (events
QoS 0, see EVENT_QOS; beliefs QoS 1 and retained) only while some other node's marker is
set. No follower is left stale: the follower subscribes before it reads the store, and the
publisher, on a marker it had not seen, republishes the latest frame it published (or
withheld) for that audience. Markers reaching the publisher before the follower's store
read are covered by the read; markers reaching it after are covered by the republish (a
seq past the follower's last makes its gate fill the gap from the store); every commit
after the marker is published. A follower that dies leaves its marker: the owner then
publishes for nobody until the table retires (forget clears the table's markers); markers
are set again on every reconnection, so a broker that lost its retained messages learns
them back. Whatever
arrives, from here or from the broker, passes one gate per (table, audience, kind): a seq
already delivered, or older, is dropped, so duplicates (QoS 1 redelivery, two workers
racing, an owner change) never reach a connection and beliefs only move forward.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable

from pydantic_core import from_json

from games.interface import Game
from server.feeds.bus import Envelope, Handler, Kind, Unsubscribe
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import Topics
from server.logs import log

Key = tuple[str, str, str]
_SEQ = re.compile(rb'^\{"type":"(?:event|belief)","table_id":"([A-Za-z0-9_-]+)","seq":(\d+)')
SEQ_WINDOW = 10_000
"""How far past the last delivered seq a message may be (a table never jumps that far)."""
SUBSCRIBE_QOS = 0
"""A server takes its tables' topics at QoS 0: the broker's per-client window of unacked
QoS 1 messages (Mosquitto: 20) throttled a busy server to ~20 beliefs per loop turn. A
belief lost on the way is re-requested by the watchdog (RemoteInference) and is retained;
a lost event is filled from the store."""
EVENT_QOS = 0
"""Events: at most once. The store is their durable channel and every remote reader fills
gaps from it (RemoteTable's gate); QoS 1 adds an acknowledgement and per-message bookkeeping
in paho/aiomqtt (a profile showed aiomqtt scanning its in-flight set on every PUBACK) to
five messages per event, for no guarantee the store does not already give."""


class MqttBus:
    def __init__(self, link: MqttLink, topics: Topics, node: str | None = None) -> None:
        self.link = link
        self.topics = topics
        self.node = node or link.identifier
        """This process's name in follower markers (its own markers are not followers)."""
        self._followers: dict[tuple[str, str], set[str]] = {}
        """(table, audience) -> the other nodes whose marker says they follow it."""
        self._following: dict[tuple[str, str], int] = {}
        """(table, audience) -> local event subscribers here (our marker is set while > 0)."""
        self._sent: dict[Key, tuple[Envelope, bool]] = {}
        """The latest frame published here per topic (and its retain flag), sent to the
        broker or withheld: republished when a new follower appears."""
        self.published = 0
        """Frames handed to the broker by publish (and republished for new followers)."""
        self.withheld = 0
        """Frames publish kept off the broker: no other process followed their audience."""
        self.on_follow: Callable[[str], None] | None = None
        """Called with the table's id when another node starts following one of its
        audiences (remote inference then asks the workers for that audience's belief)."""
        link.on_connect = self._announce
        self._subscribers: dict[Key, dict[int, Handler]] = {}
        self._retained: dict[Key, Envelope] = {}
        self._last: dict[Key, int] = {}
        self._table_refs: dict[str, int] = {}
        self._subscribing: dict[str, asyncio.Task[None]] = {}
        self._next_id = 0
        self._games: dict[str, Game] = {}
        self.duplicates = 0
        self.unknown_game = 0
        """Events dropped because nobody here named the table's game (no reader follows it)."""
        self.mismatched = 0
        """Messages whose table (or a belief's observer) is not the one their topic names."""
        self.out_of_window = 0
        """Messages dropped for a seq too far ahead of the last one delivered (a forged
        seq 10^9 would otherwise make every later real one look like a duplicate)."""

    # -- the Bus interface ---------------------------------------------------------------

    def publish(self, envelope: Envelope, *, retain: bool = False) -> None:
        if not self._deliver(envelope, retain=retain):
            return
        self._sent[(envelope.table_id, envelope.audience, envelope.kind)] = (envelope, retain)
        if self._followers.get((envelope.table_id, envelope.audience)):
            self._send(envelope, retain)
        else:
            self.withheld += 1

    def _send(self, envelope: Envelope, retain: bool) -> None:
        topic = (self.topics.events if envelope.kind == "event" else self.topics.beliefs)(
            envelope.table_id, envelope.audience
        )
        self.link.publish(topic, envelope.frame, qos=EVENT_QOS if envelope.kind == "event" else 1,
                          retain=retain)
        self.published += 1

    def subscribe(self, table_id: str, audience: str, kind: Kind, handler: Handler) -> Unsubscribe:
        key = (table_id, audience, kind)
        self._next_id += 1
        token = self._next_id
        self._subscribers.setdefault(key, {})[token] = handler
        self._ref(table_id, +1)
        if kind == "event":
            self._follow(table_id, audience, +1)
        retained = self._retained.get(key)
        if retained is not None:
            handler(retained)
        done = False

        def unsubscribe() -> None:
            nonlocal done
            if done:
                return
            done = True
            handlers = self._subscribers.get(key)
            if handlers is not None:
                handlers.pop(token, None)
                if not handlers:
                    del self._subscribers[key]
            if kind == "event":
                self._follow(table_id, audience, -1)
            self._ref(table_id, -1)

        return unsubscribe

    def has_subscribers(self, table_id: str, audience: str, kind: Kind) -> bool:
        return bool(self._subscribers.get((table_id, audience, kind)))

    def subscriber_count(self, table_id: str, audience: str, kind: Kind) -> int:
        return len(self._subscribers.get((table_id, audience, kind), ()))

    def retained(self, table_id: str, audience: str, kind: Kind) -> Envelope | None:
        return self._retained.get((table_id, audience, kind))

    def host(self, table_id: str, game: Game) -> None:
        self._games[table_id] = game

    def forget(self, table_id: str, audiences: tuple[str, ...]) -> None:
        """A retired table: drop its state here and its retained beliefs on the broker."""
        for store in (self._subscribers, self._retained, self._last, self._sent):
            for key in [k for k in store if k[0] == table_id]:
                del store[key]
        self._games.pop(table_id, None)
        for observer in audiences:
            self.link.publish(self.topics.beliefs(table_id, observer), b"", qos=1, retain=True)
        markers = {(a, n) for (t, a), nodes in self._followers.items() if t == table_id
                   for n in nodes}
        markers |= {(a, self.node) for (t, a) in self._following if t == table_id}
        for audience, node in sorted(markers):
            self.link.publish(self.topics.follower(table_id, audience, node), b"", qos=1,
                              retain=True)
        for followed in (self._followers, self._following):
            for pair in [p for p in followed if p[0] == table_id]:
                del followed[pair]
        if self._table_refs.pop(table_id, 0) > 0:
            self._spawn_unsubscribe(table_id)

    # -- the broker side -----------------------------------------------------------------

    async def ensure_subscribed(self, table_id: str) -> None:
        """Wait until the broker confirmed our subscription to the table's topics."""
        task = self._subscribing.get(table_id)
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)

    def on_message(self, topic: str, payload: bytes) -> None:
        """From the link: a table topic's message, turned back into an Envelope."""
        marker = self.topics.parse_follower_topic(topic)
        if marker is not None:
            self._on_marker(*marker, following=bool(payload))
            return
        parsed = self.topics.parse_table_topic(topic)
        if parsed is None or not payload:
            return  # not ours, or a cleared retained message
        table_id, kind, audience = parsed
        key = (table_id, audience, kind)
        if key not in self._subscribers:
            return
        found = _SEQ.search(payload, 0, 200)  # our frames put the message's seq up front
        if found:
            seq, named = int(found.group(2)), found.group(1).decode()
            observer = audience if kind == "event" or (
                b'"observer":"' + audience.encode() + b'"') in payload[:400] else None
        else:
            data = from_json(payload)
            seq, named = int(data["seq"]), data.get("table_id")
            observer = audience if kind == "event" else data.get("observer")
        if named != table_id or observer != audience:  # not the message its topic names
            self.mismatched += 1
            log("mqtt_topic_mismatch", topic=topic, table=named, observer=observer)
            return
        last = self._last.get(key)
        if last is not None and seq > last + SEQ_WINDOW:
            self.out_of_window += 1
            log("mqtt_seq_out_of_window", table=table_id, audience=audience, kind=kind,
                seq=seq, last=last)
            return
        if seq <= self._last.get(key, -1):
            self.duplicates += 1
            return
        event = None
        if kind == "event":
            game = self._games.get(table_id)
            if game is None:
                self.unknown_game += 1
                return
            event = game.parse_event(from_json(payload)["event"])
        envelope = Envelope(table_id, audience, kind, seq, payload.decode(), event)
        self._deliver(envelope, retain=kind == "belief")

    def _deliver(self, envelope: Envelope, *, retain: bool) -> bool:
        key = (envelope.table_id, envelope.audience, envelope.kind)
        if envelope.seq <= self._last.get(key, -1):
            self.duplicates += 1
            return False
        self._last[key] = envelope.seq
        if retain:
            self._retained[key] = envelope
        handlers = self._subscribers.get(key)
        if handlers:
            for handler in list(handlers.values()):
                handler(envelope)
        return True

    def _ref(self, table_id: str, delta: int) -> None:
        count = self._table_refs.get(table_id, 0) + delta
        if count > 0:
            self._table_refs[table_id] = count
            if count == 1 and delta > 0:
                topic = self.topics.table(table_id)
                task = asyncio.get_running_loop().create_task(
                    self.link.subscribe(topic, qos=SUBSCRIBE_QOS, no_local=True))
                self._subscribing[table_id] = task
                task.add_done_callback(lambda t: self._subscribing.pop(table_id, None)
                                       if self._subscribing.get(table_id) is t else None)
        else:
            self._table_refs.pop(table_id, None)
            self._games.pop(table_id, None)
            for store in (self._retained, self._last, self._sent):  # nobody here follows it
                for key in [k for k in store if k[0] == table_id]:
                    del store[key]
            for pair in [p for p in self._followers if p[0] == table_id]:
                del self._followers[pair]  # re-learnt from the retained markers if we return
            self._spawn_unsubscribe(table_id)

    # -- followers -----------------------------------------------------------------------

    def followers(self, table_id: str, audience: str) -> frozenset[str]:
        """The other nodes following `audience` of the table (whose marker we have seen)."""
        return frozenset(self._followers.get((table_id, audience), ()))

    def _follow(self, table_id: str, audience: str, delta: int) -> None:
        """Count local event subscribers of an audience; set our marker on the first and
        clear it after the last (retained, so an owner that comes later learns of us)."""
        pair = (table_id, audience)
        count = self._following.get(pair, 0) + delta
        if count > 0:
            self._following[pair] = count
            if count == 1 and delta > 0:
                self.link.publish(self.topics.follower(table_id, audience, self.node), b"1",
                                  qos=1, retain=True)
        elif self._following.pop(pair, None) is not None:
            self.link.publish(self.topics.follower(table_id, audience, self.node), b"",
                              qos=1, retain=True)

    def _announce(self) -> None:
        """On every (re)connection, set our markers again: a broker restarted without its
        retained messages would otherwise leave the owners believing nobody follows."""
        for table_id, audience in list(self._following):
            self.link.publish(self.topics.follower(table_id, audience, self.node), b"1",
                              qos=1, retain=True)

    def _on_marker(self, table_id: str, audience: str, node: str, *, following: bool) -> None:
        if node == self.node:
            return  # our own marker (a retained copy from before a reconnection)
        if table_id not in self._table_refs:
            return  # a table we let go of, its unsubscription still on its way to the
            # broker: kept, the entry would stay (the retained markers come back with us)
        pair = (table_id, audience)
        nodes = self._followers.get(pair)
        if not following:
            if nodes is not None:
                nodes.discard(node)
                if not nodes:
                    del self._followers[pair]
            return
        if nodes is None:
            nodes = self._followers[pair] = set()
        if node in nodes:
            return
        nodes.add(node)
        for kind in ("event", "belief"):  # what it may have missed while nobody followed
            sent = self._sent.get((table_id, audience, kind))
            if sent is not None:
                self._send(*sent)
        if self.on_follow is not None:
            self.on_follow(table_id)

    def _spawn_unsubscribe(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(
            self.link.unsubscribe(self.topics.table(table_id)))
        task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log("mqtt_unsubscribe_failed", error=repr(task.exception()))
