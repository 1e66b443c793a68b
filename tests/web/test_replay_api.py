"""server/replay/ without a browser: perspectives, redaction, beliefs, uploads, routes."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from archive.jsonl import dump_lines
from archive.matches import save_match
from games.dominoes.audience import view
from games.dominoes.belief_partnership import Belief
from games.dominoes.game import DOMINOES
from games.dominoes.selfplay import random_match_events
from server.replay.build import MAX_UPLOAD, ReplayError, build_replay, parse_upload
from server.replay.http import ReplayDesk, handle_replay_http
from storage import AsyncEventStore, EventStore


@pytest.fixture(scope="module")
def match() -> list:
    return random_match_events(random.Random(7), target=40, match_id="m-web-1")


def test_a_seat_sees_its_own_hand_and_its_exact_belief_at_every_seq(match: list) -> None:
    replay = build_replay(match, "W")
    assert replay["finished"] and replay["match_id"] == "m-web-1"
    assert len(replay["events"]) == len(replay["beliefs"]) == len(match)
    for event in replay["events"]:
        if event["type"] == "hand_dealt":
            assert (event["tiles"] is not None) == (event["seat"] == "W")
        if event["type"] == "hand_started":
            assert event["seed"] is None
    belief = Belief("W")
    for event, sent in zip(match, replay["beliefs"], strict=True):
        belief.apply(view(event, "W"))
        expected = belief.snapshot().to_json_dict()
        assert sent["seq"] == event.seq
        assert sent["marginals"] == expected["marginals"]
        assert sent["facts"] == expected["facts"]


def test_all_is_the_referee_log_without_beliefs(match: list) -> None:
    replay = build_replay(match, "all")
    assert replay["beliefs"] == []
    assert all(e["tiles"] for e in replay["events"] if e["type"] == "hand_dealt")


def test_a_match_in_play_replays_for_spectators_only(match: list) -> None:
    in_play = match[: len(match) // 2]
    assert not build_replay(in_play, "spectator")["finished"]
    for perspective in ("S", "W", "N", "E", "all"):
        with pytest.raises(ReplayError) as refused:
            build_replay(in_play, perspective)
        assert refused.value.status == 403
    with pytest.raises(ReplayError) as bad:
        build_replay(match, "referee")
    assert bad.value.status == 400


def test_uploads_are_checked_with_the_line_or_the_seq(match: list) -> None:
    text = dump_lines(DOMINOES, match)
    assert len(parse_upload(text.encode())) == len(match)
    lines = text.splitlines()
    broken = "\n".join([*lines[:3], "{not json", *lines[4:]])
    with pytest.raises(ReplayError) as error:
        parse_upload(broken.encode())
    assert error.value.line == 4 and "line 4" in str(error.value)
    forged = [json.loads(line) for line in lines]
    played = next(e for e in forged if e["type"] == "tile_played" and e["end"])
    played["end"] = "left" if played["end"] == "right" else "right"
    with pytest.raises(ReplayError) as error:
        parse_upload("\n".join(json.dumps(e) for e in forged).encode())
    assert error.value.seq is not None and error.value.seq >= played["seq"]
    assert f"seq {error.value.seq}" in str(error.value)
    with pytest.raises(ReplayError) as error:
        parse_upload(b" " * (MAX_UPLOAD + 1))
    assert error.value.status == 413
    with pytest.raises(ReplayError):
        parse_upload(b"\xff\xfe")


T = TypeVar("T")


def run_in_a_thread(coroutine: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own: a sync Playwright loop may own this thread's."""
    results: list[T] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            results.append(asyncio.run(coroutine))
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]
    return results[0]


def test_the_http_routes(match: list, tmp_path: Path) -> None:
    run_in_a_thread(_http_routes(match, tmp_path))


async def _http_routes(match: list, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    with EventStore(db) as sync_store:
        save_match(sync_store, match)
    store = AsyncEventStore.open(db)
    desk = ReplayDesk(store)
    try:
        status, headers, body = await handle_replay_http("GET", "/api/matches", {}, desk)
        assert status == 200 and headers["Content-Type"] == "application/json"
        listed = json.loads(body)["matches"]
        assert [m["match_id"] for m in listed] == ["m-web-1"] and listed[0]["finished"]

        status, _, body = await handle_replay_http(
            "GET", "/api/matches/m-web-1/replay", {"perspective": "N"}, desk)
        assert status == 200 and json.loads(body)["perspective"] == "N"

        for method, path, query, expected in [
            ("GET", "/api/matches/nope/replay", {}, 404),
            ("GET", "/api/matches/m-web-1/replay", {"perspective": "X"}, 400),
            ("POST", "/api/replay", {}, 404),  # uploads come over the WebSocket only
            ("GET", "/api/elsewhere", {}, 404),
        ]:
            status, _, body = await handle_replay_http(method, path, query, desk)
            assert status == expected and "error" in json.loads(body)
        assert await handle_replay_http("GET", "/index.html", {}, desk) is None
    finally:
        await store.aclose()


def test_replay_advice_runs_in_the_replay_pool_not_a_live_one(
    match: list, tmp_path: Path
) -> None:
    """A replay's advice must never queue a person's live `advise`, or a bot's move, behind
    it: it runs in the replay pool."""
    from server import strategy_processes
    from server.replay.advice import ReplayAdvisor

    used: list[str] = []

    async def replays_run(fn: Any, *args: Any) -> Any:
        used.append("replays")
        return await asyncio.to_thread(fn, *args)

    def live_run(pool: str) -> Any:
        async def run(fn: Any, *args: Any) -> Any:
            used.append(pool)
            raise AssertionError(f"replay advice went to the live {pool} pool")
        return run

    play = next(e for e in match if e.type == "tile_played" and e.seq > 20)
    db = tmp_path / "pool.sqlite3"
    with EventStore(db) as store:
        save_match(store, match)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(strategy_processes.REPLAYS, "run", replays_run)
            patch.setattr(strategy_processes.BOTS, "run", live_run("bots"))
            patch.setattr(strategy_processes.ADVICE, "run", live_run("advice"))
            bodies: list[bytes] = []

            advisor = ReplayAdvisor(store)
            bodies.append(run_in_a_thread(advisor.advice("m-web-1", str(play.seq))))
    assert used == ["replays"]
    data = json.loads(bodies[0])
    assert data["seq"] == play.seq and data["moves"] and data["rank"] >= 1
