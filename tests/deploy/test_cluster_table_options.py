"""A table option that decides the seats, across the cluster: a five-player Clue table
(`options: {"players": 5}`) created on server A, played by a person in seat P5 through
server B, with the beliefs from an inference worker process's service; the real Mosquitto
and the real PostgreSQL.

Server B lists the table it does not own with its five seats and its options (read from
the stored config), and the worker folds a belief for P5, a seat the variant's defaults
(four) do not have: it takes the seats from the match's `match_started`, so P5's belief
arrives for every event up to the end and equals Clue's belief of P5's own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from games.clue.game import CLUE
from server.app import DominoServer
from server.beliefs.worker_service import InferenceService
from server.feeds.topics import Topics
from storage import EventStore
from tests.conftest import make_config

pytestmark = pytest.mark.mqtt
DEADLINE = 60.0
SEATS = ["P1", "P2", "P3", "P4", "P5"]


@contextlib.asynccontextmanager
async def _server(tmp_path: Path, node: str, pg_url: str, mqtt_url: str,
                  prefix: str) -> AsyncIterator[DominoServer]:
    config = make_config(tmp_path / node, db=pg_url, mqtt=mqtt_url, node=node,
                         topic_prefix=prefix)
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
        task = asyncio.create_task(
            InferenceService(store, mqtt_url, Topics(prefix), "clue-worker").run(stop))
        try:
            yield
        finally:
            stop.set()
            await task
    finally:
        store.close()


async def _frame(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))


async def _request(ws: ClientConnection, message: dict[str, Any],
                   kept: list[dict[str, Any]]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    while True:
        frame = await _frame(ws)
        if frame.get("id") == message["id"]:
            return frame
        kept.append(frame)


async def _play(ws: ClientConnection, table_id: str, seat: str, kept: list[dict[str, Any]]
                ) -> tuple[list[dict], list[dict]]:
    """The seat's events and beliefs until the belief of match_ended; it moves as Clue's
    random bot would from its own view."""
    bot, rng = CLUE.bots()["random"], random.Random(7)
    events: list[dict] = []
    beliefs: list[dict] = []
    view: list[Any] = []
    state = None
    while True:
        frame = kept.pop(0) if kept else await _frame(ws)
        assert frame["type"] != "error", frame
        if frame["type"] == "belief":
            beliefs.append(frame)
            if events and events[-1]["type"] == "match_ended" and frame["seq"] == len(events):
                return events, beliefs
            continue
        if frame["type"] != "event":
            continue
        events.append(frame["event"])
        event = CLUE.parse_event(frame["event"])
        view.append(event)
        state = CLUE.evolve(state, event)
        if seat in CLUE.to_act(state):
            move = CLUE.command_to_wire(bot.choose(view, seat, rng))
            reply = await _request(ws, {"type": "move", "table_id": table_id,
                                        "id": f"m{len(events)}", "move": move}, kept)
            assert reply["type"] == "ack", reply


async def test_a_five_player_clue_table_across_two_servers_and_a_worker(
    tmp_path: Path, pg_url: str, mqtt_url: str, prefix: str
) -> None:
    async with _server(tmp_path, "a", pg_url, mqtt_url, prefix) as owner, \
            _server(tmp_path, "b", pg_url, mqtt_url, prefix) as other, \
            _worker(pg_url, mqtt_url, prefix):
        async with connect(f"ws://127.0.0.1:{owner.port}/ws") as creator:
            created = await _request(creator, {
                "type": "create_table", "id": 1, "variant": "clue",
                "options": {"players": 5}, "bots": {s: "infomax" for s in SEATS[:4]}}, [])
            assert created["type"] == "table_created", created
        table_id = created["table_id"]

        async with connect(f"ws://127.0.0.1:{other.port}/ws") as person:
            kept: list[dict[str, Any]] = []
            listed = await _request(person, {"type": "list_tables", "id": 2}, kept)
            info = next(t for t in listed["tables"] if t["table_id"] == table_id)
            assert list(info["seats"]) == SEATS and info["options"] == {"players": 5}
            assert info["seats"]["P5"] is None
            joined = await _request(person, {"type": "join", "id": 3, "table_id": table_id,
                                             "seat": "P5", "name": "eve"}, kept)
            assert joined["type"] == "joined", joined
            events, beliefs = await _play(person, table_id, "P5", kept)
        assert table_id not in other.registry.tables  # type: ignore[union-attr]

    store = EventStore(pg_url)
    try:
        stored = [CLUE.parse_event(r.payload) for r in store.read(table_id)]
    finally:
        store.close()
    CLUE.check_log(stored)
    assert list(stored[0].players) == SEATS and stored[-1].type == "match_ended"
    assert [e["seq"] for e in events] == [e.seq for e in stored]
    assert beliefs and {b["observer"] for b in beliefs} == {"P5"}
    for message in beliefs[-3:]:
        belief = CLUE.belief("P5", "clue")
        for event in stored[: message["seq"]]:
            belief.apply(CLUE.view(event, "P5"))
        expected = json.loads(json.dumps(belief.snapshot_dict()))
        assert message["marginals"] == expected["marginals"], message["seq"]
