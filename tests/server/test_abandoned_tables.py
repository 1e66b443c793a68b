"""A table whose people have all left ends after `abandon_after` seconds and says so.

Every person seat disconnected for the period: the bots and stand-ins stop, the status is
"abandoned" in the listing and /healthz, `resume` answers `table_abandoned` (live, retired
and after a restart, which does not bring the table back), `watch` still shows the match as
stored. A person returning before the period cancels it; a table of bots only never ends so.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import urllib.request
import uuid
from pathlib import Path

import pytest

from archive.streams import seats_stream
from clients.python import DominoClient, ServerError
from protocol import EventMessage
from server.app import DominoServer
from server.feeds.topics import parse_mqtt_url
from server.tables.archived import ArchivedTable
from server.tables.local import Table, TableOptions
from storage import EventStore
from tests.conftest import make_config
from tests.pg import fresh_schema
from tests.server.helpers import drain, wait_for

BOTS3 = {"W": "random", "N": "greedy", "E": "random"}
MQTT_URL = os.environ.get("DOMINO_ORACLE_TEST_MQTT", "mqtt://127.0.0.1:1883")
GIVE_UP = 30.0
"""Seconds before a poll gives up (a bound, never a figure a test checks)."""


def _options(**changes: float) -> TableOptions:
    base = {"grace": 0.05, "bot_delay": 0.01, "hand_pause": 0.0, "retire_after": 60.0,
            "abandon_after": 0.2}
    base.update(changes)
    return TableOptions(**base)


async def _started(tmp_path: Path, options: TableOptions) -> DominoServer:
    server = DominoServer(make_config(tmp_path, tables=options))
    await server.start()
    return server


def _health(port: int) -> dict[str, object]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


async def _seat_and_leave(server: DominoServer) -> tuple[Table, str]:
    """S sits with three bots, sees the deal, and disconnects: returns the table, S's token."""
    client = await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws")
    table_id = await client.create_table(target=500, bots=BOTS3)
    token = (await client.join(table_id, "S", "South")).token
    while True:
        message = await client.next_message(GIVE_UP)
        if isinstance(message, EventMessage) and message.seq >= 3:
            break
    await client.close()
    assert server.registry is not None
    return server.registry.tables[table_id], token


def _abandoned_at(server: DominoServer, table_id: str) -> tuple[int, list[object]]:
    """The match log's length as stored, and the `event_seq` of each `table_abandoned`
    record in the seats stream."""
    with EventStore(server.config.db) as store:
        last = store.last_seq(table_id)
        records = [e.payload for e in store.read(seats_stream(table_id))]
    return last, [r["event_seq"] for r in records if r.get("type") == "table_abandoned"]


async def test_everyone_gone_ends_the_table_and_says_so(tmp_path: Path) -> None:
    server = await _started(tmp_path, _options(retire_after=1.0))
    url = f"ws://127.0.0.1:{server.port}/ws"
    try:
        table, token = await _seat_and_leave(server)
        table_id = table.table_id
        await wait_for(lambda: table.status == "abandoned", timeout=GIVE_UP)
        frozen = table.last_seq
        await asyncio.sleep(0.5)  # ten grace periods and fifty bot delays: nobody moves
        assert table.last_seq == frozen and table.autopilot == set()

        client = await DominoClient.connect(url)
        listed = {t.table_id: t for t in (await client.list_tables()).tables}
        assert listed[table_id].status == "abandoned"
        health = await asyncio.to_thread(_health, server.port)
        assert health["tables_abandoned"] == 1 and health["tables_playing"] == 0

        with pytest.raises(ServerError) as refused:
            await client.resume(table_id, token, after_seq=0)
        assert refused.value.code == "table_abandoned"
        watching = await client.watch(table_id)
        assert watching.last_seq == frozen and not watching.finished
        seen = [m for m in await drain(client, quiet=0.3) if isinstance(m, EventMessage)]
        assert [m.seq for m in seen] == list(range(1, frozen + 1))  # nothing after the stop
        assert table.last_seq == frozen

        # the match log stays as it was (no event was added); one record says where it stopped
        assert _abandoned_at(server, table_id) == (frozen, [frozen])

        # retired like a finished table; resume still says why, watch still shows it
        await wait_for(lambda: table_id not in server.registry.tables,  # type: ignore[union-attr]
                       timeout=GIVE_UP)
        assert table_id not in [t.table_id for t in (await client.list_tables()).tables]
        assert isinstance(await server.registry.find(table_id), ArchivedTable)  # type: ignore[union-attr]
        with pytest.raises(ServerError) as later:
            await client.resume(table_id, token, after_seq=0)
        assert later.value.code == "table_abandoned"
        retired = await client.watch(table_id)
        assert retired.last_seq == frozen and not retired.finished
        await client.close()
    finally:
        await server.stop()

    server = await _started(tmp_path, _options())  # a restart does not bring it back
    try:
        assert server.registry is not None and table_id not in server.registry.tables
        client = await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws")
        with pytest.raises(ServerError) as restarted:
            await client.resume(table_id, token, after_seq=0)
        assert restarted.value.code == "table_abandoned"
        await client.close()
    finally:
        await server.stop()


async def test_a_person_back_before_the_period_cancels_it(tmp_path: Path) -> None:
    server = await _started(tmp_path, _options(abandon_after=0.5))
    url = f"ws://127.0.0.1:{server.port}/ws"
    try:
        table, token = await _seat_and_leave(server)
        await wait_for(lambda: table._abandon_handle is not None,
                       timeout=GIVE_UP)
        back = await DominoClient.connect(url)
        await back.resume(table.table_id, token, after_seq=0)
        assert table._abandon_handle is None
        await asyncio.sleep(1.5)  # three periods: the cancelled clock does not fire
        assert table.status == "playing" and not table.abandoned
        await back.close()  # all gone again: the clock starts afresh and runs out
        await wait_for(lambda: table.status == "abandoned", timeout=GIVE_UP)
    finally:
        await server.stop()


async def test_a_table_of_bots_only_is_never_abandoned(tmp_path: Path) -> None:
    server = await _started(tmp_path, _options(abandon_after=0.01, bot_delay=0.0))
    try:
        table = await server.create_table(bots=dict.fromkeys("SWNE", "random"), target=500)
        await wait_for(lambda: table.last_seq > 60 or table.status != "playing",
                       timeout=GIVE_UP)
        assert table.status in ("playing", "finished") and not table.abandoned
        assert table._abandon_handle is None
    finally:
        await server.stop()


async def test_a_recovered_table_nobody_comes_back_to_is_abandoned(tmp_path: Path) -> None:
    server = await _started(tmp_path, _options(abandon_after=60.0, grace=60.0))
    try:
        table, token = await _seat_and_leave(server)
        table_id = table.table_id
        assert table.status == "playing"
    finally:
        await server.stop()

    server = await _started(tmp_path, _options())
    try:
        assert server.registry is not None
        recovered = server.registry.tables[table_id]
        await wait_for(lambda: recovered.status == "abandoned", timeout=GIVE_UP)
        client = await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws")
        with pytest.raises(ServerError) as refused:
            await client.resume(table_id, token, after_seq=0)
        assert refused.value.code == "table_abandoned"
        await client.close()
    finally:
        await server.stop()


async def test_a_persons_own_move_restarts_the_clock(tmp_path: Path) -> None:
    """In a cluster a table taken over counts only its new owner's connections: a person
    attached through another server is not counted, yet their moves arrive. Each restarts
    the abandon clock (here the lost count is made by hand, on one server)."""
    server = await _started(tmp_path, _options(abandon_after=60.0, grace=60.0))
    try:
        client = await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws")
        table_id = await client.create_table(target=500, bots=BOTS3)
        await client.join(table_id, "S", "South")
        assert server.registry is not None
        table = server.registry.tables[table_id]
        table.presence("S", -1)  # as after a takeover: S is attached but not counted here
        first = table._abandon_handle
        assert first is not None
        while True:
            message = await client.next_message(GIVE_UP)
            if isinstance(message, EventMessage) and message.legal_moves:
                break
        await client.move(table_id, message.legal_moves[0])
        assert table._abandon_handle is not None and table._abandon_handle is not first
        assert first.cancelled() and table.status == "playing"
        await client.close()
    finally:
        await server.stop()


@pytest.mark.postgres
@pytest.mark.mqtt
async def test_a_resume_through_another_server_of_a_cluster_is_told(tmp_path: Path) -> None:
    """Cluster mode: the owner abandons the table; a resume through the other server is
    answered `table_abandoned` too, and its listing says `abandoned`."""
    host, port = parse_mqtt_url(MQTT_URL)
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as error:
        pytest.fail(f"Mosquitto at {MQTT_URL} is required for this test: {error}")
    prefix = f"test/{uuid.uuid4().hex[:12]}"
    with fresh_schema("abandoned") as pg_url:
        servers: list[DominoServer] = []
        try:
            for node in ("s1", "s2"):
                server = DominoServer(make_config(
                    tmp_path, tables=_options(), db=pg_url, mqtt=MQTT_URL, node=node,
                    topic_prefix=prefix, lease_seconds=2.0))
                await server.start()
                servers.append(server)
            owner, other = servers
            table, token = await _seat_and_leave(owner)
            await wait_for(lambda: table.status == "abandoned", timeout=GIVE_UP)
            client = await DominoClient.connect(f"ws://127.0.0.1:{other.port}/ws")
            status = ""
            while status != "abandoned":  # once the owner's side record is stored
                listed = {t.table_id: t for t in (await client.list_tables()).tables}
                status = listed[table.table_id].status
                assert status in ("playing", "abandoned")
                await asyncio.sleep(0.05)
            with pytest.raises(ServerError) as refused:
                await client.resume(table.table_id, token, after_seq=0)
            assert refused.value.code == "table_abandoned"
            await client.close()
        finally:
            for server in servers:
                await server.stop()


async def test_a_table_nobody_sits_at_is_closed_then_retired(tmp_path: Path) -> None:
    """Before: a table still waiting for players was never abandoned (only a match in play
    was), so every lobby left behind stayed hosted and listed for as long as the server ran.
    Now one with no person connected to a seat for `close_empty_after` closes as abandoned
    (its creator, connected but not seated, does not count), refuses a join, and retires."""
    server = await _started(tmp_path, _options(close_empty_after=0.2, retire_after=1.0))
    try:
        client = await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws")
        table_id = await client.create_table(target=500, bots=BOTS3)  # South stays empty
        assert server.registry is not None
        table = server.registry.tables[table_id]
        await wait_for(lambda: table.status == "abandoned", timeout=GIVE_UP)
        listed = {t.table_id: t for t in (await client.list_tables()).tables}
        assert listed[table_id].status == "abandoned"
        with pytest.raises(ServerError) as refused:
            await client.join(table_id, "S", "South")
        assert refused.value.code == "table_abandoned"
        assert "S" not in table.seats
        assert _abandoned_at(server, table_id) == (0, [0])
        await wait_for(lambda: table_id not in server.registry.tables,  # type: ignore[union-attr]
                       timeout=GIVE_UP)
        await client.close()
    finally:
        await server.stop()
    server = await _started(tmp_path, _options())  # a restart does not bring it back
    try:
        assert server.registry is not None and table_id not in server.registry.tables
    finally:
        await server.stop()


async def test_a_waiting_table_with_a_player_at_it_stays_open(tmp_path: Path) -> None:
    """South sits and waits for East: the table stays open however long, and its clock
    starts only once South has gone."""
    server = await _started(tmp_path, _options(close_empty_after=0.2))
    try:
        client = await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws")
        table_id = await client.create_table(target=500, bots={"W": "random", "N": "random"})
        await client.join(table_id, "S", "South")
        assert server.registry is not None
        table = server.registry.tables[table_id]
        await wait_for(lambda: table.connected["S"] == 1, timeout=GIVE_UP)
        await asyncio.sleep(1.0)  # five periods with South at the table
        assert table.status == "waiting" and table._abandon_handle is None
        await client.close()
        await wait_for(lambda: table.status == "abandoned", timeout=GIVE_UP)
    finally:
        await server.stop()


async def _after_the_queue(table: Table) -> None:
    """Every job queued so far has run (the actor is first in, first out)."""

    async def nothing() -> None:
        return None

    await table.call(nothing)


async def test_a_due_abandonment_survives_the_bots_moves_and_yields_to_a_sign_of_life(
        tmp_path: Path) -> None:
    """The clock fired and the abandonment waits behind other jobs: the bots' moves meanwhile
    re-arm the clock (every event reviews it) but do not call it off; a person's move or
    a seat claimed does. The clock is driven by hand here (a period no test waits for)."""
    server = await _started(tmp_path, _options(abandon_after=3600.0))
    try:
        table, _token = await _seat_and_leave(server)
        await wait_for(lambda: table._abandon_handle is not None, timeout=GIVE_UP)
        assert table._abandon_handle is not None
        table._abandon_handle.cancel()
        table._abandon_over()  # the clock fires: the abandonment is queued
        table._sign_of_life()  # ... and a move of South's arrives before it runs
        await _after_the_queue(table)
        assert table.status == "playing"

        assert table._abandon_handle is not None  # the clock started over
        table._abandon_handle.cancel()
        table._abandon_over()  # it fires again
        table._review_absence()  # a bot's event re-arms it before the job runs
        await _after_the_queue(table)
        assert table.status == "abandoned"
    finally:
        await server.stop()
