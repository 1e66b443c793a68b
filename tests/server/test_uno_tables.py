"""Uno for two over the real server: real WebSockets on loopback, a real SQLite file.

A person plays South through the generic `move` message against Uno's greedy bot while a
spectator watches; then the stored log is re-decided by the game's checker, no frame a seat
or the spectator got carries a card it may not see (nor the deck order), and every live
belief South got equals Uno's belief folded from South's own view at that seq.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from games.uno.game import UNO
from games.uno.rules import legal_moves
from server.app import DominoServer
from storage import EventStore

DEADLINE = 60.0
VARIANT = "uno-2-mini"


async def _request(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if reply.get("id") == message["id"]:
            return reply


async def _frames_until_over(ws: ClientConnection, table_id: str | None,
                             ) -> tuple[list[dict], list[dict]]:
    """Frames until match_ended and its belief; when `table_id` is given, South moves (its
    first legal move) whenever it is to act."""
    events: list[dict] = []
    beliefs: list[dict] = []
    state = None
    moves = 0
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
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
        state = UNO.evolve(state, UNO.parse_event(frame["event"]))
        if table_id is not None and "S" in UNO.to_act(state):
            move = legal_moves(state, "S")[0]
            moves += 1
            await ws.send(json.dumps({"type": "move", "table_id": table_id, "id": f"m{moves}",
                                      "move": UNO.command_to_wire(move)}))


async def test_a_person_plays_uno_against_the_greedy_bot(server: DominoServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as south, connect(url) as watcher:
        created = await _request(south, {"type": "create_table", "id": 1, "variant": VARIANT,
                                         "bots": {"N": "greedy"}})
        assert created["type"] == "table_created", created
        table_id = created["table_id"]
        watching = await _request(watcher, {"type": "watch", "id": 2, "table_id": table_id})
        assert watching["type"] == "watching"
        joined = await _request(south, {"type": "join", "id": 3, "table_id": table_id,
                                        "seat": "S", "name": "ann"})
        assert joined["type"] == "joined"
        (events, beliefs), (watched, _spectator_beliefs) = await asyncio.gather(
            _frames_until_over(south, table_id), _frames_until_over(watcher, None))

    store = EventStore(server.config.db)
    try:
        stored = [UNO.parse_event(e.payload) for e in store.read(table_id)]
    finally:
        store.close()
    UNO.check_log(stored)  # every move re-decided
    assert stored[0].game == "uno" and len(events) == len(stored)

    for audience, frames in (("S", events), ("spectator", watched)):
        for frame, truth in zip(frames, stored, strict=False):
            assert frame == UNO.event_to_dict(UNO.view(truth, audience))
            assert frame.get("secret") is None
            if frame["type"] in ("hand_dealt", "cards_drawn"):
                assert (frame["cards"] is None) == (frame["seat"] != audience)

    seen = [UNO.parse_event(e) for e in events]
    for message in beliefs:
        belief = UNO.belief("S", VARIANT)
        for event in seen[: message["seq"]]:
            belief.apply(event)
        expected = belief.snapshot_dict()
        assert message["observer"] == "S" and message["model"] == expected["model"]
        assert message["marginals"] == expected["marginals"]
        assert message["remaining"] == expected.get("remaining", {})
        assert message["status"] == expected["status"]
        assert message["details"].get("expected") == expected.get("expected")  # copies
    assert any(m["marginals"].get("N") for m in beliefs)
    assert any(m["details"].get("expected", {}).get("N") for m in beliefs)


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
