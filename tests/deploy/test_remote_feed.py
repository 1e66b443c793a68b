"""A connection's feed from a table another server owns, when opening it fails half-way."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from archive.reader import Archive
from server.feeds.mqtt_bus import MqttBus
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import Topics
from server.tables.remote import RemoteTable
from storage import EventStore, StoreClosed

pytestmark = pytest.mark.mqtt


async def _no_forward(_remote: RemoteTable, op: dict[str, Any]) -> dict[str, Any]:
    raise AssertionError(f"opening a feed forwards nothing, yet {op} was forwarded")


def _no_tell(node: str, op: dict[str, Any]) -> None:
    raise AssertionError(f"opening a feed tells nobody anything, yet {node} was told {op}")


async def test_a_feed_that_fails_to_open_lets_go_of_the_bus(
    tmp_path: Path, mqtt_url: str, prefix: str
) -> None:
    """The store fails after the feed subscribed (it subscribes first so that nothing falls
    between live and history): the subscriptions must go, or the feed's gate would hold every
    later event of the table for as long as the server runs."""
    link = MqttLink(mqtt_url, f"feed-test-{uuid.uuid4().hex[:8]}", lambda _t, _p: None)
    await link.start()
    try:
        bus = MqttBus(link, Topics(prefix))
        store = EventStore(tmp_path / "events.sqlite3")
        store.close()  # every read now fails, as a lost database would
        remote = RemoteTable("t-remote", "elsewhere", archive=Archive(store), bus=bus,
                             forward=_no_forward, tell=_no_tell)
        for _ in range(3):
            with pytest.raises(StoreClosed):
                await remote.open_feed("S", lambda _e: None, 0, lambda _a, _l: None)
        for kind in ("event", "belief"):
            assert not bus.has_subscribers("t-remote", "S", kind)  # type: ignore[arg-type]
    finally:
        await link.stop()
