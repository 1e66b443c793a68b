"""Uno for two over the real server: real WebSockets on loopback, a real SQLite file. A
whole match from the default options (checked log, views, beliefs) is in
tests/conformance/test_server.py; here, Uno's own bad moves, each a typed error."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from server.app import DominoServer

DEADLINE = 60.0


async def _request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if reply.get("id") == message["id"]:
            return reply


async def test_a_bad_uno_move_is_a_typed_error(server: DominoServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as south:
        created = await _request(south, {"type": "create_table", "id": 1, "variant": "uno-2",
                                         "bots": {"N": "random"}})
        table_id = created["table_id"]
        await _request(south, {"type": "join", "id": 2, "table_id": table_id, "seat": "S"})
        bad = await _request(south, {"type": "move", "id": 3, "table_id": table_id,
                                     "move": {"kind": "play", "card": "purple-7"}})
        assert bad["type"] == "error" and bad["code"] == "illegal_move"
        wild = await _request(south, {"type": "move", "id": 4, "table_id": table_id,
                                      "move": {"kind": "play", "card": "W", "colour": "pink"}})
        assert wild["type"] == "error" and wild["code"] in ("bad_colour", "illegal_move")
