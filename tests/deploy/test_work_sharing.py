"""The worker pool's subscription shares the load: each work notification reaches exactly one
worker of the group. (Downstream seq gates would hide duplicates, so the cluster tests pass
either way; this checks the subscription itself, on the real broker.)"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable

import aiomqtt
import pytest

from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import WORKER_GROUP, Topics, parse_mqtt_url
from tests.deploy.helpers import until

pytestmark = pytest.mark.mqtt


async def test_each_work_notification_reaches_one_worker_of_the_group(
    mqtt_url: str, prefix: str
) -> None:
    """Two links subscribed as the workers are (`Topics.work_shared`, QoS 1) and a plain
    subscriber as a control: the control gets every notification, the pool gets every one
    exactly once between them, and both workers get a fair part."""
    topics = Topics(prefix)
    got: dict[str, list[tuple[str, int]]] = {"w1": [], "w2": []}

    def receiver(name: str) -> Callable[[str, bytes], None]:
        def on_message(_topic: str, data: bytes) -> None:
            note = json.loads(data)
            got[name].append((note["table_id"], note["seq"]))
        return on_message

    workers = [MqttLink(mqtt_url, f"pool-{name}-{uuid.uuid4().hex[:8]}", receiver(name))
               for name in got]
    sent = [(f"t{i % 5}", i) for i in range(1, 61)]
    control: list[tuple[str, int]] = []
    host, port = parse_mqtt_url(mqtt_url)
    for worker in workers:
        await worker.start()
    try:
        for worker in workers:
            await worker.subscribe(topics.work_shared(WORKER_GROUP), qos=1)
        async with aiomqtt.Client(host, port, protocol=aiomqtt.ProtocolVersion.V5) as server:
            await server.subscribe(topics.work("+"), qos=1)

            async def listen() -> None:
                async for message in server.messages:
                    note = json.loads(message.payload)  # type: ignore[arg-type]
                    control.append((note["table_id"], note["seq"]))

            listening = asyncio.create_task(listen())
            for table_id, seq in sent:
                await server.publish(topics.work(table_id),
                                     json.dumps({"table_id": table_id, "seq": seq}), qos=1)
            await until(lambda: len(control) == len(sent), "the control's copies", 10)
            await until(lambda: sum(map(len, got.values())) >= len(sent), "the pool", 10)
            await asyncio.sleep(0.3)  # room for any duplicate to arrive
            listening.cancel()
    finally:
        for worker in workers:
            await worker.stop()
    assert sorted(control) == sorted(sent)
    pooled = got["w1"] + got["w2"]
    assert sorted(pooled) == sorted(sent), "each notification exactly once in the pool"
    assert min(len(got["w1"]), len(got["w2"])) >= len(sent) // 4, \
        {name: len(notes) for name, notes in got.items()}
