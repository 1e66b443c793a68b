"""The `odds` request's refusals under load, over the real server (real WebSockets on
loopback, its SQLite file, the real advice pool and its admission): `rate_limited` (this
connection's odds already in flight) and `busy` (the table's share taken, no worker within
the wait, or no answer within the timeout).

A gate holds the pool's jobs at the door of the worker pool (`ADVICE.run` waits for it, then
runs the real job), so "in flight" is a state the test sets up, not a race it hopes to win.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest

import server.tables.odds as odds_desk
from clients.python import DominoClient, ServerError
from protocol import BeliefMessage, Odds, OddsBelief
from server import strategy_processes
from server.app import DominoServer

GIVE_UP = 60.0
"""Seconds before a wait is given up (a bound, not a timing assertion)."""
MODEL = "behaviour:greedy"


class Gate:
    """Holds every job bound for the advice pool until opened; counts those that came."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = asyncio.Event()
        self.arrived = 0
        real = strategy_processes.ADVICE.run

        async def held(fn: Callable[..., Any], *args: Any) -> Any:
            self.arrived += 1
            await self.open.wait()
            return await real(fn, *args)

        monkeypatch.setattr(strategy_processes.ADVICE, "run", held)

    async def until(self, arrived: int) -> None:
        deadline = time.monotonic() + GIVE_UP
        while self.arrived < arrived:
            assert time.monotonic() < deadline, self.arrived
            await asyncio.sleep(0.01)


async def _table(url: str) -> tuple[DominoClient, str]:
    """A person at S of a block-2 table against a greedy bot: a hand is in play at once."""
    client = await DominoClient.connect(url)
    table_id = await client.create_table(variant="block-2", bots={"N": "greedy"},
                                         target=10_000)
    await client.join(table_id, "S")
    deadline = time.monotonic() + GIVE_UP
    while True:  # the hand is dealt once both seats are taken: its belief says so
        message = await client.next_message(max(0.01, deadline - time.monotonic()))
        if isinstance(message, BeliefMessage) and message.status == "live":
            return client, table_id


async def _ask(client: DominoClient, table_id: str) -> OddsBelief:
    reply = await client.request(Odds(table_id=table_id, model=MODEL), GIVE_UP)
    assert isinstance(reply, OddsBelief)
    return reply


async def _refused(client: DominoClient, table_id: str) -> str:
    with pytest.raises(ServerError) as caught:
        await _ask(client, table_id)
    return caught.value.code


async def test_a_second_odds_in_flight_is_rate_limited_another_asker_busy(
    server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch)
    south, table_id = await _table(url)
    spectator = await DominoClient.connect(url)
    await spectator.watch(table_id)
    first = asyncio.create_task(_ask(south, table_id))
    await gate.until(1)  # S's odds hold one of the pool's slots
    assert await _refused(south, table_id) == "rate_limited"
    # another connection at the same table: the table's share (one odds job) is taken
    assert await _refused(spectator, table_id) == "busy"
    gate.open.set()
    answer = await first
    assert answer.observer == "S" and answer.model == MODEL
    # once answered, both may ask again
    again = await _ask(south, table_id)
    watched = await _ask(spectator, table_id)
    assert again.observer == "S" and watched.observer == "spectator"
    for client in (south, spectator):
        await client.close()


async def test_odds_with_no_worker_free_within_the_wait_are_busy(
    server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch)
    monkeypatch.setattr(strategy_processes, "ADVICE_WAIT", 0.3)
    slots = strategy_processes.ADVICE.workers
    holders = [await _table(url) for _ in range(slots)]
    held = [asyncio.create_task(_ask(c, t)) for c, t in holders]
    await gate.until(slots)  # every slot taken, by other tables
    late, table_id = await _table(url)
    assert await _refused(late, table_id) == "busy"
    gate.open.set()
    for task in held:
        assert (await task).model == MODEL
    assert (await _ask(late, table_id)).observer == "S"  # a slot is free again
    for client in [late, *(c for c, _ in holders)]:
        await client.close()


async def test_odds_not_answered_within_the_timeout_are_busy(
    server: DominoServer, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch)
    monkeypatch.setattr(odds_desk, "TIMEOUT", 0.3)
    south, table_id = await _table(url)
    assert await _refused(south, table_id) == "busy"
    assert gate.arrived == 1  # it was admitted, and the worker did not answer in time
    # the request is no longer in flight: the next is admitted, not rate_limited
    gate.open.set()
    monkeypatch.setattr(odds_desk, "TIMEOUT", GIVE_UP)
    assert (await _ask(south, table_id)).model == MODEL
    await south.close()
