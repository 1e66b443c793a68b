"""A replay's verdicts come from one background job per (match, seat, model), each move's
advice computed once: stepping through a whole replay, asking for every move's advice as
the page does, never computes a move twice (issue 28: no storm of `busy`)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from archive.matches import save_match
from calibration.botmatches import bot_matches
from server import strategy_processes
from server.app import DominoServer
from storage import EventStore
from tests.conftest import make_config

GIVE_UP = 120.0
"""Seconds before one request is given up (a bound on a hang, not a timing assertion)."""
POLLS = 600
"""Asks for the verdicts before the test gives up (0.25 s apart)."""


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=GIVE_UP) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def _answered(url: str) -> tuple[int, dict[str, Any]]:
    """Ask as the page does: again after 202 `computing` (the answer is on its way)."""
    for _ in range(POLLS):
        status, body = await asyncio.to_thread(_get, url)
        if status != 202:
            assert status == 200, body
            return status, body
        await asyncio.sleep(0.25)
    raise AssertionError(f"no answer from {url}")


async def test_a_whole_replay_computes_each_move_once(tmp_path: Path, monkeypatch: Any) -> None:
    solved: list[int] = []
    real = strategy_processes.game_advice

    async def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        solved.append(args[3])  # the seed: one per (match, seq, model)
        return await real(*args, **kwargs)

    monkeypatch.setattr(strategy_processes, "game_advice", counted)
    config = make_config(tmp_path)
    match = next(bot_matches("partnership-6", ["greedy"], 1, seed=5, options={"target": 1}))
    with EventStore(config.db) as store:
        save_match(store, match)
    match_id = match[0].match_id
    mine = [e.seq for e in match if e.type == "tile_played" and e.seat == "S"]
    server = DominoServer(config)
    await server.start()
    try:
        base = f"http://127.0.0.1:{server.port}/api/matches/{match_id}"
        status, first = await asyncio.to_thread(_get, f"{base}/verdicts?seat=S")
        assert status == 200 and first["complete"] is False, first
        # a person steps through every move meanwhile, the page asking for each one's advice
        steps = [await _answered(f"{base}/advice?seq={seq}") for seq in mine]
        for _ in range(POLLS):
            status, body = await asyncio.to_thread(_get, f"{base}/verdicts?seat=S")
            assert status == 200, body
            if body["complete"]:
                break
            await asyncio.sleep(0.25)
        assert body["complete"] and body["total"] == len(mine) == body["done"], body
        assert sorted(map(int, body["verdicts"])) == mine
        for seq, (_, step) in zip(mine, steps, strict=True):
            verdict = body["verdicts"][str(seq)]
            assert verdict["seq"] == seq and verdict["rank"] == step["rank"] >= 1
        again = [await asyncio.to_thread(_get, f"{base}/advice?seq={seq}") for seq in mine]
        assert [b for _, b in again] == [b for _, b in steps]  # kept answers
        assert len(solved) == len(set(solved)) == len(mine), solved  # each move solved once
        assert server.replays is not None and server.replays.verdicts.jobs_started == 1
    finally:
        await server.stop()


async def test_verdicts_of_a_bad_seat_or_an_unknown_match_are_typed_refusals(
        tmp_path: Path) -> None:
    server = DominoServer(make_config(tmp_path))
    await server.start()
    try:
        base = f"http://127.0.0.1:{server.port}/api/matches"
        status, body = await asyncio.to_thread(_get, f"{base}/nosuch/verdicts?seat=<b>")
        assert status == 400 and "seat" in body["error"]
        for _ in range(POLLS):
            status, body = await asyncio.to_thread(_get, f"{base}/nosuch/verdicts?seat=S")
            if status != 200:
                break
            await asyncio.sleep(0.25)
        assert status == 404 and "nosuch" in body["error"], body
    finally:
        await server.stop()


async def test_verdicts_for_a_perspective_that_is_no_seat_say_so(tmp_path: Path) -> None:
    """`spectator` or `all` (a replay's other perspectives) or a seat the match lacks: a 400
    naming the match's seats, once its log is read, not an empty list of verdicts."""
    config = make_config(tmp_path)
    match = next(bot_matches("partnership-6", ["greedy"], 1, seed=5, options={"target": 1}))
    with EventStore(config.db) as store:
        save_match(store, match)
    server = DominoServer(config)
    await server.start()
    try:
        base = f"http://127.0.0.1:{server.port}/api/matches/{match[0].match_id}"
        for seat in ("spectator", "all", "P5"):
            for _ in range(POLLS):
                status, body = await asyncio.to_thread(_get, f"{base}/verdicts?seat={seat}")
                if status != 200 or body["complete"]:
                    break
                await asyncio.sleep(0.25)
            assert status == 400, (seat, status, body)
            assert f"{seat!r} is not a seat of this match" in body["error"], body
            assert "S, W, N, E" in body["error"], body
    finally:
        await server.stop()


async def test_a_new_replay_from_the_same_address_stops_the_older_job(tmp_path: Path) -> None:
    """A person who opens replay after replay is never refused (CI: a page's verdicts met 429
    because the page before, from the same address, still had its job running)."""
    config = make_config(tmp_path)
    matches = list(bot_matches("partnership-6", ["greedy"], 2, seed=7, options={"target": 1}))
    with EventStore(config.db) as store:
        for match in matches:
            save_match(store, match)
    first, second = (m[0].match_id for m in matches)
    server = DominoServer(config)
    await server.start()
    try:
        base = f"http://127.0.0.1:{server.port}/api/matches"
        status, body = await asyncio.to_thread(_get, f"{base}/{first}/verdicts?seat=S")
        assert status == 200 and body["complete"] is False, body
        status, body = await asyncio.to_thread(_get, f"{base}/{second}/verdicts?seat=S")
        assert status == 200, body
        jobs = server.replays.verdicts if server.replays is not None else None
        assert jobs is not None and jobs.jobs_superseded == 1 and jobs.jobs_started == 2
        for _ in range(POLLS):  # the newer job runs to its end
            status, body = await asyncio.to_thread(_get, f"{base}/{second}/verdicts?seat=S")
            assert status == 200, body
            if body["complete"]:
                break
            await asyncio.sleep(0.25)
        assert body["complete"] and body["done"] == body["total"] >= 1, body
    finally:
        await server.stop()
