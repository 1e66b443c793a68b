"""A game's own bot decides off the event loop: while it thinks, the server goes on serving.

The toy game's bot is wrapped in one that waits on a gate the test holds closed: if bots
decided on the event loop, the loop would be stuck inside the bot and the server could not
answer the request sent meanwhile (the test would time out). Real server, real sockets.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from games.dominoes.game import DOMINOES
from games.registry import Registry
from server.app import DominoServer
from tests.conftest import make_config
from tests.games.toy.game import VARIANT, RandomToyBot, Toy
from tests.games.toy.player import DEADLINE, play_south, request

GATE_SECONDS = 20.0
"""How long the bot waits for the gate before giving up (only on a loop it blocks)."""


class GatedBot:
    """The toy's random bot, which first waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.thinking = threading.Event()
        self.done_waiting = threading.Event()
        self.inner = RandomToyBot()

    def choose(self, view: Sequence[Any], seat: str, rng: random.Random) -> Any:
        self.thinking.set()
        opened = self.gate.wait(GATE_SECONDS)
        self.done_waiting.set()
        if not opened:
            raise TimeoutError("the test never opened the gate")
        return self.inner.choose(view, seat, rng)


class GatedToy(Toy):
    def __init__(self, bot: GatedBot) -> None:
        self.bot = bot

    def bots(self) -> Mapping[str, Any]:
        return {"random": self.bot}


@pytest.fixture
async def gated() -> GatedBot:
    return GatedBot()


@pytest.fixture
async def gated_server(tmp_path: Path, gated: GatedBot) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path, games=Registry([DOMINOES, GatedToy(gated)])))
    await instance.start()
    try:
        yield instance
    finally:
        gated.gate.set()
        await instance.stop()


async def test_the_server_answers_while_a_game_bot_thinks(
    gated_server: DominoServer, gated: GatedBot
) -> None:
    url = f"ws://127.0.0.1:{gated_server.port}/ws"
    async with connect(url) as south, connect(url) as other:
        # North is the bot; whoever leads, North must decide at some point of the match
        created = await request(south, {"type": "create_table", "id": 1, "variant": VARIANT,
                                        "bots": {"N": "random"}})
        table_id = created["table_id"]
        kept: list[dict[str, Any]] = []
        await request(south, {"type": "join", "id": 2, "table_id": table_id, "seat": "S"},
                      kept)
        playing = asyncio.create_task(play_south(south, table_id, kept))
        assert await asyncio.to_thread(gated.thinking.wait, DEADLINE), "the bot never thought"
        # the bot is inside choose() now, holding its thread: the loop must still serve
        listed = await request(other, {"type": "list_tables", "id": 3})
        assert any(t["table_id"] == table_id for t in listed["tables"])
        assert not gated.done_waiting.is_set(), "answered only after the bot gave up waiting"
        gated.gate.set()
        events, _beliefs = await playing
    assert events[-1]["type"] == "match_ended"
