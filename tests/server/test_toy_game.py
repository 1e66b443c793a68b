"""A game that exists only in the tests plays over the real server: nothing in server/,
storage/ or the web core knows it. Real WebSockets on loopback, a real SQLite file.

The toy (tests/games/toy) is registered beside dominoes in a registry of the test's own;
a person plays South through the generic `move` message against the toy's random bot, a
spectator watches, and then: the stored log is re-decided by the game's checker, every
frame a seat or the spectator got hides what it may not see, and each live belief equals
the game's belief folded from that audience's own view.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from games.dominoes.game import DOMINOES
from games.registry import Registry
from server.app import DominoServer
from storage import EventStore
from tests.conftest import make_config
from tests.games.toy.game import TOY, VARIANT, deal
from tests.games.toy.player import DEADLINE, play_south, request


@pytest.fixture
async def toy_server(tmp_path: Path) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path, games=Registry([DOMINOES, TOY])))
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


def _get_json(url: str) -> dict[str, Any]:
    """GET a JSON route (an HTTP error's JSON body too)."""
    try:
        with urllib.request.urlopen(url, timeout=DEADLINE) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return json.loads(error.read())






async def test_a_toy_game_plays_over_the_real_server(toy_server: DominoServer) -> None:
    url = f"ws://127.0.0.1:{toy_server.port}/ws"
    async with connect(url) as south, connect(url) as watcher:
        created = await request(south, {"type": "create_table", "id": 1, "variant": VARIANT,
                                         "bots": {"N": "random"}})
        assert created["type"] == "table_created", created
        table_id = created["table_id"]
        listed = await request(watcher, {"type": "list_tables", "id": 2})
        info = next(t for t in listed["tables"] if t["table_id"] == table_id)
        assert info["game"] == "toy" and set(info["seats"]) == {"S", "N"}
        watching = await request(watcher, {"type": "watch", "id": 3, "table_id": table_id})
        assert watching["type"] == "watching"
        joined = await request(south, {"type": "join", "id": 4, "table_id": table_id,
                                        "seat": "S", "name": "ann"})
        assert joined["type"] == "joined"
        events, beliefs = await play_south(south, table_id)

    assert events[-1]["type"] == "match_ended"
    store = EventStore(toy_server.config.db)
    try:
        stored = [TOY.parse_event(e.payload) for e in store.read(table_id)]
    finally:
        store.close()
    TOY.check_log(stored)  # every move re-decided by the toy's own rules
    assert stored[0].game == "toy"
    hands, _kitty = deal(next(e.secret for e in stored if getattr(e, "secret", None)))

    # South never saw North's cards nor the shuffle's secret before the end
    for event in events[:-1]:
        if event["type"] == "dealt":
            assert event["secret"] is None
            assert event["cards"] == (hands["S"] if event["seat"] == "S" else None)
    # every live belief is the toy belief of South's own view at that seq
    seen = [TOY.parse_event(e) for e in events]
    for message in beliefs:
        belief = TOY.belief("S", VARIANT)
        for event in seen[: message["seq"]]:
            belief.apply(event)
        expected = belief.snapshot_dict()
        assert message["observer"] == "S" and message["model"] == "uniform"
        assert message["marginals"] == expected["marginals"]
        assert message["consistent_deals"] == expected["consistent_deals"]
    assert any(m["marginals"] for m in beliefs)

    # the replay routes serve it too: South's replay with the toy belief at every step, and
    # no move advice (the advisor plays dominoes only)
    base = f"http://127.0.0.1:{toy_server.port}/api/matches/{table_id}"
    replay = await asyncio.to_thread(_get_json, f"{base}/replay?perspective=S")
    assert replay["game"] == "toy" and replay["finished"]
    assert len(replay["beliefs"]) == len(replay["events"]) == len(stored)
    for step, body in enumerate(replay["beliefs"], start=1):
        folded = TOY.belief("S", VARIANT)
        for event in seen[:step]:
            folded.apply(event)
        assert body["marginals"] == folded.snapshot_dict()["marginals"], step
    refused = await asyncio.to_thread(_get_json, f"{base}/advice?seq=4")
    assert "not available for toy" in refused["error"]


async def test_a_toy_table_refuses_a_bad_move_with_a_typed_error(
    toy_server: DominoServer,
) -> None:
    url = f"ws://127.0.0.1:{toy_server.port}/ws"
    async with connect(url) as south:
        created = await request(south, {"type": "create_table", "id": 1, "variant": VARIANT,
                                         "bots": {"N": "random"}})
        table_id = created["table_id"]
        refused = await request(south, {"type": "join", "id": 2, "table_id": table_id,
                                         "seat": "W"})
        assert refused["type"] == "error" and refused["code"] == "bad_request"
        await request(south, {"type": "join", "id": 3, "table_id": table_id, "seat": "S"})
        bad = await request(south, {"type": "move", "id": 4, "table_id": table_id,
                                     "move": {"card": "seven"}})
        assert bad["type"] == "error" and bad["code"] == "illegal_move"
        wrong_bot = await request(south, {"type": "create_table", "id": 5, "variant": VARIANT,
                                           "bots": {"N": "pimc"}})
        assert wrong_bot["type"] == "error" and wrong_bot["code"] == "unknown_bot"
        advised = await request(south, {"type": "create_table", "id": 6, "variant": VARIANT,
                                         "advice": True})
        assert advised["type"] == "error" and advised["code"] == "bad_request"
        assert "advice" in advised["message"]
