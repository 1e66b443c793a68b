"""Issue 30, item 7: the attacks the first pass did not try, on a real server over loopback.

- `resume` (and `watch`) with a bogus seq: typed `bad_request`, nothing attached, the seat
  still resumable.
- One connection following any number of tables: bounded (`attached_tables`), finished
  ones too (the oldest of them let go at the limit).
- An `advise` flood: each request used to fold the table's whole log on the event loop
  before being refused; now a per-connection and a per-address bucket refuse it first.
(Slow HTTP clients: tests/security/test_connections.py; signed MQTT messages:
tests/security/test_private_bus.py.)
"""

from __future__ import annotations

import asyncio
import gc
import json
from typing import Any

from websockets.asyncio.client import connect

from server.app import DominoServer
from server.session import Session
from tests.security.conftest import Start
from tests.security.test_bounded_resources import ask, ws_url
from tests.server.helpers import wait_for

BOGUS_SEQS: list[Any] = [-1, 2**53 + 1, 10**30, 10**400, "5", "abc", 5.0, 5.5, True, None,
                         [1], {"seq": 1}]


async def test_resume_and_watch_with_a_bogus_seq_are_refused_typed(start: Start) -> None:
    """Before: "5", 5.0, true and 10^30 were taken (lax parsing; any size of integer)."""
    server = await start()
    async with connect(ws_url(server)) as ws:
        bots = dict.fromkeys(("W", "N", "E"), "greedy")
        table_id = (await ask(ws, {"type": "create_table", "bots": bots}))["table_id"]
        token = (await ask(ws, {"type": "join", "table_id": table_id, "seat": "S",
                                "name": "ann"}))["token"]
    table = server.registry.tables[table_id]
    await wait_for(lambda: table.connected["S"] == 0)  # the joining connection has gone
    before = (dict(table.connected), table.spectators)  # (bots may move meanwhile)
    async with connect(ws_url(server)) as ws:
        for n, seq in enumerate(BOGUS_SEQS):
            for kind in ("resume", "watch"):
                reply = await ask(ws, {"type": kind, "id": n, "table_id": table_id,
                                       "token": token, "after_seq": seq})
                assert reply["type"] == "error" and reply["code"] == "bad_request", (seq, reply)
        assert (dict(table.connected), table.spectators) == before
        resumed = await ask(ws, {"type": "resume", "id": "ok", "table_id": table_id,
                                 "token": token, "after_seq": 0})
        assert resumed["type"] == "resumed" and resumed["seat"] == "S", resumed
        assert table.connected["S"] == 1


async def test_one_connection_follows_a_bounded_number_of_tables(start: Start) -> None:
    """Before: a connection could watch every table there is (a feed, a backlog each)."""
    server = await start(attached_tables=3)
    async with connect(ws_url(server)) as ws:
        tables = [(await ask(ws, {"type": "create_table", "id": n}))["table_id"]
                  for n in range(5)]
        replies = [await ask(ws, {"type": "watch", "table_id": t}) for t in tables[:4]]
        assert [r["type"] for r in replies] == ["watching"] * 3 + ["error"]
        assert replies[3]["code"] == "limit_reached"
        joined = await ask(ws, {"type": "join", "table_id": tables[4], "seat": "S"})
        assert joined["code"] == "limit_reached"
        assert server.registry.tables[tables[4]].seats == {}  # no seat claimed for nothing
        assert (await ask(ws, {"type": "leave", "table_id": tables[0]}))["type"] == "left"
        assert (await ask(ws, {"type": "join", "table_id": tables[4], "seat": "S"}
                          ))["type"] == "joined"


async def _advice_table(server: DominoServer, ws: Any) -> str:
    bots = dict.fromkeys(("W", "N", "E"), "greedy")
    table_id = (await ask(ws, {"type": "create_table", "bots": bots, "advice": True,
                               "target": 500}))["table_id"]
    await ask(ws, {"type": "join", "table_id": table_id, "seat": "S"})
    return str(table_id)


async def test_an_advise_flood_is_refused_before_any_work_and_bots_play_on(
        start: Start) -> None:
    """Before: 40 `advise` at once from a seat were each checked by folding the table's log
    on the event loop (40 folds; `not_your_turn` or `rate_limited` only after it). Now at
    most the connection's burst reaches the advice desk, across connections at most the
    address's, the rest are `rate_limited` at once, and a table of bots plays on."""
    server = await start(asks_burst=4.0, asks_per_second=0.5, asks_per_address_burst=6.0,
                         asks_per_address_per_second=0.5)
    async with connect(ws_url(server)) as first, connect(ws_url(server)) as second:
        mine = [await _advice_table(server, ws) for ws in (first, second)]
        bots = dict.fromkeys(("S", "W", "N", "E"), "greedy")
        busy_table = (await ask(first, {"type": "create_table", "bots": bots,
                                        "target": 500}))["table_id"]
        playing = server.registry.tables[busy_table]
        await wait_for(lambda: playing.last_seq > 5, timeout=30)
        seq_before = playing.last_seq
        for ws, table_id in zip((first, second), mine, strict=True):
            for n in range(40):
                await ws.send(json.dumps({"type": "advise", "id": n, "table_id": table_id}))
        codes: list[str] = []
        for ws in (first, second):
            while len(codes) < 40 * (1 + (ws is second)):
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if message["type"] in ("advice", "error") and isinstance(message.get("id"),
                                                                           int):
                    codes.append(message.get("code", "advice"))
        await wait_for(lambda: playing.last_seq > seq_before, timeout=30)
    refused = server.guards.asks_refused
    print(f"\n80 advise: {80 - refused} reached the desk, {refused} refused before it; "
          f"answers {dict(sorted((c, codes.count(c)) for c in set(codes)))}; bots' table "
          f"{seq_before} -> {playing.last_seq}")
    assert "internal" not in codes
    assert server.guards.asks_refused >= 80 - 6
    assert server.health()["asks_refused"] == server.guards.asks_refused


async def test_watching_ever_more_finished_tables_holds_no_more_than_the_limit(
        start: Start) -> None:
    """Before: finished tables did not count against `attached_tables`, so one connection
    watching finished match after finished match kept a feed, a chat room and a presence
    for each (a rate token a watch: fifty a second, for as long as it stayed connected).
    Now at the limit the one attached longest ago among those no longer in play is let go;
    the tables in play are still refused past it."""
    server = await start(attached_tables=3)
    registry = server.registry
    assert registry is not None
    bots = dict.fromkeys(("S", "W", "N", "E"), "random")
    async with connect(ws_url(server)) as ws:
        finished = [(await ask(ws, {"type": "create_table", "id": n, "bots": bots,
                                    "target": 10}))["table_id"] for n in range(6)]
        await wait_for(lambda: all(registry.tables[t].finished for t in finished), timeout=60)
        for n, table_id in enumerate(finished):
            reply = await ask(ws, {"type": "watch", "id": f"w{n}", "table_id": table_id})
            assert reply["type"] == "watching" and reply["finished"], reply
        (session,) = [o for o in gc.get_objects() if type(o) is Session]
        assert list(session.attachments) == finished[-3:]  # the latest three
        assert set(registry.book) == set(finished[-3:])  # presences let go of too
        assert sum(server.registry.tables[t].spectators for t in finished) == 3
        live = [(await ask(ws, {"type": "create_table", "id": f"l{n}"}))["table_id"]
                for n in range(4)]
        replies = [await ask(ws, {"type": "watch", "table_id": t}) for t in live]
        assert [r["type"] for r in replies] == ["watching"] * 3 + ["error"]
        assert replies[3]["code"] == "limit_reached"
        assert list(session.attachments) == live[:3]
