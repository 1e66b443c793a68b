"""Clue's show-aware layer over a real WebSocket: a seated player asks for `odds` under
`behaviour:shows` and gets a labelled belief of every other holder from its own view. Clue's
layer names no hand: the reply's `hand` is null (which the reply once refused: `internal`)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from server.app import DominoServer

DEADLINE = 120.0
"""Only bounds a hang."""
TRIES = 600
"""Asks before giving up (0.05 s apart while the workers start): a bound on a hang."""


async def _ask(ws: ClientConnection, message: dict[str, Any], tag: str) -> dict[str, Any]:
    await ws.send(json.dumps({**message, "id": tag}))
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame.get("id") == tag:
            return dict(frame)


async def test_a_seat_gets_the_show_aware_layer_of_its_own_view(server: DominoServer) -> None:
    async with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        created = await _ask(ws, {"type": "create_table", "variant": "clue-mini",
                                  "bots": {"P2": "infomax", "P3": "random"}}, "create")
        table_id = created["table_id"]
        joined = await _ask(ws, {"type": "join", "table_id": table_id, "seat": "P1",
                                 "name": "ann"}, "join")
        assert joined["type"] == "joined", joined
        reply: dict[str, Any] = {}
        for i in range(TRIES):
            reply = await _ask(ws, {"type": "odds", "table_id": table_id,
                                    "model": "behaviour:shows"}, f"odds{i}")
            if reply["type"] == "odds_belief":
                break
            # the deal is still to come, or the worker pool is starting: ask again
            assert reply["code"] in ("wrong_phase", "busy"), reply
            await asyncio.sleep(0.05)
        assert reply["type"] == "odds_belief", reply
        assert reply["model"] == "behaviour:shows" and reply["observer"] == "P1"
        assert reply["hand"] is None and "not a fact" in reply["label"]
        assert {"P2", "P3", "envelope"} <= set(reply["marginals"])
        assert reply["exact"] and reply["weighed"] == 0  # nothing shown to P1 before it moves
        envelope = reply["marginals"]["envelope"]
        assert abs(sum(envelope.values()) - 3.0) < 1e-5  # one card of each kind (rounded)
        refused = await _ask(ws, {"type": "odds", "table_id": table_id,
                                  "model": "behaviour:plays"}, "plays")
        assert refused["code"] == "unknown_model" and "behaviour:shows" in refused["message"]
