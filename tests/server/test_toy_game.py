"""A game without an advisor or dominoes' bots, over the real server (real WebSockets on
loopback, a real SQLite file): the toy (tests/games/toy), registered beside dominoes in a
registry of the test's own. Its whole match at a table is in tests/conformance/test_server.py;
here, what a table of such a game refuses, each a typed error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from games.dominoes.game import DOMINOES
from games.registry import Registry
from server.app import DominoServer
from tests.conftest import make_config
from tests.games.toy.game import TOY, VARIANT
from tests.games.toy.player import request


@pytest.fixture
async def toy_server(tmp_path: Path) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path, games=Registry([DOMINOES, TOY])))
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


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
