"""A person playing the toy game's South over a raw WebSocket: requests with ids, and a
seat that plays its lowest card whenever it is to act (shared by the server and cluster
tests)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection

from tests.games.toy.game import TOY

DEADLINE = 60.0


async def request(ws: ClientConnection, message: dict[str, Any],
                  kept: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Send, then read until the reply with this id (other frames go to `kept`, if given)."""
    await ws.send(json.dumps(message))
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame.get("id") == message["id"]:
            return frame
        if kept is not None:
            kept.append(frame)


async def play_south(ws: ClientConnection, table_id: str,
                     kept: list[dict[str, Any]] | None = None) -> tuple[list[dict], list[dict]]:
    """South's events and beliefs until the belief of match_ended, playing its lowest card
    whenever it is to act, each move acknowledged before going on (`kept`: frames read
    before, to be handled first)."""
    frames = kept if kept is not None else []
    events: list[dict] = []
    beliefs: list[dict] = []
    state = None
    moves = 0
    while True:
        frame = frames.pop(0) if frames else \
            json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame["type"] == "belief":
            beliefs.append(frame)
            if events and events[-1]["type"] == "match_ended" and frame["seq"] == len(events):
                return events, beliefs
            continue
        if frame["type"] == "error":
            raise AssertionError(f"refused: {frame}")
        if frame["type"] != "event":
            continue
        events.append(frame["event"])
        state = TOY.evolve(state, TOY.parse_event(frame["event"]))
        if "S" in TOY.to_act(state):
            moves += 1
            reply = await request(ws, {"type": "move", "table_id": table_id, "id": f"m{moves}",
                                       "move": {"card": min(state.hands["S"])}}, frames)
            assert reply["type"] == "ack", reply
