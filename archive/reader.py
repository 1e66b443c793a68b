"""The archive read from the event loop: every blocking store read runs in a worker thread
here, so async code (remote tables, replay routes) never calls `to_thread(store.read)`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from archive.matches import list_matches, load_match
from archive.tables import StoredTable, read_table
from games.dominoes.events import Event, parse_event
from storage import EventStore


class Archive:
    """Async reads of one store's matches and tables (the store stays the caller's)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def events(self, match_id: str, after_seq: int = 0) -> list[Event]:
        """A match's events after `after_seq`, typed (the referee's log)."""
        stored = await asyncio.to_thread(self.store.read, match_id, after_seq)
        return [parse_event(record.payload) for record in stored]

    async def last_seq(self, stream: str) -> int:
        return await asyncio.to_thread(self.store.last_seq, stream)

    async def table(self, table_id: str, *, config_only: bool = False) -> StoredTable | None:
        return await asyncio.to_thread(read_table, self.store, table_id,
                                       config_only=config_only)

    async def match(self, match_id: str) -> list[Event]:
        """A whole stored match (raises archive.matches.UnknownMatch or ArchiveError)."""
        return await asyncio.to_thread(load_match, self.store, match_id)

    async def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        return await asyncio.to_thread(list_matches, self.store, limit)
