"""The replay route hands the advice's model on: GET /api/matches/{id}/advice?seq=N&model=M
over real HTTP on loopback, against a stored match in the server's own SQLite file."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from archive.matches import save_match
from calibration.botmatches import bot_matches
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.strategy.advisor import BEHAVIOUR
from server.app import DominoServer
from storage import EventStore
from tests.conftest import make_config

GIVE_UP = 120.0
"""Seconds before a request is given up (a bound, not a timing assertion)."""


def _get_once(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=GIVE_UP) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _get(url: str) -> tuple[int, dict[str, Any]]:
    """As a client does: a 202 ("still computing": the advice's budget is work, so a loaded
    machine takes longer over the same answer) is asked again, up to GIVE_UP seconds."""
    deadline = time.monotonic() + GIVE_UP
    status, body = _get_once(url)
    while status == 202 and time.monotonic() < deadline:
        time.sleep(0.5)
        status, body = _get_once(url)
    return status, body


def _stored_match_and_a_choice(config: Any) -> tuple[list[Any], Any]:
    """A one-hand bot match stored in the server's file, and a play of it that had a
    choice (the advice ranks more than one move)."""
    match = next(bot_matches("partnership-6", ["greedy"], 1, seed=5, options={"target": 1}))
    with EventStore(config.db) as store:
        save_match(store, match)
    state = None
    for event in match:
        if event.type == "tile_played" and len(legal_moves(state, event.seat)) >= 2:
            return match, event
        state = evolve(state, event)
    raise AssertionError("no play with a choice")


async def test_the_replay_advice_route_takes_the_model(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    match, play = _stored_match_and_a_choice(config)
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


async def test_replay_advice_runs_in_the_replay_pool_never_a_live_one(
        tmp_path: Path, monkeypatch: Any) -> None:
    """A replay's advice (Texas 42's oracle included) takes a replay worker: a long oracle
    never holds a worker the live tables' bots, or a seated player's advice, need (issues
    29, 30)."""
    from server import strategy_processes

    pools: list[Any] = []
    real = strategy_processes.game_advice

    async def spy(*args: Any, **kwargs: Any) -> dict[str, Any]:
        pools.append(kwargs.get("pool"))
        return await real(*args, **kwargs)

    monkeypatch.setattr(strategy_processes, "game_advice", spy)
    config = make_config(tmp_path)
    match = next(bot_matches("partnership-6", ["greedy"], 1, seed=5, options={"target": 1}))
    with EventStore(config.db) as store:
        save_match(store, match)
    play = next(e for e in match if e.type == "tile_played")
    server = DominoServer(config)
    await server.start()
    try:
        url = (f"http://127.0.0.1:{server.port}/api/matches/{match[0].match_id}/advice"
               f"?seq={play.seq}")
        status, _ = await asyncio.to_thread(_get, url)
        assert status == 200
        assert pools == [strategy_processes.REPLAYS]
    finally:
        await server.stop()


async def test_advice_given_live_is_what_the_replay_shows_without_solving_again(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 29: advice is kept per (match, seq, seat, model) with a seed from the move, so
    the replay of a move a player was advised on shows that advice at once (no worker)."""
    from server import strategy_processes
    from server.advice_memo import advice_seed
    from server.tables.advice import AdviceDesk

    config = make_config(tmp_path)
    match, play = _stored_match_and_a_choice(config)
    server = DominoServer(config)
    await server.start()
    calls: list[int] = []
    real = strategy_processes.game_advice

    async def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(args[3])  # the seed
        return await real(*args, **kwargs)

    monkeypatch.setattr(strategy_processes, "game_advice", counted)
    try:
        desk: AdviceDesk = server.advice
        match_id = match[0].match_id
        key = (match_id, play.seq, play.seat, "uniform")
        assert desk.memo.get(key) is None
        # what the table's desk keeps when the seat asks just before that move
        from games.advice import advisor_of
        from games.registry import GAMES
        game = GAMES.game_of_variant("partnership-6")
        advisor = advisor_of(game)
        assert advisor is not None
        seen = [game.event_to_dict(game.view(e, play.seat)) for e in match[: play.seq - 1]]
        live = await strategy_processes.game_advice(advisor, seen, play.seat,
                                                    advice_seed(match_id, play.seq))
        desk.memo.keep(key, live)
        assert calls == [advice_seed(match_id, play.seq)]
        url = (f"http://127.0.0.1:{server.port}/api/matches/{match_id}/advice"
               f"?seq={play.seq}")
        status, body = await asyncio.to_thread(_get, url)
        assert status == 200 and len(calls) == 1  # nothing solved again
        assert [m["tile"] for m in body["moves"]] == [m["tile"] for m in live["moves"]]
        assert body["label"] == live["label"]
    finally:
        await server.stop()
