"""Texas 42 at a real table: real WebSockets on loopback, a real SQLite file.

A person sits South against three greedy bots, bids 84 (nobody can overcall it), names the
trump its hand is longest in and plays each trick, while a spectator watches. Then: the
stored log is re-decided by the game's checker; South's frames never show another hand nor a
seed before its reveal; the spectator sees no hand at all; every live belief equals the game's
own belief folded from that audience's view.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from games.interface import SPECTATOR
from games.texas42.game import TEXAS42, VARIANT
from games.texas42.greedy import choose_trump
from games.texas42.rules import deal, legal_tiles
from games.texas42.suits import trump_name
from server.app import DominoServer
from storage import EventStore
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


def south_move(state: Any) -> dict[str, Any]:
    """The person's choice: bid 84 at once, then pass; longest trump; first legal domino."""
    if state.phase == "bidding":
        return {"kind": "bid", "bid": 84} if state.high_bid == 0 else {"kind": "pass"}
    if state.phase == "trump":
        return {"kind": "trump", "trump": trump_name(choose_trump(state.hands["S"]))}
    return {"kind": "play", "tile": str(legal_tiles(state, "S")[0])}


async def play_south(ws: ClientConnection, table_id: str, kept: list[dict[str, Any]]
                     ) -> tuple[list[dict], list[dict], list[str]]:
    """South's events and beliefs until the belief at match_ended; the moves it sent."""
    events: list[dict] = []
    beliefs: list[dict] = []
    sent: list[str] = []
    state = None
    while True:
        frame = kept.pop(0) if kept else json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame["type"] == "belief":
            beliefs.append(frame)
            if events and events[-1]["type"] == "match_ended" and frame["seq"] == len(events):
                return events, beliefs, sent
            continue
        assert frame["type"] != "error", frame
        if frame["type"] != "event":
            continue
        events.append(frame["event"])
        state = TEXAS42.evolve(state, TEXAS42.parse_event(frame["event"]))
        if "S" in TEXAS42.to_act(state):
            move = south_move(state)
            sent.append(move["kind"])
            reply = await request(ws, {"type": "move", "table_id": table_id,
                                       "id": f"m{len(sent)}", "move": move}, kept)
            assert reply["type"] == "ack", reply


async def watch_to_the_end(ws: ClientConnection, kept: list[dict]) -> tuple[list, list]:
    events: list[dict] = []
    beliefs: list[dict] = []
    while True:
        frame = kept.pop(0) if kept else json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame["type"] == "event":
            events.append(frame["event"])
        elif frame["type"] == "belief":
            beliefs.append(frame)
            if events and events[-1]["type"] == "match_ended" and frame["seq"] == len(events):
                return events, beliefs


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=DEADLINE) as reply:
        return json.loads(reply.read())


def folded_belief(events: list[dict], audience: str, upto: int) -> dict[str, Any]:
    belief = TEXAS42.belief(audience, VARIANT)
    for data in events[:upto]:
        belief.apply(TEXAS42.parse_event(data))
    return json.loads(json.dumps(belief.snapshot_dict()))


async def test_a_person_bids_names_trump_and_plays_against_bots(server: DominoServer) -> None:
    url = f"ws://127.0.0.1:{server.port}/ws"
    south_kept: list[dict] = []
    watch_kept: list[dict] = []
    async with connect(url) as south, connect(url) as watcher:
        created = await request(south, {"type": "create_table", "id": 1, "variant": VARIANT,
                                         "target": 1, "bots": dict.fromkeys("WNE", "greedy")},
                                south_kept)
        assert created["type"] == "table_created", created
        table_id = created["table_id"]
        listed = await request(watcher, {"type": "list_tables", "id": 2}, watch_kept)
        info = next(t for t in listed["tables"] if t["table_id"] == table_id)
        assert info["game"] == "texas42" and set(info["seats"]) == set("SWNE")
        watching = await request(watcher, {"type": "watch", "id": 3, "table_id": table_id},
                                 watch_kept)
        assert watching["type"] == "watching"
        joined = await request(south, {"type": "join", "id": 4, "table_id": table_id,
                                        "seat": "S", "name": "ann"}, south_kept)
        assert joined["type"] == "joined", joined
        bad = await request(south, {"type": "move", "id": 5, "table_id": table_id,
                                     "move": {"kind": "bid", "bid": 29}}, south_kept)
        assert bad["type"] == "error" and bad["code"] in ("illegal_move", "not_your_turn")
        (events, beliefs, sent), (seen, watched) = await asyncio.gather(
            play_south(south, table_id, south_kept), watch_to_the_end(watcher, watch_kept))

    assert sent[0] == "bid" and "trump" in sent and sent.count("play") == 7
    assert events[-1]["type"] == "match_ended"
    store = EventStore(server.config.db)
    try:
        stored = [TEXAS42.parse_event(e.payload) for e in store.read(table_id)]
    finally:
        store.close()
    TEXAS42.check_log(stored)
    assert stored[0].game == "texas42" and len(stored) == len(events) == len(seen)

    for audience, frames in (("S", events), (SPECTATOR, seen)):
        for stored_event, shown in zip(stored, frames, strict=True):
            assert shown == TEXAS42.event_to_dict(TEXAS42.view(stored_event, audience))
            if shown["type"] == "dealt":
                hands = deal(next(e.seed for e in stored if e.type == "hand_started"))
                own = shown["seat"] == audience
                assert shown["tiles"] == ([str(t) for t in hands[audience]] if own else None)
            if shown["type"] == "hand_started":
                assert shown["seed"] is None
    # the replay route serves it with South's exact belief at every step
    base = f"http://127.0.0.1:{server.port}/api/matches/{table_id}"
    replay = await asyncio.to_thread(get_json, f"{base}/replay?perspective=S")
    assert replay["game"] == "texas42" and replay["finished"]
    assert len(replay["beliefs"]) == len(replay["events"]) == len(stored)
    for step, body in enumerate(replay["beliefs"], start=1):
        assert body["marginals"] == folded_belief(events, "S", step)["marginals"], step
    for shown in replay["events"]:
        if shown["type"] == "dealt" and shown["seat"] != "S":
            assert shown["tiles"] is None

    for audience, frames, got in (("S", events, beliefs), (SPECTATOR, seen, watched)):
        assert any(b["marginals"] for b in got)
        for message in got:
            expected = folded_belief(frames, audience, message["seq"])
            assert message["model"] == "uniform over deals consistent with the plays"
            assert message["marginals"] == expected["marginals"]
            assert message["consistent_deals"] == expected["consistent_deals"]


async def test_table_options_reach_the_match_nello_is_named_and_the_partner_sits_out(
        server: DominoServer) -> None:
    """create_table's options (`nello`, `dealer_must_bid`) are declared by texas-42 and read in
    start: the match says so; South bids 84, names nello, and North never plays."""
    url = f"ws://127.0.0.1:{server.port}/ws"
    kept: list[dict[str, Any]] = []
    async with connect(url) as south:
        created = await request(south, {
            "type": "create_table", "id": 1, "variant": VARIANT, "target": 1,
            "options": {"nello": True, "dealer_must_bid": True},
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
