"""A failed store write must not freeze a table: the start, a deal or a bot's move that did
not commit is tried again, and the match still ends with a valid log.

The failure is injected around the real store (one `append_atomic` raises, as a full disk or
a dropped database connection would); everything else is the real server.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from games.dominoes.events import parse_event
from games.dominoes.validate import check_log
from server.app import DominoServer
from storage import EventStore

BOTS = dict.fromkeys("SWNE", "random")


@pytest.mark.parametrize("failing_write", [1, 2, 3, 9, 20])  # a match has >= 25 writes
async def test_a_table_of_bots_recovers_from_a_failed_write(
    server: DominoServer, failing_write: int
) -> None:
    table = await server.create_table(bots=BOTS, target=30)
    real_append = table.store.append_atomic
    writes = 0

    async def failing_once(appends: Any) -> Any:
        nonlocal writes
        writes += 1
        if writes == failing_write:
            raise OSError("disk full (injected)")
        return await real_append(appends)

    table.store.append_atomic = failing_once  # type: ignore[method-assign]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while table.status != "finished":
        assert loop.time() < deadline, f"stuck at seq {table.last_seq} ({table.status})"
        await asyncio.sleep(0.05)
    assert writes > failing_write  # the failure happened, and work went on after it

    with EventStore(server.config.db) as store:
        events = [parse_event(e.payload) for e in store.read(table.table_id)]
        assert store.verify_chain(table.table_id).ok
    check_log(events)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events == table.log
