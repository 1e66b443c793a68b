"""A server keeps its handle on a table another server owns only while someone uses it.

In the cluster mode a server reaches a table it does not own through a `RemoteTable` (its
feeds over the bus, its commands forwarded). Every table a connection joined or watched
there got one, and nothing let it go: a server's memory grew with every remote table it had
ever been asked about. Now a handle lives as long as a feed or a command holds it. Real
Mosquitto and PostgreSQL; the collector off, so reference counting alone must free it.
"""

from __future__ import annotations

import contextlib
import functools
import weakref
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from server.app import DominoServer
from tests.conftest import make_config
from tests.games.toy.player import request
from tests.server.helpers import freed, wait_for

pytestmark = [pytest.mark.mqtt, pytest.mark.postgres]
GIVE_UP = 30.0
"""Seconds a wait gives up after: a bound, never a figure a test checks."""


@contextlib.asynccontextmanager
async def _server(tmp_path: Path, node: str, pg_url: str, mqtt_url: str,
                  prefix: str) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path / node, db=pg_url, mqtt=mqtt_url, node=node,
                                        topic_prefix=prefix))
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


async def test_a_remote_tables_handle_goes_once_nobody_uses_it(
        tmp_path: Path, pg_url: str, mqtt_url: str, prefix: str, collector_off: None) -> None:
    async with _server(tmp_path, "a", pg_url, mqtt_url, prefix) as owner, \
            _server(tmp_path, "b", pg_url, mqtt_url, prefix) as other:
        async with connect(f"ws://127.0.0.1:{owner.port}/ws") as creator:
            created = await request(creator, {"type": "create_table", "id": 1,
                                               "bots": {"W": "random", "N": "random",
                                                        "E": "random"}})
            assert created["type"] == "table_created", created
        table_id = created["table_id"]  # South's seat stays empty: the match waits for it
        cluster = other.cluster
        assert cluster is not None
        for round_ in range(2):  # watched, left; and again: a new handle, let go again
            async with connect(f"ws://127.0.0.1:{other.port}/ws") as watcher:
                watching = await request(watcher, {"type": "watch", "id": 2,
                                                   "table_id": table_id})
                assert watching["type"] == "watching", (round_, watching)
                handle = weakref.ref(cluster.remote[table_id])
            await wait_for(functools.partial(freed, handle), timeout=GIVE_UP)
            assert table_id not in cluster.remote
