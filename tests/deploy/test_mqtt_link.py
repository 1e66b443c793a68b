"""`MqttLink` against the real broker: kicked off, it reconnects with backoff, restores its
subscriptions and sends what was queued. The kick is another client taking over the link's
client id: Mosquitto then drops the link's session (MQTT v5 reason "session taken over")."""

from __future__ import annotations

import asyncio
import uuid

import aiomqtt
import pytest

from server.feeds import mqtt_link
from server.feeds.mqtt_link import BACKOFF_FIRST, BACKOFF_MAX, MqttLink, next_backoff
from server.feeds.topics import parse_mqtt_url
from tests.deploy.helpers import free_port, until

Logged = list[tuple[str, dict]]


@pytest.fixture
def logged(monkeypatch: pytest.MonkeyPatch) -> Logged:
    """Every `log(...)` the link makes, as (event, fields)."""
    lines: Logged = []
    monkeypatch.setattr(mqtt_link, "log", lambda event, **fields: lines.append((event, fields)))
    return lines


def retries(logged: Logged) -> list[float]:
    return [fields["retry_in"] for event, fields in logged if event == "mqtt_disconnected"]


async def kick(mqtt_url: str, identifier: str) -> None:
    """Connect with the link's client id (the broker drops the link), then leave."""
    host, port = parse_mqtt_url(mqtt_url)
    async with aiomqtt.Client(host, port, identifier=identifier,
                              protocol=aiomqtt.ProtocolVersion.V5):
        pass


def test_backoff_doubles_up_to_its_cap() -> None:
    delays = [BACKOFF_FIRST]
    for _ in range(10):
        delays.append(next_backoff(delays[-1]))
    assert delays[:7] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5.0])
    assert delays[6:] == [BACKOFF_MAX] * 5  # capped, never a busy loop nor an endless wait


async def test_retry_delay_grows_while_the_broker_is_unreachable(logged: Logged) -> None:
    """A closed port: every attempt fails at once, and each wait is twice the last."""
    link = MqttLink(f"mqtt://127.0.0.1:{free_port()}", "nobody-listens", lambda _t, _p: None)
    with pytest.raises(ConnectionError):
        await link.start(timeout=2.0)  # attempts at 0, 0.1, 0.3, 0.7, 1.5 s
    assert link.connections == 0
    delays = retries(logged)
    assert len(delays) >= 4, logged
    assert delays == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2][:len(delays)]


@pytest.mark.mqtt
async def test_kicked_off_the_broker_it_reconnects_and_resubscribes(
    mqtt_url: str, prefix: str, logged: Logged
) -> None:
    """Twice kicked: each time the link is back (connection counter), a message published
    to its subscription after the reconnect reaches it, its publishes go out on the new
    connection, and the delay starts again from the first step."""
    identifier = f"link-test-{uuid.uuid4().hex[:8]}"
    inbox, outbox = f"{prefix}/link/in", f"{prefix}/link/out"
    received: list[bytes] = []
    link = MqttLink(mqtt_url, identifier,
                    lambda topic, data: received.append(data) if topic == inbox else None)
    host, port = parse_mqtt_url(mqtt_url)
    await link.start()
    try:
        await link.subscribe(inbox, qos=1)
        async with aiomqtt.Client(host, port, protocol=aiomqtt.ProtocolVersion.V5) as probe:
            await probe.subscribe(outbox, qos=1)
            heard: list[bytes] = []

            async def listen() -> None:
                async for message in probe.messages:
                    heard.append(message.payload)  # type: ignore[arg-type]

            listening = asyncio.create_task(listen())
            await probe.publish(inbox, b"before", qos=1)
            await until(lambda: b"before" in received, "the first message", 10)
            for connection in (2, 3):
                await kick(mqtt_url, identifier)
                await until(lambda c=connection: link.connections == c, "a reconnection", 10)
                payload = f"after-{connection}".encode()
                await probe.publish(inbox, payload, qos=1)
                await until(lambda p=payload: p in received, f"{payload!r} (resubscribed)", 10)
                link.publish(outbox, payload)
                await until(lambda p=payload: p in heard, f"{payload!r} from the link", 10)
            listening.cancel()
    finally:
        await link.stop()
    assert received == [b"before", b"after-2", b"after-3"]
    assert retries(logged) == [BACKOFF_FIRST, BACKOFF_FIRST]  # reset by each success
    assert [e for e, _ in logged].count("mqtt_reconnected") == 2


@pytest.mark.mqtt
async def test_subscription_changes_while_resubscribing_are_kept(
    mqtt_url: str, prefix: str, logged: Logged
) -> None:
    """`subscribe`/`unsubscribe` called while a fresh connection is being re-subscribed (it
    is not `connected` yet, so they only note the wish) must still take effect on it."""
    identifier = f"link-test-{uuid.uuid4().hex[:8]}"
    received: list[str] = []
    link = MqttLink(mqtt_url, identifier, lambda topic, _data: received.append(topic))
    topics = [f"{prefix}/many/{i}" for i in range(40)]  # a re-subscription that takes a while
    late, dropped = f"{prefix}/late", topics[-1]
    host, port = parse_mqtt_url(mqtt_url)
    await link.start()
    try:
        for topic in topics:
            await link.subscribe(topic, qos=1)
        await kick(mqtt_url, identifier)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        # (private state: the window between CONNACK and the last SUBACK is what matters)
        while not (link._client is not None and not link.connected.is_set()):
            assert loop.time() < deadline, "never caught the link re-subscribing"
            await asyncio.sleep(0)
        await link.subscribe(late, qos=1)
        await link.unsubscribe(dropped)
        await until(lambda: link.connections == 2, "the reconnection", 10)
        async with aiomqtt.Client(host, port, protocol=aiomqtt.ProtocolVersion.V5) as probe:
            await probe.publish(dropped, b"x", qos=1)
            await probe.publish(late, b"x", qos=1)
            await probe.publish(topics[0], b"x", qos=1)
        await until(lambda: late in received and topics[0] in received, "late and kept", 10)
        await asyncio.sleep(0.2)
    finally:
        await link.stop()
    assert dropped not in received


@pytest.mark.mqtt
async def test_publishes_cut_off_mid_send_go_out_after_the_reconnect(
    mqtt_url: str, prefix: str, logged: Logged
) -> None:
    """Kicked while a burst is being sent (the sender pausing for back-pressure): what was
    in flight is dropped and counted, what was still queued goes out on the new connection
    with no further publish to wake the sender."""
    identifier = f"link-test-{uuid.uuid4().hex[:8]}"
    link = MqttLink(mqtt_url, identifier, lambda _t, _p: None)
    burst = 3000
    await link.start()
    try:
        for i in range(burst):
            link.publish(f"{prefix}/burst", str(i))
        await asyncio.sleep(0.05)
        await kick(mqtt_url, identifier)
        await until(lambda: link.connections == 2, "the reconnection", 10)
        await until(lambda: link.backlog == 0, "the queued publishes to go out", 20)
    finally:
        await link.stop()
    assert link.dropped > 0, "the kick should have cut some publishes off"
    assert link.published > 0 and link.published + link.dropped == burst
