"""One MQTT v5 connection per process, kept alive: reconnects with backoff and re-subscribes.

Receiving: aiomqtt's iterator costs a Task and an `asyncio.wait` per message (two loop
turns), so we do not use it: once connected, each message is handled as paho decodes it,
in the socket's reader callback, and each read takes every packet the socket holds (paho
reads one per call).
Every connection sets TCP_NODELAY, and re-arms TCP_QUICKACK after every read: a broker
without `set_tcp_nodelay` (Mosquitto's default) holds each small frame behind the previous
one's ACK, and a client that only receives (a server's QoS 0 beliefs, a worker's PUBACKs)
delays its ACKs by up to 40 ms; measured on the broker at 1883, a work notification's trip
to its worker was p50 38-41 ms against 9 ms on a broker with `set_tcp_nodelay`.

aiomqtt 2.x does not reconnect by itself, so `_run` loops: connect, subscribe everything we
want, send queued publishes, read messages; on `MqttError` wait (0.1 s doubling to 5 s) and
go again. Publishes never block the caller: they queue and are sent in call order, which
keeps MQTT's per-topic ordering. They go straight to paho (aiomqtt's `publish` costs a Task,
an Event and a `wait_for` Task per message to await a PUBACK nobody here waits for); the
PUBACKs are counted from paho's `on_publish`. Messages that fail in flight are dropped and
counted: the broker is the fast path, the event store is the truth, and every consumer can catch up
from it (gaps by seq, beliefs by re-notifying the workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiomqtt
from paho.mqtt.client import MQTT_ERR_NO_CONN, MQTT_ERR_SUCCESS
from paho.mqtt.subscribeoptions import SubscribeOptions

from server.feeds.plane import Signer, broker, plane_key
from server.logs import log

OnMessage = Callable[[str, bytes], None]
QUIET = logging.getLogger("domino.mqtt.client")
QUIET.setLevel(logging.ERROR)  # aiomqtt warns on every publish past 10 in flight: normal here
MAX_INFLIGHT = 100
"""QoS 1 messages awaiting PUBACK (paho's default is 20; larger windows cost more than they
give: paho and aiomqtt scan the in-flight set on every acknowledgement)."""
UNACKED_LIMIT = 2000
"""Publishes handed to paho and not yet acknowledged beyond which new ones queue here."""
OUTBOX_LIMIT = 200_000
"""Publishes kept while the broker is unreachable; beyond this the oldest go."""
NO_DELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)
QUICK_ACK: int | None = getattr(socket, "TCP_QUICKACK", None)
"""Linux: ACK at once, not after the delayed-ACK timer (the mode lapses, so set per read)."""
RECV_BYTES = 65536
"""Bytes one recv may take: paho asks for a packet's fixed header a byte at a time (three or
four recv calls per packet: 17 per event at a worker, measured with strace); we read what the
socket holds and serve paho from that."""
WAITING_BYTES = 1 << 20
"""Bytes paho may count as sent while the socket has not taken them yet; past this its sends
wait (paho keeps the packets, and UNACKED_LIMIT then queues new publishes in the link), so a
broker that stops reading cannot make a client hold more than this beyond paho's own."""
MISC_SECONDS = 3.0
"""Seconds between paho's keep-alive checks (aiomqtt's own task wakes every second: an idle
worker's fixed cost; a PINGREQ only goes after `keepalive` seconds of silence anyway)."""
"""Small frames go at once: with Nagle on both ends and delayed ACKs, a one-event round trip
measured 83 ms against 13 ms without (one worker: 95 -> 523 events/s)."""
BACKOFF_FIRST = 0.1
BACKOFF_MAX = 5.0


def next_backoff(delay: float) -> float:
    """The wait after one more failed attempt: doubling, so a broker restart is retried
    at once, but capped, so a long outage costs one attempt per 5 s, not a busy loop."""
    return min(BACKOFF_MAX, delay * 2)


@dataclass(frozen=True)
class _Subscription:
    qos: int
    no_local: bool


class MqttLink:
    """A resilient MQTT client: `publish` queues, `subscribe` survives reconnections."""

    def __init__(self, url: str, identifier: str, on_message: OnMessage,
                 key: bytes | str | None = "auto") -> None:
        """`url`: mqtt[s]://[USER:PASS@]HOST:PORT (server/feeds/plane.py); `key`: the
        deployment key that signs and checks every payload ("auto": $DOMINO_MQTT_KEY_FILE;
        None: unsigned, for a broker nobody else can reach)."""
        self.broker = broker(url)
        self.host, self.port = self.broker.host, self.broker.port
        found = plane_key() if key == "auto" else key
        self.signer = Signer(found) if isinstance(found, bytes) else None
        self.identifier = identifier
        self.on_message = on_message
        self.connected = asyncio.Event()
        self.connections = 0
        self.dropped = 0
        self.received = 0
        self.published = 0
        self._client: aiomqtt.Client | None = None
        self._subscriptions: dict[str, _Subscription] = {}
        self._outbox: deque[tuple[str, bytes, int, bool]] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unacked: set[int] = set()
        """Message ids handed to paho and not yet acknowledged (QoS 1) or written (QoS 0)."""
        self.after_read: Callable[[], None] | None = None
        """Called after each read of the socket, once every message it held was handed to
        `on_message` (a worker folds and publishes then: its beliefs leave in the same loop
        turn as the notification arrived, one send)."""
        self.on_connect: Callable[[], None] | None = None
        """Called on every connection, once its subscriptions are restored (a bus re-announces
        its retained follower markers: a restarted broker may have lost them)."""

    async def start(self, timeout: float = 10.0) -> None:
        """Connect (in the background from now on); fail if the first connection takes long."""
        self._task = asyncio.create_task(self._run(), name=f"mqtt-{self.identifier}")
        try:
            await asyncio.wait_for(self.connected.wait(), timeout)
        except TimeoutError:
            await self.stop()
            raise ConnectionError(f"no MQTT broker at {self.host}:{self.port}") from None

    async def stop(self) -> None:
        """Send what is queued (briefly), then disconnect."""
        deadline = time.monotonic() + 2.0
        while (self._outbox or self._unacked) and self.connected.is_set() \
                and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def guard_health(self) -> dict[str, Any]:
        """How private this link is, and what its checks refused (by reason)."""
        return {"mqtt_login": bool(self.broker.username and self.broker.password),
                "mqtt_signed": self.signer is not None,
                "mqtt_rejected": dict(self.signer.reasons) if self.signer else {}}

    @property
    def backlog(self) -> int:
        """Publishes queued or awaiting the broker's acknowledgement (a health figure)."""
        return len(self._outbox) + len(self._unacked)

    # -- outgoing ------------------------------------------------------------------------

    def publish(self, topic: str, payload: bytes | str, *, qos: int = 1,
                retain: bool = False) -> None:
        data = payload.encode() if isinstance(payload, str) else payload
        if self.signer is not None:
            data = self.signer.sign(topic, data)
        client = self._client
        if client is not None and not self._outbox and self.connected.is_set() \
                and len(self._unacked) <= UNACKED_LIMIT \
                and self._hand(client._client, topic, data, qos, retain):
            return  # straight to paho: no wake-up of the sender, no loop turn
        if len(self._outbox) >= OUTBOX_LIMIT:
            self._outbox.popleft()
            self.dropped += 1
        self._outbox.append((topic, data, qos, retain))
        self._wake.set()

    def _hand(self, paho: Any, topic: str, data: bytes, qos: int, retain: bool) -> bool:
        """Give one publish to paho; False if the connection is gone (the caller keeps it
        for the next one). Any other refusal (paho's own limits) drops it, counted."""
        info = paho.publish(topic, data, qos, retain)
        if info.rc == MQTT_ERR_NO_CONN:
            return False
        if info.rc != MQTT_ERR_SUCCESS:
            self.dropped += 1
        elif info.is_published():
            self.published += 1
        else:
            self._unacked.add(info.mid)
        return True

    async def subscribe(self, topic: str, *, qos: int = 1, no_local: bool = False) -> None:
        """Subscribe now if connected (waiting for SUBACK) and after every reconnection."""
        self._subscriptions[topic] = _Subscription(qos, no_local)
        client = self._client
        if client is not None and self.connected.is_set():
            with contextlib.suppress(aiomqtt.MqttError):
                await client.subscribe(topic, options=_options(qos, no_local))

    async def unsubscribe(self, topic: str) -> None:
        if self._subscriptions.pop(topic, None) is None:
            return
        client = self._client
        if client is not None and self.connected.is_set():
            with contextlib.suppress(aiomqtt.MqttError):
                await client.unsubscribe(topic)

    # -- the connection loop -------------------------------------------------------------

    async def _run(self) -> None:
        backoff = BACKOFF_FIRST
        while True:
            inboxes: list[_Inbox] = []
            address = self.broker
            client = aiomqtt.Client(self.host, self.port, identifier=self.identifier,
                                    username=address.username, password=address.password,
                                    tls_context=address.tls_context(),
                                    protocol=aiomqtt.ProtocolVersion.V5, keepalive=15,
                                    max_inflight_messages=MAX_INFLIGHT, logger=QUIET,
                                    queue_type=_kept_queue(inboxes), socket_options=NO_DELAY)
            _fast_io(client, self._after_read)
            _count_acks(client, self._acked)
            try:
                async with client:
                    self._client = client
                    await self._resubscribe(client)
                    self.connections += 1
                    misc = _slow_misc(client)
                    self.connected.set()
                    if self.on_connect is not None:
                        try:
                            self.on_connect()
                        except Exception as error:  # the link itself must go on
                            log("mqtt_on_connect_failed", client=self.identifier,
                                error=repr(error))
                    backoff = BACKOFF_FIRST
                    if self.connections > 1:
                        log("mqtt_reconnected", client=self.identifier)
                    sender = asyncio.create_task(self._send(client))
                    try:
                        for inbox in inboxes:  # from now on, handled as they arrive
                            inbox.sink = self._handle
                            while not inbox.empty():
                                self._handle(inbox.get_nowait())
                        await _disconnection(client)
                    finally:
                        sender.cancel()
                        misc.cancel()
                        await asyncio.gather(sender, misc, return_exceptions=True)
                        self.dropped += len(self._unacked)  # their PUBACKs will never come
                        self._unacked.clear()
            except aiomqtt.MqttError as error:
                log("mqtt_disconnected", client=self.identifier, error=str(error),
                    retry_in=round(backoff, 2))
            finally:
                self._client = None
                self.connected.clear()
            await asyncio.sleep(backoff)
            backoff = next_backoff(backoff)

    def _handle(self, message: aiomqtt.Message) -> None:
        self.received += 1
        payload = message.payload
        data = payload if isinstance(payload, bytes) else str(payload or "").encode()
        topic = message.topic.value
        if self.signer is not None:
            opened = self.signer.open(topic, data, bool(message.retain))
            if opened is None:  # not from a holder of the key: never used
                if self.signer.rejected <= 10 or self.signer.rejected % 1000 == 0:
                    log("mqtt_message_rejected", client=self.identifier, topic=topic,
                        rejected=self.signer.rejected, reasons=self.signer.reasons)
                return
            data = opened
        try:
            self.on_message(topic, data)
        except Exception as error:  # one bad message must not stop us
            log("mqtt_message_failed", topic=topic, error=repr(error))

    async def _resubscribe(self, client: aiomqtt.Client) -> None:
        """Subscribe a fresh connection to everything wanted, until it matches.

        `subscribe`/`unsubscribe` calls made meanwhile only change `_subscriptions` (we are
        not `connected` yet), so one pass over a snapshot would miss them: loop until the
        connection's subscriptions are exactly the wanted ones.
        """
        done: dict[str, _Subscription] = {}
        while True:
            todo = {topic: sub for topic, sub in self._subscriptions.items()
                    if done.get(topic) != sub}
            stale = [topic for topic in done if topic not in self._subscriptions]
            if not todo and not stale:
                return
            for topic, sub in todo.items():
                await client.subscribe(topic, options=_options(sub.qos, sub.no_local))
                done[topic] = sub
            for topic in stale:
                await client.unsubscribe(topic)
                del done[topic]

    async def _send(self, client: aiomqtt.Client) -> None:
        """Hand queued publishes to paho in order (it writes them on the socket's next
        writable turn, all at once, and keeps at most MAX_INFLIGHT unacknowledged)."""
        paho = client._client
        while True:  # drain first: a sender cancelled mid-drain leaves queued messages
            self._wake.clear()
            while self._outbox:
                if not self._hand(paho, *self._outbox[0]):
                    break  # the connection is going: kept for the next one
                self._outbox.popleft()
                if len(self._unacked) > UNACKED_LIMIT:  # back-pressure on a slow broker
                    await asyncio.sleep(0.001)
            await self._wake.wait()

    def _after_read(self) -> None:
        if self.after_read is not None:
            try:
                self.after_read()
            except Exception as error:  # the link itself must go on
                log("mqtt_after_read_failed", client=self.identifier, error=repr(error))

    def _acked(self, mid: int) -> None:
        if mid in self._unacked:
            self._unacked.discard(mid)
            self.published += 1


def _count_acks(client: aiomqtt.Client, acked: Callable[[int], None]) -> None:
    """Call `acked(mid)` for every PUBACK (QoS 1) or written message (QoS 0), then aiomqtt's
    own handler (it resolves its own `publish` calls, which we do not make)."""
    paho = client._client
    inner = paho.on_publish

    def on_publish(*args: Any) -> None:
        acked(args[2])
        if inner is not None:
            inner(*args)

    paho.on_publish = on_publish


def _fast_io(client: aiomqtt.Client, after_read: Callable[[], None]) -> None:
    """Few syscalls and loop turns per message, on paho's socket.

    Reads: paho reads a packet's fixed header a byte at a time, one recv each (17 recv per
    event at a worker, measured with strace); here one recv takes up to RECV_BYTES and paho's
    small reads are slices of it. aiomqtt's reader callback calls paho's `loop_read` at each
    wake: the wrapper goes on reading while bytes are buffered (paho stops after a few
    packets, and buffered bytes wake no one), calls `after_read`, sends whatever was
    published meanwhile, then re-arms TCP_QUICKACK, so a broker's Nagle never waits out our
    delayed-ACK timer (see the module's docstring; one setsockopt per wake, sending any ACK
    pending).

    Writes: paho sends each packet with its own send (a worker's four beliefs: four syscalls
    and four segments), and aiomqtt registers the socket for writing through
    `call_soon_threadsafe` and `add_writer` (a self-pipe write, two epoll_ctl and an epoll
    wake per batch). Here paho's sends fill a buffer that `loop_write` sends at once: at the
    end of a read, or on the loop's next turn (`call_soon`) for a publish made elsewhere on
    the loop's thread. Only a full socket (bytes left over) waits for writability with
    `add_writer`; from paho's connect thread, aiomqtt's way."""
    paho = client._client  # aiomqtt's paho client: its callbacks look these up per call
    recv, read = paho._sock_recv, paho.loop_read
    send, write, inner = paho._sock_send, paho.loop_write, paho.on_socket_register_write
    inner_unregister, inner_close = paho.on_socket_unregister_write, paho.on_socket_close
    # aiomqtt sets all three when it makes its client, before any connection
    assert inner is not None and inner_unregister is not None and inner_close is not None
    loop = asyncio.get_running_loop()
    read_data, read_taken = b"", 0  # bytes read from the socket, and how many paho has taken
    waiting = bytearray()  # sent as far as paho knows, not yet handed to the socket
    state = {"reading": False, "scheduled": False, "watching": False}

    def sock_recv(bufsize: int) -> bytes:
        nonlocal read_data, read_taken
        data, taken = read_data, read_taken
        if taken >= len(data):  # empty: one recv (BlockingIOError and EOF go to paho as is)
            data, taken = recv(RECV_BYTES), 0
            if len(data) <= bufsize:
                read_data, read_taken = b"", 0
                return data
        chunk = data[taken:taken + bufsize]
        read_data, read_taken = data, taken + len(chunk)
        return chunk

    def loop_read(max_packets: int = 1) -> Any:
        state["reading"] = True
        try:
            result = read(max_packets)
            while result == MQTT_ERR_SUCCESS and read_taken < len(read_data):
                result = read(max_packets)
            after_read()
        finally:
            state["reading"] = False
        if paho.want_write():
            checked_write()
        if QUICK_ACK is not None:
            sock = paho.socket()
            if isinstance(sock, socket.socket):  # TCP or TLS (ours never is a WebSocket)
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.IPPROTO_TCP, QUICK_ACK, 1)
        return result

    def sock_send(buf: bytes | bytearray) -> int:
        if len(waiting) >= WAITING_BYTES:  # paho keeps the packet and asks for writability
            raise BlockingIOError
        waiting.extend(buf)
        return len(buf)

    def watch(sock: Any, on: bool) -> None:
        """Wait for the socket to take more (bytes left over), or stop waiting."""
        if on and not state["watching"]:
            loop.add_writer(sock.fileno(), checked_write)
        elif not on and state["watching"]:
            loop.remove_writer(sock.fileno())
        state["watching"] = on

    def loop_write() -> Any:
        state["scheduled"] = False
        result = write()  # paho's packets into `waiting`; it unregisters the writer
        try:
            while waiting:
                sent = send(bytes(waiting))  # a full socket: BlockingIOError, and paho asks
                del waiting[:sent]  # for writability (`register` below)
        except BlockingIOError:
            pass
        except Exception as error:  # a broken socket: as aiomqtt's own callback does
            waiting.clear()
            disconnected = client._disconnected
            if not disconnected.done():
                disconnected.set_exception(error)
        sock = paho.socket()
        if sock is not None:  # left over: sent when the socket is writable, publishes or not
            watch(sock, bool(waiting) or paho.want_write())
        return result

    def register(paho_client: Any, userdata: Any, sock: Any) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not loop:
            inner(paho_client, userdata, sock)
        elif waiting:  # the socket is full: wait until it takes more
            watch(sock, True)
        elif not state["reading"] and not state["scheduled"]:  # a read sends at its end
            state["scheduled"] = True
            loop.call_soon(checked_write)

    def checked_write() -> None:
        try:
            paho.loop_write()
        except Exception as error:
            disconnected = client._disconnected
            if not disconnected.done():
                disconnected.set_exception(error)

    # paho's own socket calls replaced on this one client (mypy forbids assigning methods)
    paho._sock_recv = sock_recv  # type: ignore[method-assign]  # our buffered recv
    paho.loop_read = loop_read  # type: ignore[method-assign]  # reads all, then QUICKACK
    paho._sock_send = sock_send  # type: ignore[method-assign]  # into `waiting`
    paho.loop_write = loop_write  # type: ignore[method-assign]  # one send for all

    def unregister(paho_client: Any, userdata: Any, sock: Any) -> None:
        if state["watching"]:  # ours: removed by loop_write once nothing is left over
            return
        inner_unregister(paho_client, userdata, sock)

    def close(paho_client: Any, userdata: Any, sock: Any) -> None:
        """The connection is gone: what the socket had not taken goes with it (lost, as
        QoS 0 messages in flight are on any disconnection), and so does our wait for it."""
        waiting.clear()
        if state["watching"]:
            with contextlib.suppress(OSError, ValueError):
                loop.remove_writer(sock.fileno())
            state["watching"] = False
        inner_close(paho_client, userdata, sock)

    paho.on_socket_register_write = register
    paho.on_socket_unregister_write = unregister
    paho.on_socket_close = close


def _slow_misc(client: aiomqtt.Client) -> asyncio.Task[None]:
    """paho's keep-alive checks every MISC_SECONDS, in place of aiomqtt's every second."""
    own = client._misc_task
    if own is not None:
        own.cancel()
    paho = client._client

    async def misc() -> None:
        while paho.loop_misc() == MQTT_ERR_SUCCESS:
            await asyncio.sleep(MISC_SECONDS)

    return asyncio.create_task(misc())


class _Inbox(asyncio.Queue[aiomqtt.Message]):
    """aiomqtt's message queue: it queues until the link is ready (subscriptions restored,
    `on_connect` called), then hands each message to `sink` at once."""

    sink: Callable[[aiomqtt.Message], None] | None = None

    def put_nowait(self, item: aiomqtt.Message) -> None:
        if self.sink is None:
            super().put_nowait(item)
        else:
            self.sink(item)


def _kept_queue(kept: list[_Inbox]) -> type[asyncio.Queue[aiomqtt.Message]]:
    """A queue class for aiomqtt whose instance lands in `kept` (the link sets its sink)."""

    class Inbox(_Inbox):
        def __init__(self, maxsize: int = 0) -> None:
            super().__init__(maxsize)
            kept.append(self)

    return Inbox


async def _disconnection(client: aiomqtt.Client) -> None:
    """Wait until the connection is lost (aiomqtt's iterator's way of saying so)."""
    disconnected = client._disconnected
    try:
        await asyncio.shield(disconnected)
    except aiomqtt.MqttError:
        raise
    except asyncio.CancelledError:
        raise
    except Exception as error:
        raise aiomqtt.MqttError("Disconnected during message iteration") from error
    raise aiomqtt.MqttError("Disconnected during message iteration")


def _options(qos: int, no_local: bool) -> SubscribeOptions:
    return SubscribeOptions(qos=qos, noLocal=no_local)
