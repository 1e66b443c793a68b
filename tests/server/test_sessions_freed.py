"""A closed connection's session is freed by reference counting, not left to the collector.

The long-running server freezes what survives a full collection (server/collector.py), and
a frozen object in a garbage cycle waits for the hourly reclaim; so a session, which lives
as long as its connection, must hold no cycle once it is closed. The collector is off here:
only reference counting can free it.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from clients.python import DominoClient
from server.session import Session
from tests.server.helpers import wait_for


@pytest.fixture
def no_collector() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _sessions() -> list[weakref.ref[Session]]:
    return [weakref.ref(o) for o in gc.get_objects() if isinstance(o, Session)]


async def test_a_closed_session_is_freed_without_the_collector(url: str, no_collector: None
                                                               ) -> None:
    gc.collect()  # sessions of earlier tests, if any, out of the way
    client = await DominoClient.connect(url)
    table_id = await client.create_table(bots={"W": "random", "N": "random", "E": "random"})
    await client.join(table_id, "S", "South")
    await client.chat(table_id, "hello")  # its chat member and outbox both in use
    live = _sessions()
    assert len(live) == 1
    await client.close()
    await wait_for(lambda: live[0]() is None)
