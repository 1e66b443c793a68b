"""The cluster mode hosts any registered game, not only dominoes: a game that exists only in
the tests (tests/games/toy) plays across two servers and a worker, over the real Mosquitto
and the real PostgreSQL.

Server A owns the table (it was created there); South sits and plays through server B, so
every move is forwarded to A over MQTT and every event and belief reaches B's connection
over the bus, which must turn them back into the toy's events (not dominoes'). A spectator
watches on B too. The beliefs come from an inference worker with the same registry.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from games.dominoes.game import DOMINOES
from games.registry import Registry
from server.app import DominoServer
from server.beliefs.worker_service import InferenceService
from server.feeds.topics import Topics
from storage import EventStore
from tests.conftest import make_config
from tests.games.toy.game import TOY, VARIANT
from tests.games.toy.player import DEADLINE, play_south, request

pytestmark = pytest.mark.mqtt
GAMES_WITH_TOY = Registry([DOMINOES, TOY])


@contextlib.asynccontextmanager
async def _server(tmp_path: Path, node: str, pg_url: str, mqtt_url: str,
                  prefix: str) -> AsyncIterator[DominoServer]:
    config = make_config(tmp_path / node, db=pg_url, mqtt=mqtt_url, node=node,
                         topic_prefix=prefix, games=GAMES_WITH_TOY)
    instance = DominoServer(config)
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


@contextlib.asynccontextmanager
async def _worker(pg_url: str, mqtt_url: str, prefix: str) -> AsyncIterator[None]:
    stop = asyncio.Event()
    store = EventStore(pg_url)
    try:
        service = InferenceService(store, mqtt_url, Topics(prefix), "toy-worker",
                                   games=GAMES_WITH_TOY)
        task = asyncio.create_task(service.run(stop))
        try:
            yield
        finally:
            stop.set()
            await task
    finally:
        store.close()






async def test_a_game_other_than_dominoes_plays_across_two_servers(
    tmp_path: Path, pg_url: str, mqtt_url: str, prefix: str
) -> None:
    async with _server(tmp_path, "a", pg_url, mqtt_url, prefix) as owner, \
            _server(tmp_path, "b", pg_url, mqtt_url, prefix) as other, \
            _worker(pg_url, mqtt_url, prefix):
        async with connect(f"ws://127.0.0.1:{owner.port}/ws") as creator:
            created = await request(creator, {"type": "create_table", "id": 1,
                                               "variant": VARIANT, "bots": {"N": "random"}})
            assert created["type"] == "table_created", created
        table_id = created["table_id"]
        assert table_id in owner.registry.tables  # type: ignore[union-attr]

        url = f"ws://127.0.0.1:{other.port}/ws"
        async with connect(url) as south, connect(url) as watcher:
            watching = await request(watcher, {"type": "watch", "id": 2, "table_id": table_id})
            assert watching["type"] == "watching", watching
            kept: list[dict[str, Any]] = []
            joined = await request(south, {"type": "join", "id": 3, "table_id": table_id,
                                            "seat": "S", "name": "ann"}, kept)
            assert joined["type"] == "joined", joined
            events, beliefs = await play_south(south, table_id, kept, read_first=True)
            seen_by_watcher: list[dict] = []
            while len(seen_by_watcher) < len(events):
                frame = json.loads(await asyncio.wait_for(watcher.recv(), DEADLINE))
                if frame["type"] == "event":
                    seen_by_watcher.append(frame["event"])
        assert table_id not in other.registry.tables  # type: ignore[union-attr]

    assert events[0]["type"] == "match_started" and events[0]["game"] == "toy"
    assert events[-1]["type"] == "match_ended"
    store = EventStore(pg_url)
    try:
        stored = [TOY.parse_event(record.payload) for record in store.read(table_id)]
    finally:
        store.close()
    TOY.check_log(stored)
    assert len(stored) == len(events) == len(seen_by_watcher)
    referee = {e.seq: e for e in stored}
    for dealt in (e for e in events if e["type"] == "dealt" and e["seat"] == "N"):
        assert dealt["cards"] is None  # North's cards never reached South over the bus
    for dealt in (e for e in seen_by_watcher if e["type"] == "dealt"):
        assert dealt["cards"] is None and dealt["secret"] is None  # nor the spectator
    assert all(referee[e["seq"]].type == e["type"] for e in events)

    seen = [TOY.parse_event(e) for e in events]
    for message in beliefs:
        belief = TOY.belief("S", VARIANT)
        for event in seen[: message["seq"]]:
            belief.apply(event)
        assert message["observer"] == "S"
        assert message["marginals"] == belief.snapshot_dict()["marginals"], message["seq"]
    assert any(m["marginals"] for m in beliefs)
