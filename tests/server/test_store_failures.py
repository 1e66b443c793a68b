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


WRITES_EVERY_MATCH_MAKES = ["1", "2", "3", "hand_ended", "match_ended"]
"""Which write fails: the first, second or third of the match (its start, a deal, a move),
or the first one carrying a hand's or the match's end. Chosen by what the write carries, not
by a count, because a short match (a hand blocked early) may never reach a given count."""


def fails_here(which: str, count: int, appends: Any) -> bool:
    if which.isdigit():
        return count == int(which)
    return any(event.get("type") == which for _, _, events in appends for event in events)


@pytest.mark.parametrize("failing_write", WRITES_EVERY_MATCH_MAKES)
async def test_a_table_of_bots_recovers_from_a_failed_write(
    server: DominoServer, failing_write: str
) -> None:
    table = await server.create_table(bots=BOTS, target=30)
    real_append = table.store.append_atomic
    writes = 0
    failed_at: int | None = None

    async def failing_once(appends: Any) -> Any:
        nonlocal writes, failed_at
        appends = list(appends)
        writes += 1
        if failed_at is None and fails_here(failing_write, writes, appends):
            failed_at = writes
            raise OSError("disk full (injected)")
        return await real_append(appends)

    table.store.append_atomic = failing_once  # type: ignore[method-assign]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while table.status != "finished":
        assert loop.time() < deadline, f"stuck at seq {table.last_seq} ({table.status})"
        await asyncio.sleep(0.05)
    assert failed_at is not None and writes > failed_at  # it failed, and was tried again

    with EventStore(server.config.db) as store:
        events = [parse_event(e.payload) for e in store.read(table.table_id)]
        assert store.verify_chain(table.table_id).ok
    check_log(events)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events == table.log
