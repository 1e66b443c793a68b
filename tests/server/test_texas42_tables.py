"""Texas 42 at a real table: real WebSockets on loopback, a real SQLite file. A whole match
from the default options (checked log, views, beliefs, replays) is in
tests/conformance/test_server.py; here, the table options of Texas 42 reaching the match."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from games.texas42.game import TEXAS42, VARIANT
from games.texas42.rules import legal_tiles
from server.app import DominoServer
from tests.conftest import make_config

DEADLINE = 60.0


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path))
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


async def request(ws: ClientConnection, message: dict[str, Any],
                  kept: list[dict[str, Any]]) -> dict[str, Any]:
    """Send, then read until the reply with this id (other frames go to `kept`)."""
    await ws.send(json.dumps(message))
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame.get("id") == message["id"]:
            return frame
        kept.append(frame)


async def test_table_options_reach_the_match_nello_is_named_and_the_partner_sits_out(
        server: DominoServer) -> None:
    """create_table's options (`nello`, `dealer_must_bid`) are declared by texas-42 and read in
    start: the match says so; South bids 84, names nello, and North never plays."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    kept: list[dict[str, Any]] = []
    async with connect(url) as south:
        created = await request(south, {
            "type": "create_table", "id": 1, "variant": VARIANT,
            "options": {"nello": True, "dealer_must_bid": True, "target_marks": 1},
            "bots": dict.fromkeys("WNE", "greedy")}, kept)
        assert created["type"] == "table_created", created
        table_id = created["table_id"]
        joined = await request(south, {"type": "join", "id": 2, "table_id": table_id,
                                        "seat": "S", "name": "ann"}, kept)
        assert joined["type"] == "joined", joined
        events: list[dict[str, Any]] = []
        state = None
        n = 2
        while not events or events[-1]["type"] != "hand_ended":
            frame = kept.pop(0) if kept else json.loads(
                await asyncio.wait_for(south.recv(), DEADLINE))
            if frame["type"] != "event":
                continue
            events.append(frame["event"])
            state = TEXAS42.evolve(state, TEXAS42.parse_event(frame["event"]))
            if "S" not in TEXAS42.to_act(state):
                continue
            if state.phase == "bidding":
                move = {"kind": "bid", "bid": 84}
            elif state.phase == "trump":
                move = {"kind": "trump", "trump": "nello"}
            else:
                move = {"kind": "play", "tile": str(legal_tiles(state, "S")[0])}
            n += 1
            reply = await request(south, {"type": "move", "table_id": table_id, "id": n,
                                           "move": move}, kept)
            assert reply["type"] == "ack", reply
    started = events[0]
    assert started["nello"] is True and started["dealer_must_bid"] is True
    assert any(e["type"] == "trump_named" and e["trump"] == "nello" for e in events)
    plays = [e for e in events if e["type"] == "played"]
    assert plays and all(e["seat"] != "N" for e in plays)
    ended = events[-1]
    assert ended["trump"] == "nello" and ended["outcome"] in ("made", "set")
