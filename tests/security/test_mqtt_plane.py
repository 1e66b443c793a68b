"""Finding 1: the MQTT control plane, against a real Mosquitto with logins and an ACL.

The test starts its own broker on a free port from a config it writes (deploy/'s ACL with
a test prefix, a password file made by `mosquitto_passwd`), and talks to it through
MqttLink, the one client every server and worker uses. Before: `--mqtt` took no
credentials, and a message on a node's commands topic was obeyed whoever sent it.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import aiomqtt
import pytest

from server.feeds.mqtt_link import MqttLink
from server.feeds.plane import MAGIC
from tests.security.conftest import PREFIX, USERS, url
from tests.server.helpers import wait_for

KEY = bytes(range(32))


async def _link(port: int, user: str, received: list, key: bytes | None = KEY,
                secret: str | None = None) -> MqttLink:
    link = MqttLink(url(port, user, secret or USERS[user]), f"{user}-{uuid.uuid4().hex[:6]}",
                    lambda topic, data: received.append((topic, data)), key=key)
    await link.start(timeout=5)
    return link


async def test_no_login_no_connection(broker: int) -> None:
    for address in (url(broker), url(broker, "server-1", "wrong")):
        link = MqttLink(address, f"anon-{uuid.uuid4().hex[:6]}", lambda _t, _d: None, key=KEY)
        with pytest.raises(ConnectionError):
            await link.start(timeout=1.5)


async def test_a_worker_reads_no_hand_and_commands_no_server(broker: int) -> None:
    """The ACL: a worker's login reads work and writes beliefs, nothing else."""
    at_server, at_worker = [], []
    server = await _link(broker, "server-1", at_server)
    worker = await _link(broker, "worker", at_worker)
    try:
        await server.subscribe(f"{PREFIX}/nodes/server-1/commands")
        await server.subscribe(f"{PREFIX}/tables/t1/#")
        await worker.subscribe(f"{PREFIX}/tables/#")  # tries to read the seats' events
        await worker.subscribe(f"{PREFIX}/work/#")
        hand = f"{PREFIX}/tables/t1/events/S"
        server.publish(hand, json.dumps({"seq": 1, "tiles": ["6-6"]}))
        server.publish(f"{PREFIX}/work/0/t1", json.dumps({"table_id": "t1", "seq": 1}))
        worker.publish(f"{PREFIX}/nodes/server-1/commands",
                       json.dumps({"op": "move", "seat": "S"}))  # refused by the broker
        worker.publish(f"{PREFIX}/tables/t1/beliefs/S", json.dumps({"seq": 1}))  # allowed
        await wait_for(lambda: any(t.endswith("/beliefs/S") for t, _ in at_server), 10)
        await wait_for(lambda: any("/work/" in t for t, _ in at_worker), 10)
        assert [t for t, _ in at_server if "/nodes/" in t] == []
        assert [t for t, _ in at_worker if "/events/" in t] == []
    finally:
        await asyncio.gather(server.stop(), worker.stop())


async def test_a_broker_client_without_the_key_is_not_obeyed(broker: int) -> None:
    """Even with a server's leaked password: unsigned, tampered and replayed messages are
    dropped before use, counted by reason; a message signed with the key gets through."""
    commands = f"{PREFIX}/nodes/server-1/commands"
    at_owner: list[tuple[str, bytes]] = []
    owner = await _link(broker, "server-1", at_owner)
    other = await _link(broker, "server-2", [])
    captured: list[bytes] = []
    try:
        await owner.subscribe(commands)
        async with aiomqtt.Client("127.0.0.1", broker, username="server-1",
                                  password=USERS["server-1"],
                                  identifier=f"mallory-{uuid.uuid4().hex[:6]}") as mallory:
            await mallory.subscribe(commands)  # reads what is sent to the owner
            forged = {"op": "move", "table_id": "t1", "seat": "S", "id": 1,
                      "move": {"kind": "pass"}}
            await mallory.publish(commands, json.dumps(forged), qos=1)
            other.publish(commands, json.dumps({"op": "presence", "delta": 1}))
            async for message in mallory.messages:
                if isinstance(message.payload, bytes) and message.payload.startswith(MAGIC):
                    captured.append(message.payload)
                    break
            tampered = bytearray(captured[0])
            tampered[-2] ^= 1
            await mallory.publish(commands, bytes(tampered), qos=1)
            await mallory.publish(commands, captured[0], qos=1)  # a replay of the real one
            other.publish(commands, json.dumps({"op": "presence", "delta": -1}))
            await wait_for(lambda: len(at_owner) == 2, 10)
        assert [json.loads(data)["delta"] for _, data in at_owner] == [1, -1]
        assert owner.signer is not None
        assert owner.signer.reasons == {"unsigned": 1, "bad_signature": 1, "replayed": 1}
    finally:
        await asyncio.gather(owner.stop(), other.stop())


def test_credentials_come_from_the_url_or_the_environment(tmp_path: Path) -> None:
    from server.feeds.plane import broker as parse

    found = parse("mqtts://server-1:p%40ss@broker.example:8884")
    assert (found.username, found.password, found.tls, found.port) == \
        ("server-1", "p@ss", True, 8884)
    assert "p@ss" not in repr(found)
    secret = tmp_path / "secret"
    secret.write_text("from-a-file\n")
    found = parse("mqtt://broker.example", {"DOMINO_MQTT_USERNAME": "worker",
                                            "DOMINO_MQTT_PASSWORD_FILE": str(secret)})
    assert (found.username, found.password, found.tls, found.port) == \
        ("worker", "from-a-file", False, 1883)


async def test_a_seq_far_ahead_is_dropped_not_believed(broker: int) -> None:
    """Before: one `events/W` frame with seq 10^9 stalled a table for good (every later
    real seq looked like a duplicate). The bus drops a seq far past the last delivered,
    and a message whose table or observer is not the one its topic names."""
    from server.feeds.mqtt_bus import MqttBus
    from server.feeds.topics import Topics

    link = await _link(broker, "server-1", [])
    try:
        topics = Topics(PREFIX)
        bus = MqttBus(link, topics)
        got: list[int] = []
        bus.subscribe("t1", "W", "belief", lambda envelope: got.append(envelope.seq))

        def belief(seq: int) -> bytes:
            return json.dumps({"type": "belief", "table_id": "t1", "seq": seq,
                               "observer": "W"}, separators=(",", ":")).encode()

        for seq in (1, 10**9, 2):
            bus.on_message(topics.beliefs("t1", "W"), belief(seq))
        assert got == [1, 2] and bus.out_of_window == 1
        # a frame on W's topic that is S's belief, or another table's: not delivered
        bus.on_message(topics.beliefs("t1", "W"), belief(3).replace(b'"W"', b'"S"'))
        bus.on_message(topics.beliefs("t1", "W"), belief(3).replace(b'"t1"', b'"t2"'))
        bus.on_message(topics.beliefs("t1", "W"), json.dumps(
            {"seq": 3, "observer": "S", "table_id": "t1", "type": "belief"}).encode())
        assert got == [1, 2] and bus.mismatched == 3
        bus.on_message(topics.beliefs("t1", "W"), belief(3))
        assert got == [1, 2, 3]
    finally:
        await link.stop()
