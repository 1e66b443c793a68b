"""`MqttLink`'s own socket handling against the real broker: paho's reads are served from one
recv of everything waiting, and its writes are gathered into one send. Bytes read but not yet
parsed wake no one, so a burst must be parsed to its end within the read that took it, and
`after_read` sees every message of the read first."""

from __future__ import annotations

import asyncio

import pytest

from server.feeds.mqtt_link import MqttLink
from tests.deploy.helpers import until

pytestmark = pytest.mark.mqtt

BURST = 400


async def test_a_burst_is_read_to_its_end_and_after_read_sees_it_whole(
        mqtt_url: str, prefix: str) -> None:
    got: list[bytes] = []
    reads: list[int] = []
    link = MqttLink(mqtt_url, f"{prefix}-reader", lambda _topic, payload: got.append(payload),
                    key=None)
    link.after_read = lambda: reads.append(len(got))
    sender = MqttLink(mqtt_url, f"{prefix}-sender", lambda _t, _p: None, key=None)
    await link.start()
    await sender.start()
    try:
        await link.subscribe(f"{prefix}/burst", qos=0)
        for i in range(BURST):  # one loop turn: gathered into one send, one burst on the wire
            sender.publish(f"{prefix}/burst", str(i).encode(), qos=0)
        await until(lambda: len(got) == BURST, "the whole burst", seconds=10)
        assert got == [str(i).encode() for i in range(BURST)]
        assert reads[-1] == BURST  # after_read ran after the read that took the last one
        assert len(reads) < BURST  # and messages were taken several per read
        assert sender.published == BURST and sender.dropped == 0
    finally:
        await sender.stop()
        await link.stop()
        await asyncio.sleep(0)


LARGE = 2000
"""Publishes of 64 KB in one loop turn: ~131 MB, more than the socket takes while the broker
reads (300 of them never filled it on this machine)."""


async def test_a_burst_larger_than_the_socket_takes_arrives_with_nothing_published_after(
        mqtt_url: str, prefix: str) -> None:
    """What the socket did not take at once is sent when it is writable again, though
    nothing more is published (before: it waited for the next publish, for ever here)."""
    got: list[bytes] = []
    link = MqttLink(mqtt_url, f"{prefix}-reader", lambda _topic, payload: got.append(payload),
                    key=None)
    sender = MqttLink(mqtt_url, f"{prefix}-sender", lambda _t, _p: None, key=None)
    await link.start()
    await sender.start()
    try:
        await link.subscribe(f"{prefix}/large", qos=0)
        for i in range(LARGE):
            sender.publish(f"{prefix}/large", i.to_bytes(4, "big") * 16_384, qos=0)
        await until(lambda: len(got) == LARGE, "the whole burst", seconds=30)
        assert [int.from_bytes(p[:4], "big") for p in got] == list(range(LARGE))
        assert sender.dropped == 0
    finally:
        await sender.stop()
        await link.stop()
        await asyncio.sleep(0)
