"""Closed sessions and retired tables are freed by reference counting, not by the collector.

The long-running server freezes what survives a young collection (server/collector.py),
and a frozen object in a garbage cycle waits for the reclaim; so a session, which lives as
long as its connection, and a table, which lives as long as its match, must hold no cycle
once they are let go of. The collector is off in these tests: only reference counting can
free them.
"""

from __future__ import annotations

import functools
import gc
import weakref
from pathlib import Path

import pytest

from clients.python import DominoClient
from protocol import EventMessage
from server.app import DominoServer
from server.session import Session
from server.tables.local import TableOptions
from tests.conftest import make_config
from tests.server.helpers import freed, wait_for

BOTS3 = {"W": "random", "N": "random", "E": "random"}
GIVE_UP = 30.0
"""Seconds before a wait gives up (a bound, never a figure a test checks)."""


def _sessions() -> list[weakref.ref[Session]]:
    """The live sessions (by exact type: isinstance would dereference dead weak proxies)."""
    return [weakref.ref(o) for o in gc.get_objects() if type(o) is Session]


async def test_a_closed_session_is_freed(url: str, collector_off: None) -> None:
    client = await DominoClient.connect(url)
    table_id = await client.create_table(bots=BOTS3)
    await client.join(table_id, "S", "South")
    await client.chat(table_id, "hello")  # its chat member and outbox both in use
    live = _sessions()
    assert len(live) == 1
    await client.close()
    await wait_for(functools.partial(freed, live[0]), timeout=GIVE_UP)


@pytest.mark.parametrize("processes", [0, 1])
async def test_a_retired_table_is_freed(tmp_path: Path, collector_off: None, processes: int
                                        ) -> None:
    """S sits with three bots and leaves: the table is abandoned, retired, and freed (its
    bots held it through their `act` and through their cancelled tasks; with beliefs in an
    inference process, its handles' entry held it)."""
    options = TableOptions(grace=0.05, bot_delay=0.01, hand_pause=0.0, retire_after=0.3,
                           abandon_after=0.2)
    server = DominoServer(make_config(tmp_path, tables=options,
                                      inference_processes=processes))
    await server.start()
    try:
        client = await DominoClient.connect(f"ws://127.0.0.1:{server.port}/ws")
        table_id = await client.create_table(target=500, bots=BOTS3)
        await client.join(table_id, "S", "South")
        while not isinstance(message := await client.next_message(GIVE_UP), EventMessage) \
                or message.seq < 3:
            pass  # the bots are playing
        await client.close()
        registry = server.registry
        assert registry is not None
        table = weakref.ref(registry.tables[table_id])
        await wait_for(lambda: table_id not in registry.tables, timeout=GIVE_UP)
        await wait_for(functools.partial(freed, table), timeout=GIVE_UP)
    finally:
        await server.stop()


async def test_a_freed_sessions_name_among_the_workers_owners_is_never_reused(
        url: str, collector_off: None) -> None:
    """Shared workers count each connection's jobs under its name (Admission): a job left
    running by a closed connection holds that name's share until it ends. A name made from
    the session's id() came back with the next session at the freed one's address, which
    then had its advice refused as `busy` (a browser test's hint that never came)."""
    askers = []
    for _ in range(20):
        client = await DominoClient.connect(url)
        await client.list_tables()  # its session is up
        (session,) = _sessions()
        live = session()
        assert live is not None
        askers.append(live.asker)
        del live
        await client.close()
        await wait_for(functools.partial(freed, session), timeout=GIVE_UP)  # memory too
    assert len(set(askers)) == len(askers)
