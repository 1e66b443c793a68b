"""Clue's and Uno's advice at a real table and in a replay's verdicts: real WebSockets on
loopback, a real SQLite file, the real strategy worker pools.

A person seated at a table created with advice on asks on its turn and gets its advisor's
labelled payload; a stored finished match's verdicts job (one per match and seat) runs to
its end, each of the seat's decisions ranked."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from archive.matches import save_match
from games.clue.bots import InfoMaxBot
from games.clue.game import CLUE
from games.interface import Game
from games.play import play_match
from games.uno.game import UNO
from server.app import DominoServer
from storage import EventStore
from tests.conftest import make_config

DEADLINE = 180.0
"""Only bounds a hang (advice rests on work budgets, seconds of CPU on a loaded machine)."""
POLLS = 1200


async def _ask(ws: ClientConnection, message: dict[str, Any], game: Game[Any, Any, Any],
               folded: list[Any]) -> dict[str, Any]:
    tag = f"r{len(folded)}-{message['type']}"
    await ws.send(json.dumps({**message, "id": tag}))
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame.get("id") == tag:
            return frame
        if frame["type"] == "event":
            folded.append(game.parse_event(frame["event"]))


async def _until_my_turn(ws: ClientConnection, game: Game[Any, Any, Any], seat: str,
                         folded: list[Any]) -> Any:
    while True:
        state = None
        for event in folded:
            state = game.evolve(state, event)
        if state is not None and seat in game.to_act(state):
            return state
        frame = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
        if frame["type"] == "event":
            folded.append(game.parse_event(frame["event"]))


@pytest.mark.parametrize(("variant", "seat", "bots", "kind"), [
    ("clue-mini", "P1", {"P2": "greedy", "P3": "greedy"}, "suggest"),
    ("uno-2-mini", "S", {"N": "greedy"}, "play"),
])
async def test_a_seated_player_is_advised_on_its_turn(
        server: DominoServer, variant: str, seat: str, bots: dict[str, str],
        kind: str) -> None:
    game: Game[Any, Any, Any] = CLUE if variant.startswith("clue") else UNO
    url = f"ws://127.0.0.1:{server.port}/ws"
    folded: list[Any] = []
    async with connect(url) as ws, connect(url) as spectator:
        created = await _ask(ws, {"type": "create_table", "variant": variant, "advice": True,
                                  "bots": bots}, game, folded)
        assert created["type"] == "table_created", created
        table_id = created["table_id"]
        joined = await _ask(ws, {"type": "join", "table_id": table_id, "seat": seat,
                                 "name": "ann"}, game, folded)
        assert joined["type"] == "joined" and joined["advice"] is True, joined
        watched = await _ask(spectator, {"type": "watch", "table_id": table_id}, game, [])
        assert watched["type"] == "watching", watched
        nosy = await _ask(spectator, {"type": "advise", "table_id": table_id}, game, [])
        assert nosy["type"] == "error" and nosy["code"] == "unauthorized", nosy
        state = await _until_my_turn(ws, game, seat, folded)
        reply = await _ask(ws, {"type": "advise", "table_id": table_id}, game, folded)
        assert reply["type"] == "advice" and reply["seat"] == seat, reply
        advice = reply["advice"]
        assert advice["kind"] in (kind, "accuse", "show") and advice["label"], advice
        assert reply["label"] == advice["label"] and advice["moves"]
        if variant.startswith("uno"):
            hand = set(state.hands[seat])
            assert {m["card"] for m in advice["moves"] if m["kind"] == "play"} <= hand


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=DEADLINE) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize("variant", ["clue-mini", "uno-2-mini"])
async def test_a_stored_match_s_verdicts_job_runs_to_its_end(tmp_path: Path,
                                                             variant: str) -> None:
    if variant.startswith("clue"):
        game: Game[Any, Any, Any] = CLUE
        seats = CLUE.seats(variant, {})
        match = play_match(CLUE, variant, {s: InfoMaxBot() for s in seats}, random.Random(4))
        seat = "P1"
    else:
        game = UNO
        match = play_match(UNO, variant, {s: UNO.bots()["greedy"] for s in ("S", "N")},
                           random.Random(4))
        seat = "S"
    advisor = game.capabilities.advisor
    assert advisor is not None
    mine = [e.seq for e in match if advisor.decision(e) == seat]
    assert mine
    config = make_config(tmp_path)
    with EventStore(config.db) as store:
        save_match(store, match)
    match_id = match[0].match_id
    server = DominoServer(config)
    await server.start()
    try:
        url = f"http://127.0.0.1:{server.port}/api/matches/{match_id}/verdicts?seat={seat}"
        for _ in range(POLLS):
            status, body = await asyncio.to_thread(_get, url)
            assert status == 200, body
            if body["complete"]:
                break
            await asyncio.sleep(0.25)
        assert body["complete"] and body["total"] == body["done"] == len(mine), body
        assert sorted(map(int, body["verdicts"])) == mine
        for seq in mine:
            verdict = body["verdicts"][str(seq)]
            assert verdict["seat"] == seat and verdict["advice"]["label"]
            assert verdict["played"] is not None
        ranked = [v["rank"] for v in body["verdicts"].values() if v["rank"] is not None]
        assert ranked and all(r >= 1 for r in ranked)
        _, kept = await asyncio.to_thread(_get, url)
        assert kept == body  # served from the stored result
    finally:
        await server.stop()
