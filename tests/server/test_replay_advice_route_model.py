"""The replay route hands the advice's model on: GET /api/matches/{id}/advice?seq=N&model=M
over real HTTP on loopback, against a stored match in the server's own SQLite file."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from archive.matches import save_match
from calibration.botmatches import bot_matches
from games.dominoes.rules import evolve, legal_moves
from server.app import DominoServer
from storage import EventStore
from strategy.advisor import BEHAVIOUR
from tests.conftest import make_config

GIVE_UP = 120.0
"""Seconds before a request is given up (a bound, not a timing assertion)."""


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=GIVE_UP) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def test_the_replay_advice_route_takes_the_model(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    match = next(bot_matches("partnership-6", ["greedy"], 1, seed=5, target=1))
    with EventStore(config.db) as store:
        save_match(store, match)
    state = None
    for event in match:  # a play with a choice: the advice ranks more than one move
        if event.type == "tile_played" and len(legal_moves(state, event.seat)) >= 2:
            play = event
            break
        state = evolve(state, event)
    server = DominoServer(config)
    await server.start()
    try:
        base = (f"http://127.0.0.1:{server.port}/api/matches/{match[0].match_id}/advice"
                f"?seq={play.seq}")
        status, behaviour = await asyncio.to_thread(_get, f"{base}&model={BEHAVIOUR}")
        assert status == 200 and behaviour["model"] == BEHAVIOUR and behaviour["ess"] >= 1
        status, uniform = await asyncio.to_thread(_get, base)
        assert status == 200 and uniform["model"] == "uniform"
        status, refused = await asyncio.to_thread(_get, f"{base}&model=behaviour:nobody")
        assert status == 422 and "behaviour:nobody" in json.dumps(refused)
    finally:
        await server.stop()
