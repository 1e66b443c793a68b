"""Every variant at a real table: the real server on loopback, real WebSockets, a real SQLite
file, the registry of the suite (every game and the toy).

A table of each variant a new table may have is created from `list_variants`' defaults (what
the lobby's form sends untouched); its first seat is a client of the test playing random
legal moves (the seat's own fold through the interface, sent as generic `move` messages),
the others the server's bots; a spectator watches. The match is played to the end, then:
the stored log is re-decided by the game's checker; every event frame each audience got is
the game's view of the stored event for it; every audience's beliefs carry their model, the
last is the belief of the end, and sampled ones equal the game's belief folded from that
audience's own view (or are labelled estimates with an error); a spectator watching the
finished table is sent the same match; the replay route serves the referee's log, and each
other seat's view with its belief at every step where a belief is quick (not `costly`:
the route answers within the WebSocket handshake's 10 s, which a uno-2 replay of 75 events
overran by a minute on this machine).
"""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from clients.python.player import STALE_VIEW_CODES
from games.interface import SPECTATOR, Game
from games.seat_view import SeatFold
from protocol.frames import belief_body
from storage import EventStore
from tests.conformance.cases import REGISTRY, TABLE_CASES, Case, ids
from tests.conftest import make_config, serving

DEADLINE = 120.0
"""Seconds one frame may take (a costly belief on a loaded machine); a bound, not a timing."""
SAMPLED = 3
"""Belief frames per audience compared with the test's own fold (the last among them)."""
REPLAY_STEPS = 4
"""Steps of each replay whose belief is compared with the test's own fold."""
BOT = "random"


async def _frame(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))


async def _request(ws: ClientConnection, message: dict[str, Any],
                   kept: list[dict[str, Any]]) -> dict[str, Any]:
    """Send, then read until the reply with this id (other frames go to `kept`). Told to
    slow down (`rate_limited`: the connection's message rate, which a seat moving the moment
    the bots answer can pass), send it again after a pause, with the same id, as a client
    does."""
    for _ in range(RATE_RETRIES):
        await ws.send(json.dumps(message))
        while True:
            frame = await _frame(ws)
            if frame.get("id") == message["id"]:
                break
            kept.append(frame)
        if frame.get("code") != "rate_limited":
            return frame
        await asyncio.sleep(0.25)
    return frame


RATE_RETRIES = 40


async def _follow(ws: ClientConnection, game: Game, seat: str, table_id: str | None,
                  kept: list[dict[str, Any]], rng: random.Random) -> tuple[list, list]:
    """Event and belief frames until the match is over and the belief of its last event
    has come; with a `table_id`, the seat moves (a random legal move) whenever its own fold
    says it is to act. A move the table refuses as stale (the seat had not yet folded events
    already sent, as in a run of several) is what any client meets: it reads on."""
    fold = SeatFold(game, seat)
    events: list[dict[str, Any]] = []
    beliefs: list[dict[str, Any]] = []
    moves = acked = 0
    while True:
        try:
            frame = kept.pop(0) if kept else await _frame(ws)
        except TimeoutError:  # say where the seat stood (a lost frame, or a belief too slow)
            raise AssertionError(
                f"{seat}: no frame in {DEADLINE:.0f} s after {len(events)} events and "
                f"{len(beliefs)} beliefs (last belief seq "
                f"{beliefs[-1]['seq'] if beliefs else None}); its fold: last seq "
                f"{fold.last_seq}, finished {fold.finished}, to act {fold.my_turn()}; "
                f"moves {moves}, acked {acked}") from None
        assert frame["type"] != "error", frame
        if frame["type"] == "belief":
            beliefs.append(frame)
            if fold.finished and frame["seq"] == fold.last_seq:
                assert acked or table_id is None, "the seat never moved"
                return events, beliefs
        if frame["type"] != "event":
            continue
        events.append(frame["event"])
        fold.fold(game.parse_event(frame["event"]))
        if table_id is not None and fold.my_turn():
            moves += 1
            move = fold.random_wire_move(rng)
            reply = await _request(ws, {"type": "move", "table_id": table_id,
                                        "id": f"m{moves}", "move": move}, kept)
            if reply["type"] == "ack":
                acked += 1
            else:
                assert reply.get("code") in STALE_VIEW_CODES and kept, reply


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=DEADLINE) as reply:
        return json.loads(reply.read())


def _plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


def _folded(game: Game, variant: str, audience: str, stored: list[Any], seq: int
            ) -> dict[str, Any]:
    belief = game.belief(audience, variant)
    for event in stored[:seq]:
        belief.apply(game.view(event, audience))
    return _plain(belief_body(belief.snapshot_dict()))


def _sampled(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last frame and up to SAMPLED - 1 others with marginals, spread over the match."""
    live = [f for f in frames[:-1] if f["marginals"]]
    step = max(1, len(live) // SAMPLED)
    return [*live[step // 2::step][:SAMPLED - 1], frames[-1]]


def _check_belief(game: Game, variant: str, audience: str, stored: list[Any],
                  body: dict[str, Any]) -> bool:
    """The body equals the game's belief folded from the audience's view at its seq, or is
    a labelled estimate with its error. True when it was compared exactly."""
    body = {k: v for k, v in body.items() if k not in ("type", "table_id")}
    assert body["observer"] == audience and isinstance(body["model"], str) and body["model"]
    if body.get("status") == "estimate" or body.get("error_95") is not None:
        assert isinstance(body["error_95"], int | float) and body["error_95"] >= 0, body
        return False
    assert body == _folded(game, variant, audience, stored, body["seq"]), (audience, body["seq"])
    return True


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
async def test_a_table_from_the_defaults_played_to_the_end_then_replayed(
    case: Case, tmp_path: Path
) -> None:
    game, variant = case.game, case.variant
    async with serving(make_config(tmp_path, games=REGISTRY)) as server:
        url = f"ws://127.0.0.1:{server.port}/ws"
        kept: list[dict[str, Any]] = []
        watch_kept: list[dict[str, Any]] = []
        async with connect(url) as person, connect(url) as watcher:
            listed = await _request(person, {"type": "list_variants", "id": 1}, kept)
            offered = next(v for v in listed["variants"] if v["name"] == variant)
            options = {o["name"]: o["default"] for o in offered["options"]}
            seats = offered["seats"]
            assert tuple(seats) == case.seats
            first, others = seats[0], seats[1:]
            created = await _request(person, {
                "type": "create_table", "id": 2, "variant": variant, "options": options,
                "bots": dict.fromkeys(others, BOT)}, kept)
            assert created["type"] == "table_created", created
            table_id = created["table_id"]
            watching = await _request(watcher, {"type": "watch", "id": 3,
                                                "table_id": table_id}, watch_kept)
            assert watching["type"] == "watching", watching
            watched = asyncio.create_task(
                _follow(watcher, game, SPECTATOR, None, watch_kept, random.Random(0)))
            joined = await _request(person, {"type": "join", "id": 4, "table_id": table_id,
                                             "seat": first, "name": "conformance"}, kept)
            assert joined["type"] == "joined", joined
            played = await _follow(person, game, first, table_id, kept, random.Random(1))
            live = {first: played, SPECTATOR: await watched}

        store = EventStore(server.config.db)
        try:
            stored = [game.parse_event(e.payload) for e in store.read(table_id)]
        finally:
            store.close()
        game.check_log(stored)  # every move re-decided
        assert stored[0].game == game.name and stored[0].variant == variant
        exact = 0
        for audience, (events, beliefs) in live.items():
            assert events == [_plain(game.event_to_dict(game.view(e, audience)))
                              for e in stored], audience
            assert [b["seq"] for b in beliefs] == sorted(b["seq"] for b in beliefs)
            assert beliefs[-1]["seq"] == len(stored)
            for frame in _sampled(beliefs):
                exact += _check_belief(game, variant, audience, stored, frame)

        async with connect(url) as again:  # the finished table, watched from the start
            rewatched = await _request(again, {"type": "watch", "id": 5,
                                               "table_id": table_id}, [])
            assert rewatched["type"] == "watching" and rewatched["finished"], rewatched
            events, beliefs = await _follow(again, game, SPECTATOR, None, [],
                                            random.Random(0))
            assert events == live[SPECTATOR][0] and beliefs[-1] == live[SPECTATOR][1][-1]

        base = f"http://127.0.0.1:{server.port}/api/matches/{table_id}/replay"
        everything = await asyncio.to_thread(_get_json, f"{base}?perspective=all")
        assert everything["events"] == [_plain(game.event_to_dict(e)) for e in stored]
        # each other seat's replay, its belief at every step; not where a belief may take
        # seconds (Clue, Uno): a replay answers inside the WebSocket handshake's 10 s
        costly = game.belief(SPECTATOR, variant).costly
        for seat in () if costly else others:
            replay = await asyncio.to_thread(_get_json, f"{base}?perspective={seat}")
            assert replay["game"] == game.name and replay["finished"]
            assert replay["events"] == [_plain(game.event_to_dict(game.view(e, seat)))
                                        for e in stored]
            assert [b["seq"] for b in replay["beliefs"]] == [e.seq for e in stored]
            step = max(1, len(stored) // REPLAY_STEPS)
            for body in replay["beliefs"][step - 1::step]:
                exact += _check_belief(game, variant, seat, stored, body)
    assert exact, "no belief was compared exactly"


@pytest.mark.parametrize("case", TABLE_CASES, ids=ids(TABLE_CASES))
async def test_bad_requests_at_a_table_are_typed_errors(case: Case, tmp_path: Path) -> None:
    """A bot the game does not have, a seat the table does not have, a move that is not one:
    each a typed error, the table unharmed; advice is refused exactly when the game declares
    no advisor."""
    async with serving(make_config(tmp_path, games=REGISTRY)) as server:
        url = f"ws://127.0.0.1:{server.port}/ws"
        kept: list[dict[str, Any]] = []
        async with connect(url) as ws:
            seats = case.seats
            refused = await _request(ws, {"type": "create_table", "id": 1,
                                          "variant": case.variant,
                                          "bots": {seats[1]: "no-such-bot"}}, kept)
            assert (refused["type"], refused["code"]) == ("error", "unknown_bot"), refused
            created = await _request(ws, {"type": "create_table", "id": 2,
                                          "variant": case.variant,
                                          "bots": dict.fromkeys(seats[1:], BOT)}, kept)
            table_id = created["table_id"]
            lacking = await _request(ws, {"type": "join", "id": 3, "table_id": table_id,
                                          "seat": "nobody"}, kept)
            assert lacking["type"] == "error" and lacking["code"], lacking
            joined = await _request(ws, {"type": "join", "id": 4, "table_id": table_id,
                                         "seat": seats[0]}, kept)
            assert joined["type"] == "joined", joined
            bad = await _request(ws, {"type": "move", "id": 5, "table_id": table_id,
                                      "move": {"kind": "no-such-move"}}, kept)
            assert bad["type"] == "error" and bad["code"] in STALE_VIEW_CODES | {
                "bad_request", "bad_move"}, bad
            listed = await _request(ws, {"type": "list_tables", "id": 6}, kept)
            table = next(t for t in listed["tables"] if t["table_id"] == table_id)
            assert table["status"] == "playing" and table["seats"][seats[0]] is not None
            advised = await _request(ws, {"type": "create_table", "id": 7,
                                          "variant": case.variant, "advice": True}, kept)
            offers = case.game.capabilities.advisor is not None  # as the game declares
            assert (advised["type"] == "table_created") == offers, advised
