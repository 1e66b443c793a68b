"""Finding 3: the strategy's shared worker pools cannot be starved by other tables.

Before: 40 seats each holding an `advise` in flight made a victim's `advise` fail 6 of 6
(`internal` after 10 s); 30 tables of pimc bots took a victim table's pimc moves from
0.26 s to 29 s. Now each pool admits at most one job per worker, each table (and each
connection) holds at most its share, nobody waits past a deadline, and the losers degrade:
a pimc bot plays its greedy move (and logs it), advice answers `busy`.

The pool is made busy by holding its admission slots from the test, on the server's own
event loop, as other tables' jobs would hold them; the server, sockets and workers are real.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from websockets.asyncio.client import connect

from games.dominoes.strategy.advisor import BEHAVIOUR
from server import strategy_processes
from server.app import DominoServer
from server.strategy_processes import Admission, PoolBusy
from tests.security.test_store_integrity import ask
from tests.server.helpers import wait_for


async def test_admission_is_first_come_with_a_share_per_owner_and_a_deadline() -> None:
    gate = Admission(slots=1, per_owner=1)
    await gate.enter(["table:a"], wait=1)
    with pytest.raises(PoolBusy, match="already has"):  # its share, at once
        await gate.enter(["table:a"], wait=1)
    with pytest.raises(PoolBusy, match="no worker within"):  # the deadline
        await gate.enter(["table:b"], wait=0.05)
    order: list[str] = []

    async def take(owner: str) -> None:
        await gate.enter([owner], wait=5)
        order.append(owner)

    waiting = [asyncio.create_task(take(o)) for o in ("table:c", "table:d")]
    await asyncio.sleep(0.01)
    assert order == [] and gate.running == 1
    gate.leave(["table:a"])
    await asyncio.sleep(0.01)
    assert order == ["table:c"]  # first come, first served; one slot, one job
    gate.leave(["table:c"])
    await asyncio.gather(*waiting)
    assert order == ["table:c", "table:d"]
    gate.leave(["table:d"])
    assert gate.running == 0 and not gate.held


async def _hold(pool: strategy_processes._Pool) -> list[str]:
    """Take every slot of `pool` as other tables' jobs would."""
    admission = pool.admission()
    owners = [f"table:other-{n}" for n in range(admission.slots)]
    for owner in owners:
        await admission.enter([owner], wait=1)
    return owners


async def test_a_pimc_bot_that_gets_no_worker_plays_greedy_and_says_so(
        server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="domino.server")
    monkeypatch.setattr(strategy_processes, "POOLED_WAIT", 0.05)
    held = await _hold(strategy_processes.BOTS)
    try:
        async with connect(url) as ws:
            bots = dict.fromkeys(("S", "W", "N", "E"), "pimc")
            table_id = (await ask(ws, {"type": "create_table", "bots": bots}))["table_id"]
        table = server.registry.tables[table_id]
        await wait_for(lambda: table.last_seq >= 30, timeout=60)  # it plays on
    finally:
        for owner in held:
            strategy_processes.BOTS.admission().leave([owner])
    fell_back = [r.getMessage() for r in caplog.records
                 if r.getMessage().startswith("event=pimc_fell_back ")]
    assert fell_back and all(f"table={table_id} " in line and "played=greedy" in line
                             for line in fell_back), fell_back


async def test_advice_answers_busy_when_the_pool_is_taken(
        server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strategy_processes, "ADVICE_WAIT", 0.05)
    async with connect(url) as ws:
        bots = dict.fromkeys(("W", "N", "E"), "greedy")
        table_id = (await ask(ws, {"type": "create_table", "bots": bots, "advice": True}))[
            "table_id"]
        await ask(ws, {"type": "join", "table_id": table_id, "seat": "S"})
        table = server.registry.tables[table_id]
        for _ in range(200):  # until S is to play with a choice (pass while nothing fits)
            await wait_for(lambda: "S" in table.game.game.to_act(table.state), timeout=30)
            reply = await ask(ws, {"type": "advise", "id": "probe", "table_id": table_id})
            if reply.get("code") != "no_choice":
                break
            await ask(ws, {"type": "pass", "table_id": table_id})
        assert reply["type"] == "advice", reply  # the pool is free: advice comes
        held = await _hold(strategy_processes.ADVICE)
        try:
            # another model: the uniform answer above is kept, and would come free
            reply = await ask(ws, {"type": "advise", "id": "busy", "table_id": table_id,
                                   "model": BEHAVIOUR})
        finally:
            for owner in held:
                strategy_processes.ADVICE.admission().leave([owner])
        assert reply == {"type": "error", "id": "busy", "code": "busy",
                         "message": reply["message"]}
