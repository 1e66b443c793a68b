"""A player who dropped before the match ended resumes after it ended: while the table is still
hosted, after it was retired, and after a restart (finished matches are not rebuilt). Each time
they get `resumed {finished: true}`, exactly the events they missed as their seat sees them,
and their final belief; moves and joins are refused as at any finished table."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import uuid
from pathlib import Path

import pytest

from clients.python import DominoClient, SeatView, ServerError
from games.dominoes.audience import view
from games.dominoes.events import Event, parse_event
from protocol import BeliefMessage, EventMessage, ServerMessage
from server.app import DominoServer
from server.feeds.fanout import event_frame
from server.feeds.topics import parse_mqtt_url
from server.table_game import TableGame
from server.tables.archived import ArchivedTable
from server.tables.local import TableOptions
from storage import EventStore
from tests.conftest import make_config
from tests.pg import fresh_schema
from tests.players import expected_belief
from tests.server.helpers import drain, wait_for

BOTS3 = {"W": "random", "N": "greedy", "E": "random"}
MQTT_URL = os.environ.get("DOMINO_ORACLE_TEST_MQTT", "mqtt://127.0.0.1:1883")


async def _started(config: object) -> DominoServer:
    server = DominoServer(config)  # type: ignore[arg-type]
    await server.start()
    return server


async def _resume_and_check(url: str, table_id: str, token: str, after: int,
                            events: list[Event], observer: str = "S") -> None:
    """Resume (or watch, for the spectator) and compare every frame with the stored log."""
    client = await DominoClient.connect(url)
    try:
        if observer == "spectator":
            reply = await client.watch(table_id, after_seq=after)
        else:
            reply = await client.resume(table_id, token, after_seq=after)
            assert reply.seat == observer
        assert reply.finished and reply.after_seq == after and reply.last_seq == len(events)
        got: list[ServerMessage] = await drain(client, quiet=0.5)
        sent = [m for m in got if isinstance(m, EventMessage)]
        assert [m.seq for m in sent] == list(range(after + 1, len(events) + 1))
        for message in sent:  # the frame the live table would have sent, redaction included
            wanted = json.loads(event_frame(table_id, view(events[message.seq - 1], observer),
                                               TableGame.of("partnership-6")))
            assert message.model_dump(mode="json") == wanted
        beliefs = [m for m in got if isinstance(m, BeliefMessage)]
        assert len(beliefs) == 1 and got[-1] is beliefs[0], "the final belief comes last"
        final = expected_belief(table_id, events, observer, len(events))
        assert beliefs[0].model_dump(mode="json") == final
        assert beliefs[0].seq == len(events) and beliefs[0].status == "ended"

        if observer != "spectator":
            with pytest.raises(ServerError) as refused:
                await client.pass_(table_id)
            assert refused.value.code == "wrong_phase"
        with pytest.raises(ServerError) as taken:
            await client.join(table_id, "S", "late")
        assert taken.value.code == "seat_taken"
    finally:
        await client.close()


async def _play_and_drop(server: DominoServer) -> tuple[str, str, int, list[Event]]:
    """S sits with three bots and drops once the first hand is dealt; a stand-in plays for S
    until the match ends. Returns the table, S's token, the last seq S saw, the stored log."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    client = await DominoClient.connect(url)
    table_id = await client.create_table(target=15, bots=BOTS3)
    token = (await client.join(table_id, "S", "South")).token
    seen = SeatView("S")
    while seen.last_seq < 3:
        message = await client.next_message()
        if isinstance(message, EventMessage):
            seen.apply(message)
    await client.close()
    assert server.registry is not None
    table = server.registry.tables[table_id]
    await wait_for(lambda: table.status == "finished", timeout=30)
    with EventStore(server.config.db) as store:
        events = [parse_event(e.payload) for e in store.read(table_id)]
    assert events[-1].type == "match_ended" and len(events) > seen.last_seq + 10
    return table_id, token, seen.last_seq, events


async def test_resume_a_finished_match_hosted_retired_and_after_a_restart(
    tmp_path: Path,
) -> None:
    options = TableOptions(grace=0.05, bot_delay=0.0, hand_pause=0.0, retire_after=1.5)
    config = make_config(tmp_path, tables=options)
    server = await _started(config)
    try:
        url = f"ws://127.0.0.1:{server.port}/ws"
        table_id, token, after, events = await _play_and_drop(server)
        assert server.registry is not None
        table = server.registry.tables[table_id]

        # still hosted (live table), then retired (from the store)
        await _resume_and_check(url, table_id, token, after, events)
        assert server.registry.tables.get(table_id) is table
        await wait_for(lambda: table_id not in server.registry.tables, timeout=10)
        await _resume_and_check(url, table_id, token, after, events)
        assert isinstance(await server.registry.find(table_id), ArchivedTable)
        await _resume_and_check(url, table_id, token, 0, events, observer="spectator")

        stranger = await DominoClient.connect(url)
        with pytest.raises(ServerError) as wrong:
            await stranger.resume(table_id, "x" * 32, after_seq=after)
        assert wrong.value.code == "unauthorized"
        with pytest.raises(ServerError) as unknown:
            await stranger.resume("tnosuchtable", token, after_seq=after)
        assert unknown.value.code == "unknown_table"
        listed = await stranger.list_tables()
        assert table_id not in [t.table_id for t in listed.tables]
        await stranger.close()
    finally:
        await server.stop()

    server = await _started(config)  # a restart does not rebuild the finished match
    try:
        assert server.registry is not None and table_id not in server.registry.tables
        url = f"ws://127.0.0.1:{server.port}/ws"
        await _resume_and_check(url, table_id, token, after, events)
        await _resume_and_check(url, table_id, token, len(events), events)  # nothing missed
    finally:
        await server.stop()


async def test_an_unfinished_stream_is_not_served_as_archived(tmp_path: Path) -> None:
    """Only a match that ended is served from the store; anything else stays unknown."""
    config = make_config(tmp_path)
    server = await _started(config)
    try:
        table = await server.create_table(bots=dict.fromkeys("SWNE", "random"), target=500)
        await wait_for(lambda: table.last_seq > 5)
        assert server.store is not None
        store = server.store.store
        assert await asyncio.to_thread(ArchivedTable.load, store, table.table_id) is None
        assert await asyncio.to_thread(ArchivedTable.load, store, "tnosuchtable") is None
    finally:
        await server.stop()


@pytest.mark.postgres
@pytest.mark.mqtt
async def test_a_retired_finished_match_resumes_on_either_server_of_a_cluster(
    tmp_path: Path,
) -> None:
    """Cluster mode: the owner retires the table (its lease is marked finished); a player
    resuming through the other server, or the owner, is served from the shared store."""
    host, port = parse_mqtt_url(MQTT_URL)
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as error:
        pytest.fail(f"Mosquitto at {MQTT_URL} is required for this test: {error}")
    options = TableOptions(grace=0.05, bot_delay=0.0, hand_pause=0.0, retire_after=0.5)
    prefix = f"test/{uuid.uuid4().hex[:12]}"
    with fresh_schema("finished_resume") as pg_url:
        servers = []
        try:
            for node in ("s1", "s2"):
                servers.append(await _started(make_config(
                    tmp_path, tables=options, db=pg_url, mqtt=MQTT_URL, node=node,
                    topic_prefix=prefix, lease_seconds=2.0)))
            owner, other = servers
            table_id, token, after, events = await _play_and_drop(owner)
            assert owner.registry is not None and other.registry is not None
            await wait_for(lambda: table_id not in owner.registry.tables, timeout=10)
            assert owner.cluster is not None and table_id not in other.registry.tables
            leases = owner.cluster.leases
            await wait_for(lambda: leases.lookup(table_id).finished, timeout=10)  # type: ignore[union-attr]
            for server in (other, owner):
                url = f"ws://127.0.0.1:{server.port}/ws"
                await _resume_and_check(url, table_id, token, after, events)
                assert isinstance(await server.registry.find(table_id), ArchivedTable)
        finally:
            for server in servers:
                await server.stop()
