"""Texas 42 advice at a real table and in replays: real WebSockets on loopback, a real SQLite
file, the real strategy worker pools.

Four people sit (one connection each) at a `texas-42` table created with advice on. South,
first to bid, asks: the bidding oracle's table comes back in `advice`, labelled, for South's
own seven dominoes; West (not its turn) and a spectator are refused with typed errors. After
the bidding and trump, South asks again and gets its legal plays ranked. The worker is handed
South's own view only (a spy on the job's arguments), and no advice names a domino South
cannot see. A finished match's replay is advised at a bid, the trump and a play.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from archive.matches import save_match
from games.texas42.advisor import Texas42Advisor
from games.texas42.dominoes import SEATS, TILES
from games.texas42.game import TEXAS42, VARIANT
from games.texas42.rules import legal_tiles
from server import strategy_processes
from server.app import DominoServer
from server.replay.advice import ReplayAdvisor
from server.replay.build import ReplayError
from storage import EventStore
from tests.conftest import make_config
from tests.games.texas42.helpers import match

DEADLINE = 180.0
"""Only bounds a hang: the oracle's figures rest on N = 150 completions (work, not time), which
takes seconds of CPU and much longer on a loaded machine."""


@pytest.fixture
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DominoServer]:
    instance = DominoServer(make_config(tmp_path))
    await instance.start()
    try:
        yield instance
    finally:
        await instance.stop()


class Seat:
    """One person's connection: requests by id, the seat's events folded as they come."""

    def __init__(self, ws: ClientConnection, seat: str) -> None:
        self.ws, self.seat, self.state, self.n = ws, seat, None, 0

    def fold(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "event":
            self.state = TEXAS42.evolve(self.state, TEXAS42.parse_event(frame["event"]))

    async def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        tag = f"{self.seat}{self.n}"
        await self.ws.send(json.dumps({**message, "id": tag}))
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), DEADLINE))
            if frame.get("id") == tag:
                return frame
            self.fold(frame)

    async def until_my_turn(self) -> None:
        while self.state is None or self.seat not in TEXAS42.to_act(self.state):
            self.fold(json.loads(await asyncio.wait_for(self.ws.recv(), DEADLINE)))

    async def move(self, table_id: str, move: dict[str, Any]) -> None:
        await self.until_my_turn()
        reply = await self.ask({"type": "move", "table_id": table_id, "move": move})
        assert reply["type"] == "ack", reply


def named_tiles(payload: Any) -> set[str]:
    text = json.dumps(payload)
    return {str(t) for t in TILES if f'"{t}"' in text}


async def test_a_seated_player_asks_for_the_oracle_when_bidding_and_for_plays(
        server: DominoServer, monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[tuple[str, list[dict[str, Any]]]] = []
    real = strategy_processes.game_advice

    async def spy(advisor: Any, events: list[dict[str, Any]], seat: str, *args: Any,
                  **kwargs: Any) -> dict[str, Any]:
        handed.append((seat, events))
        return await real(advisor, events, seat, *args, **kwargs)

    monkeypatch.setattr(strategy_processes, "game_advice", spy)
    url = f"ws://127.0.0.1:{server.port}/ws"
    async with connect(url) as s, connect(url) as w, connect(url) as n, connect(url) as e, \
            connect(url) as spectator:
        people = {seat: Seat(ws, seat) for seat, ws in zip(SEATS, (s, w, n, e), strict=True)}
        south = people["S"]
        created = await south.ask({"type": "create_table", "variant": VARIANT, "advice": True,
                                   "options": {"target_marks": 1}})
        assert created["type"] == "table_created", created
        table_id = created["table_id"]
        for seat, person in people.items():
            joined = await person.ask({"type": "join", "table_id": table_id, "seat": seat,
                                       "name": f"p{seat}"})
            assert joined["type"] == "joined" and joined["advice"] is True, joined
        watcher = Seat(spectator, "spectator")
        assert (await watcher.ask({"type": "watch", "table_id": table_id}))["type"] == "watching"

        await south.until_my_turn()  # E deals first: South bids first
        assert south.state.phase == "bidding"
        early = await people["W"].ask({"type": "advise", "table_id": table_id})
        assert early["type"] == "error" and early["code"] == "not_your_turn", early
        nosy = await watcher.ask({"type": "advise", "table_id": table_id})
        assert nosy["type"] == "error" and nosy["code"] == "unauthorized", nosy

        bid = await south.ask({"type": "advise", "table_id": table_id})
        assert bid["type"] == "advice" and bid["seat"] == "S", bid
        assert bid["moves"] == [] and bid["advice"]["kind"] == "bid"
        assert bid["label"] == bid["advice"]["label"] and "oracle" in bid["label"]
        oracle = bid["advice"]["oracle"]
        mine = sorted(str(t) for t in south.state.hands["S"])
        assert sorted(oracle["hand"]) == mine and oracle["N"] >= 1
        assert oracle["completion_model"].startswith("uniform")
        cell = oracle["cells"][oracle["trump"]]["30"]
        assert cell["P_dd"] >= cell["P_greedy"] and cell["evaluator"]
        assert named_tiles(bid) <= set(mine)

        await south.move(table_id, {"kind": "bid", "bid": 30})
        for seat in "WNE":
            await people[seat].move(table_id, {"kind": "pass"})
        await south.until_my_turn()
        trump = await south.ask({"type": "advise", "table_id": table_id})
        assert trump["type"] == "advice" and trump["advice"]["kind"] == "trump", trump
        await south.move(table_id, {"kind": "trump", "trump": trump["advice"]["oracle"]["trump"]})

        await south.until_my_turn()
        play = await south.ask({"type": "advise", "table_id": table_id})
        assert play["type"] == "advice" and play["advice"]["kind"] == "play", play
        legal = {str(t) for t in legal_tiles(south.state, "S")}
        assert {m["tile"] for m in play["advice"]["moves"]} == legal
        assert "double-dummy" in play["label"] and play["advice"]["deals"] >= 1
        assert named_tiles(play) <= set(mine)

    # the job was handed South's own view and nothing else: no other hand, no seed
    assert [seat for seat, _ in handed] == ["S", "S", "S"]
    for _, events in handed:
        for event in events:
            if event["type"] == "dealt":
                assert (event["tiles"] is not None) == (event["seat"] == "S"), event
            if event["type"] == "hand_started":
                assert event.get("seed") is None, event


def played_out(seed: int) -> list[Any]:
    events = match(seed, dict.fromkeys(SEATS, "greedy"), target_marks=1)
    assert events[-1].type == "match_ended"
    return events


async def test_a_replay_is_advised_at_every_bid_the_trump_and_the_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Texas42Advisor, "seconds", 0.5)
    events = played_out(5)
    match_id = events[0].match_id
    with EventStore(tmp_path / "replay.sqlite3") as store:
        save_match(store, events)
        advisor = ReplayAdvisor(store)
        bid = next(e for e in events if e.type == "bid" and e.bid > 0)
        body = json.loads(await advisor.advice(match_id, str(bid.seq)))
        assert body["seat"] == bid.seat and body["played"] == {"kind": "bid", "bid": bid.bid}
        assert body["advice"]["kind"] == "bid" and body["cell"]["bid"] == bid.bid
        assert body["trump"] == body["advice"]["oracle"]["trump"] and body["rank"] is None
        passed = next(e for e in events if e.type == "bid" and e.bid == 0)
        body = json.loads(await advisor.advice(match_id, str(passed.seq)))
        assert body["played"] == {"kind": "pass"} and body["cell"] is None
        named = next(e for e in events if e.type == "trump_named")
        body = json.loads(await advisor.advice(match_id, str(named.seq)))
        assert body["played"] == {"kind": "trump", "trump": named.trump} and body["rank"] >= 1
        play = [e for e in events if e.type == "played"][12]
        body = json.loads(await advisor.advice(match_id, str(play.seq)))
        assert body["played"] == {"kind": "play", "tile": play.tile}
        assert body["moves"] and 1 <= body["rank"] <= len(body["moves"])
        assert body["moves"] == body["advice"]["moves"]
        dealt = next(e for e in events if e.type == "dealt")
        with pytest.raises(ReplayError) as refused:
            await advisor.advice(match_id, str(dealt.seq))
        assert refused.value.status == 422



async def test_a_replay_s_oracle_grows_while_asked_with_progress(tmp_path: Path) -> None:
    # asked with progress, each request waits at most deadline (0 here) and is told 202
    # `computing` with the table as it stands; the table grows (25, 50, ... completions)
    # and the last answer is the whole one, the same as asked without progress
    events = played_out(6)
    match_id = events[0].match_id
    with EventStore(tmp_path / "grows.sqlite3") as store:
        save_match(store, events)
        bid = next(e for e in events if e.type == "bid" and e.bid > 0)
        advisor = ReplayAdvisor(store, deadline=0.0)
        seen: list[int] = []
        for _ in range(int(DEADLINE / 0.02)):
            try:
                final = json.loads(await advisor.advice(match_id, str(bid.seq), progress=True))
                break
            except ReplayError as computing:
                assert computing.status == 202 and computing.code == "computing"
                partial = computing.to_json().get("partial")
                if partial is not None:
                    oracle = partial["advice"]["oracle"]
                    assert partial["advice"]["partial"] is True and partial["seq"] == bid.seq
                    assert partial["played"] == {"kind": "bid", "bid": bid.bid}
                    if not seen or seen[-1] != oracle["N"]:
                        seen.append(oracle["N"])
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the oracle never finished")
        assert seen and seen == sorted(set(seen)) and seen[-1] < final["advice"]["oracle"]["N"]
        assert final["advice"]["oracle"]["N"] >= 150 and not final["advice"].get("partial")
        assert not advisor.partials  # nothing left once the computation ended
        again = json.loads(await ReplayAdvisor(store).advice(match_id, str(bid.seq)))
        assert again["advice"]["oracle"]["cells"] == final["advice"]["oracle"]["cells"]
