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
                     kept: list[dict[str, Any]] | None = None,
                     read_first: bool = False) -> tuple[list[dict], list[dict]]:
    """South's events and beliefs until the belief of match_ended, playing its lowest card
    whenever it is to act, each move acknowledged before going on (`kept`: frames read
    before, to be handled first; `read_first`: each move waits for the belief of the position
    it is made in, as a person reading the odds would, so a slow inference cannot skip them
    all)."""
    frames = kept if kept is not None else []
    events: list[dict] = []
    beliefs: list[dict] = []
    state = None
    moves = 0
    moved_at = 0
    while True:
        frame = frames.pop(0) if frames else \
            json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame["type"] == "belief":
            beliefs.append(frame)
            if events and events[-1]["type"] == "match_ended" and frame["seq"] == len(events):
                return events, beliefs
            if not (read_first and frame["seq"] == len(events)):
                continue
        elif frame["type"] == "error":
            raise AssertionError(f"refused: {frame}")
        elif frame["type"] != "event":
            continue
        else:
            events.append(frame["event"])
            state = TOY.evolve(state, TOY.parse_event(frame["event"]))
        read = not read_first or any(b["seq"] == len(events) for b in beliefs)
        if state is not None and read and moved_at < len(events) and "S" in TOY.to_act(state):
            moved_at = len(events)  # once per position (a belief may come twice)
            moves += 1
            reply = await request(ws, {"type": "move", "table_id": table_id, "id": f"m{moves}",
                                       "move": {"card": min(state.hands["S"])}}, frames)
            assert reply["type"] == "ack", reply
