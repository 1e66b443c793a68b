"""Advice kept in the store's database by position (issue 29: a replay shows the oracle's
table at once): storage/kept.py's bounded table, Texas 42's position keys, and a replay served
by a second advisor on the same database file without computing again."""

from __future__ import annotations

import asyncio
import json
import zlib
from pathlib import Path
from typing import Any

import pytest

from archive.matches import save_match
from games.advice import position_key
from games.texas42.advisor import ADVISOR, BIDS_GREEDY, advise, fold
from games.texas42.advisor import position_key as texas_key
from games.texas42.dominoes import SEATS
from games.texas42.game import TEXAS42
from server import strategy_processes
from server.advice_memo import KeptAdvice
from server.replay.advice import ReplayAdvisor
from server.replay.http import handle_replay_http
from storage import EventStore
from storage.kept import KeptValues
from tests.conftest import make_config, serving
from tests.games.texas42.helpers import match


def test_kept_values_are_bounded_first_come_and_outlive_the_store(tmp_path: Path) -> None:
    db = tmp_path / "kept.sqlite3"
    with EventStore(db) as store:
        values = KeptValues(store, max_entries=3)
        big = json.dumps({"label": "the same long label " * 50, "n": 1}).encode()
        assert values.put("a", big)
        assert not values.put("a", b"other")  # the first answer under a name stays
        for name in "bcd":
            assert values.put(name, name.encode())
        assert len(values) == 3 and values.get("a") is None  # the oldest went first
        assert values.get("b") == b"b"
        assert not KeptValues(store, max_value_bytes=10).put("e", bytes(range(256)) * 4)
    with EventStore(db) as store:  # another process opening the file later
        values = KeptValues(store)
        assert values.get("d") == b"d" and values.get("e") is None
        assert len(values) == 3


def views(events: list[Any], seq: int, seat: str) -> list[dict[str, Any]]:
    return [TEXAS42.event_to_dict(TEXAS42.view(e, seat)) for e in events[: seq - 1]]


def test_texas42_names_its_advice_by_position() -> None:
    events = match(5, dict.fromkeys(SEATS, "greedy"), target_marks=1)
    bids = [e for e in events if e.type == "bid"]
    first, second = bids[0], bids[1]
    view = views(events, first.seq, first.seat)
    key = position_key(ADVISOR, view, first.seat)
    assert key is not None
    # it starts with the oracle's own cache key for that position...
    payload = advise(view, first.seat, oracle_n=4)
    assert texas_key(view, first.seat, oracle_n=4).startswith(payload["oracle"]["cache_key"] + "-")
    # ... and differs by model, by seat and position, and is refused off turn
    assert position_key(ADVISOR, view, first.seat, BIDS_GREEDY) != key
    assert position_key(ADVISOR, views(events, second.seq, second.seat), second.seat) != key
    assert position_key(ADVISOR, view, second.seat) is None
    # the same position reached again (the view's first events replayed) names the same
    assert position_key(ADVISOR, list(view), first.seat) == key
    play = next(e for e in events if e.type == "played")
    play_key = position_key(ADVISOR, views(events, play.seq, play.seat), play.seat)
    assert play_key is not None and play_key.startswith("t42play")
    assert fold(view, first.seat).state is not None


async def test_a_second_server_on_the_same_database_serves_kept_advice_without_computing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = match(5, dict.fromkeys(SEATS, "greedy"), target_marks=1)
    match_id = events[0].match_id
    bid = next(e for e in events if e.type == "bid" and e.bid > 0)
    computed: list[str] = []

    async def small_oracle(advisor: Any, seen: list[dict[str, Any]], seat: str, *args: Any,
                           **kwargs: Any) -> dict[str, Any]:
        computed.append(seat)  # the real advisor at a small N, in this process
        return advise(seen, seat, oracle_n=6)

    monkeypatch.setattr(strategy_processes, "game_advice", small_oracle)
    db = tmp_path / "replay.sqlite3"
    with EventStore(db) as store:
        save_match(store, events)
        first = ReplayAdvisor(store, kept=KeptAdvice(store))
        body = json.loads(await first.advice(match_id, str(bid.seq)))
        assert computed == [bid.seat] and first.kept is not None and first.kept.kept == 1
        assert body["advice"]["oracle"]["N"] == 6

    async def refuse(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise AssertionError("a kept answer was computed again")

    monkeypatch.setattr(strategy_processes, "game_advice", refuse)
    with EventStore(db) as store:  # a new server's store, caches empty
        second = ReplayAdvisor(store, kept=KeptAdvice(store))
        again = json.loads(await second.advice(match_id, str(bid.seq)))
        assert second.kept is not None and second.kept.hits == 1
        assert again["advice"] == body["advice"]
        assert again["cell"] == body["cell"] and again["trump"] == body["trump"]
        # another move of the match is not kept: it would be computed (and is refused here)
        other = next(e for e in events if e.type == "bid" and e.seq != bid.seq)
        with pytest.raises(AssertionError):
            await second.advice(match_id, str(other.seq))


async def test_a_restarted_server_serves_a_replays_kept_oracle_from_its_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's own wiring: the replay route of a second server on the same database file
    (a restart: empty memory caches) answers from the `kept` table, its workers untouched."""
    events = match(7, dict.fromkeys(SEATS, "greedy"), target_marks=1)
    match_id = events[0].match_id
    bid = next(e for e in events if e.type == "bid")

    async def small_oracle(advisor: Any, seen: list[dict[str, Any]], seat: str, *args: Any,
                           **kwargs: Any) -> dict[str, Any]:
        return advise(seen, seat, oracle_n=6)

    async def refuse(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise AssertionError("a kept answer was computed again")

    bodies = []
    for compute in (small_oracle, refuse):
        monkeypatch.setattr(strategy_processes, "game_advice", compute)
        async with serving(make_config(tmp_path)) as server:
            if not bodies:
                assert server.store is not None
                await asyncio.to_thread(save_match, server.store.store, events)
            assert server.replays is not None
            reply = await handle_replay_http("GET", f"/api/matches/{match_id}/advice",
                                             {"seq": str(bid.seq)}, server.replays)
            assert reply is not None and reply[0] == 200, reply
            bodies.append(json.loads(reply[2]))
    assert bodies[1]["advice"] == bodies[0]["advice"]
    assert bodies[0]["advice"]["oracle"]["N"] == 6


def test_a_kept_value_is_sealed_with_the_store_key_and_a_forged_one_is_replaced(
        tmp_path: Path) -> None:
    """Someone who can write the database but has not the key cannot make the advisor say
    what it did not compute: a row changed, unsealed or unreadable reads as absent and the
    next answer takes its place; without a key nothing can be checked, but a row that does not
    unpack still reads as absent."""
    from sqlalchemy import update

    from storage.schema import kept as kept_table

    with EventStore(tmp_path / "keyed.sqlite3", key=bytes(range(32))) as store:
        values = KeptValues(store)
        assert values.put("advice:x", b'{"n": 150}')
        assert values.get("advice:x") == b'{"n": 150}'
        with store.engine.begin() as conn:
            stored = conn.execute(kept_table.select()).first().value
            forged = stored[:-1] + bytes([stored[-1] ^ 1])  # one bit of the value
            conn.execute(update(kept_table).values(value=forged))
        assert values.get("advice:x") is None
        assert values.put("advice:x", b'{"n": 150}')  # the forged row replaced
        assert values.get("advice:x") == b'{"n": 150}'
        with store.engine.begin() as conn:  # unsealed, as a store without the key writes
            conn.execute(update(kept_table).values(value=b"-" + zlib.compress(b'{"n": 1}')))
        assert values.get("advice:x") is None
    with EventStore(tmp_path / "open.sqlite3", key=None) as store:
        values = KeptValues(store)
        assert values.put("advice:y", b"[1]") and values.get("advice:y") == b"[1]"
        with store.engine.begin() as conn:
            conn.execute(update(kept_table).values(value=b"-not zlib"))
        assert values.get("advice:y") is None
        assert values.put("advice:y", b"[2]") and values.get("advice:y") == b"[2]"
