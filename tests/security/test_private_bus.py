"""Issue 30, finding 2: the deployment mode is private by default.

Before: with no broker login and no `$DOMINO_MQTT_KEY_FILE`, `serve --mqtt` and `worker`
started without a word, an anonymous client read the work messages (hands, seeds), and a
forged belief reached the seated player. Now both refuse to start on an open bus unless
told `--insecure-bus` (then say so at WARNING); signed messages carry a sender and a
counter inside what is signed, so a replay is refused however many messages came between,
and two identical messages are not mistaken for one. End to end: a real server and worker
on a Mosquitto of the deployment's own configuration (tests/security/conftest.py), a seated
player on a WebSocket, and a forged and a replayed signed belief, dropped and counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiomqtt
import pytest
from websockets.asyncio.client import connect

from clients.cli import main as cli
from server.app import DominoServer
from server.beliefs.worker_service import InferenceService
from server.feeds import plane
from server.feeds.plane import MAGIC, Signer
from server.feeds.topics import Topics
from storage import EventStore
from tests.conftest import make_config
from tests.deploy.conftest import MQTT_URL
from tests.pg import fresh_schema
from tests.processes import spawn
from tests.security.conftest import PREFIX, USERS, url
from tests.server.helpers import wait_for

KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
PLANE_VARIABLES = ("DOMINO_MQTT_KEY_FILE", "DOMINO_MQTT_USERNAME", "DOMINO_MQTT_PASSWORD",
                   "DOMINO_MQTT_PASSWORD_FILE")


@pytest.fixture
def no_plane_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PLANE_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "deployment.key"
    path.write_text(KEY + "\n")
    return path


# -- refusing an open bus ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["serve", "worker"])
@pytest.mark.parametrize("lacks", ["both", "key", "login"])
def test_an_open_bus_is_refused_unless_asked_for(
        command: str, lacks: str, no_plane_secrets: None, key_file: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: both started (and the server served hands to anyone on the broker)."""
    bus = "mqtt://127.0.0.1:9" if lacks != "key" else "mqtt://server-1:pw@127.0.0.1:9"
    if lacks == "login":
        monkeypatch.setenv("DOMINO_MQTT_KEY_FILE", str(key_file))
    db = "postgresql://nobody@127.0.0.1:9/none"  # never reached: refused before
    args = ["serve", "--port", "0"] if command == "serve" else ["worker"]
    assert cli([*args, "--db", db, "--mqtt", bus]) == 2
    said = capsys.readouterr().err
    role = "server" if command == "serve" else "worker"
    assert said.startswith(f"error: refusing to run the {role} on an open bus"), said
    assert ("broker login" in said) == (lacks != "key")
    assert ("signing key" in said) == (lacks != "login")
    assert "--insecure-bus" in said and "Traceback" not in said
    assert "pw" not in said.replace("password", "")  # the password is never printed


def test_insecure_bus_runs_and_says_so(tmp_path: Path, no_plane_secrets: None) -> None:
    """The explicit way out, for a broker nobody else can reach: it starts, with a
    WARNING naming what is missing."""
    log = tmp_path / "worker.log"
    process = spawn(["worker", "--db", str(tmp_path / "w.sqlite3"), "--mqtt", MQTT_URL,
                     "--insecure-bus", "--topic-prefix", f"test/{os.getpid()}-{time.time()}"],
                    log)
    try:
        deadline = time.monotonic() + 60
        while "worker_ready" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        said = log.read_text()
        assert "level=WARNING event=insecure_bus role=worker" in said
        assert "broker login" in said and "signing key" in said
    finally:
        process.terminate()
        process.wait(timeout=30)


# -- what is signed: a sender and a counter ------------------------------------------------


def test_two_identical_messages_in_one_millisecond_are_both_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the signature covered (topic, time in ms, payload) only, so the second of
    two identical presence changes in one millisecond was dropped as a replay."""
    monkeypatch.setattr(plane.time, "time", lambda: 1_800_000_000.0)
    sender, receiver = Signer(bytes.fromhex(KEY)), Signer(bytes.fromhex(KEY))
    topic, payload = f"{PREFIX}/nodes/server-1/commands", b'{"op":"presence","delta":1}'
    first, second = sender.sign(topic, payload), sender.sign(topic, payload)
    assert receiver.open(topic, first) == payload
    assert receiver.open(topic, second) == payload
    assert receiver.open(topic, second) is None and receiver.reasons == {"replayed": 1}


def test_a_replay_is_refused_however_many_messages_came_between() -> None:
    """Before: the seen signatures were a set that forgot its oldest past 500,000, so under
    load a replay within the time window was taken again."""
    sender, receiver = Signer(bytes.fromhex(KEY)), Signer(bytes.fromhex(KEY))
    topic = f"{PREFIX}/tables/t1/events/S"
    first = sender.sign(topic, b'{"seq":1}')
    assert receiver.open(topic, first) is not None
    for n in range(600_000):  # the deployment's own traffic, all genuine
        receiver._first_time(sender.sender, n + 2)
    sender._counter = 600_001
    assert receiver.open(topic, sender.sign(topic, b'{"seq":2}')) is not None
    assert receiver.open(topic, first) is None
    assert receiver.reasons == {"replayed": 1}


def test_late_messages_within_the_window_are_taken_once() -> None:
    """MQTT may deliver one sender's QoS 0 and QoS 1 messages out of order: a late one is
    taken, once."""
    sender, receiver = Signer(bytes.fromhex(KEY)), Signer(bytes.fromhex(KEY))
    topic = f"{PREFIX}/tables/t1/events/S"
    signed = [sender.sign(topic, f'{{"seq":{n}}}'.encode()) for n in range(100)]
    for message in [*signed[50:], *signed[:50]]:
        assert receiver.open(topic, message) is not None
    assert all(receiver.open(topic, message) is None for message in signed)
    assert receiver.reasons == {"replayed": 100}


# -- end to end: a server, a worker, a seated player, and a broker client with a login -----


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_schema("private_bus") as found:
        yield found


@contextlib.asynccontextmanager
async def _deployment(tmp_path: Path, port: int, pg_url: str) -> AsyncIterator[DominoServer]:
    """server-1 and a worker, each logged in as itself and signing with the key."""
    server = DominoServer(make_config(tmp_path, db=pg_url, node="server-1",
                                      mqtt=url(port, "server-1", USERS["server-1"]),
                                      topic_prefix=PREFIX))
    await server.start()
    stop = asyncio.Event()
    store = EventStore(pg_url)
    worker = InferenceService(store, url(port, "worker", USERS["worker"]), Topics(PREFIX),
                              "worker-1")
    task = asyncio.create_task(worker.run(stop))
    try:
        yield server
    finally:
        stop.set()
        await task
        store.close()
        await server.stop()


async def test_forged_and_replayed_signed_beliefs_never_reach_the_seat(
        broker: int, tmp_path: Path, key_file: Path, pg_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before (no login, no key): a forged belief at seq + 3 on `tables/T/beliefs/S`
    reached the seated player as authentic. Now a stolen worker login forges one (no key:
    unsigned; another key: bad signature) and a leaked server login replays a real signed
    one: each is dropped before use and counted on /healthz, and S sees only the
    workers' beliefs, in order."""
    monkeypatch.setenv("DOMINO_MQTT_KEY_FILE", str(key_file))
    async with _deployment(tmp_path, broker, pg_url) as server, \
            connect(f"ws://127.0.0.1:{server.port}/ws") as player:
        beliefs: list[dict] = []

        async def send(message: dict) -> dict:
            await player.send(json.dumps(message))
            while True:
                got = json.loads(await player.recv())
                if got["type"] == "belief":
                    beliefs.append(got)
                elif got["type"] != "event":
                    return got

        created = await send({"type": "create_table", "id": 1,
                              "bots": dict.fromkeys(("W", "N", "E"), "random")})
        table_id = created["table_id"]
        assert (await send({"type": "join", "id": 2, "table_id": table_id, "seat": "S"}
                           ))["type"] == "joined"
        topic = f"{PREFIX}/tables/{table_id}/beliefs/S"
        reader = asyncio.create_task(_keep_reading(player, beliefs))
        try:
            await wait_for(lambda: bool(beliefs), 60)
            last = beliefs[-1]["seq"]
            forged = json.dumps({"type": "belief", "table_id": table_id, "seq": last + 3,
                                 "observer": "S", "forged": True}).encode()
            async with aiomqtt.Client("127.0.0.1", broker, username="worker",
                                      password=USERS["worker"]) as stolen_worker, \
                    aiomqtt.Client("127.0.0.1", broker, username="server-2",
                                   password=USERS["server-2"]) as leaked_server:
                await stolen_worker.publish(topic, forged, qos=1)
                other_key = Signer(bytes(32))
                await stolen_worker.publish(topic, other_key.sign(topic, forged), qos=1)
                await leaked_server.subscribe(topic)
                captured = await _first_signed(leaked_server)
                await leaked_server.publish(topic, captured, qos=1)  # the replay
                rejected = lambda: server.health()["cluster"]["mqtt_rejected"]  # noqa: E731
                await wait_for(lambda: rejected() == {
                    "unsigned": 1, "bad_signature": 1, "replayed": 1}, 30)
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
    assert not any(belief.get("forged") for belief in beliefs)
    seqs = [belief["seq"] for belief in beliefs]
    assert seqs == sorted(set(seqs))  # nothing delivered twice or out of order
    health = server.health()["cluster"]
    assert health["mqtt_login"] is True and health["mqtt_signed"] is True


async def _keep_reading(player, beliefs: list[dict]) -> None:
    async for text in player:
        message = json.loads(text)
        if message["type"] == "belief":
            beliefs.append(message)


async def _first_signed(client: aiomqtt.Client) -> bytes:
    """The first signed message the client receives (a worker's retained or live belief)."""
    async for message in client.messages:
        payload = message.payload
        if isinstance(payload, bytes) and payload.startswith(MAGIC):
            return payload
    raise AssertionError("the subscription ended")


def test_a_signed_message_moved_to_another_topic_or_sent_late_is_dropped_and_counted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, item 7 (what the tests above left out): a genuine signed move lifted onto
    another seat's or table's topic fails its signature (the topic is signed); one held back
    past the window and sent then is `stale`, even from a sender never heard before."""
    sender, receiver = Signer(bytes.fromhex(KEY)), Signer(bytes.fromhex(KEY))
    mine, other = f"{PREFIX}/tables/t1/commands/S", f"{PREFIX}/tables/t1/commands/W"
    signed = sender.sign(mine, b'{"op":"move","seat":"S"}')
    assert receiver.open(other, signed) is None
    assert receiver.open(f"{PREFIX}/tables/t2/commands/S", signed) is None
    assert receiver.reasons == {"bad_signature": 2}
    held_back = sender.sign(mine, b'{"op":"move","seat":"S","n":2}')
    now = plane.time.time()
    monkeypatch.setattr(plane.time, "time", lambda: now + plane.WINDOW + 1)
    assert receiver.open(mine, held_back) is None
    assert receiver.reasons == {"bad_signature": 2, "stale": 1}
    assert receiver.rejected == 3
    assert receiver.open(mine, signed) is None  # and the first, on its own topic: stale too
