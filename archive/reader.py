"""The archive read from the event loop: every blocking store read runs in a worker thread
here, so async code (remote tables, replay routes) never calls `to_thread(store.read)`.

Events come back typed as the game their match names (`match_started.game`, looked up in
the registry the archive was given; none named: the registry's default game).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from archive.matches import ArchiveError, UnknownMatch, game_of_payload, list_matches, load_match
from archive.tables import StoredTable, read_table
from games.interface import Game, UnknownGame
from games.registry import GAMES, Registry
from storage import EventStore

GAMES_KNOWN = 4096
"""Matches whose game an Archive remembers (about 100 bytes each; a miss is one row read)."""


class Archive:
    """Async reads of one store's matches and tables (the store stays the caller's)."""

    def __init__(self, store: EventStore, games: Registry = GAMES) -> None:
        self.store = store
        self.games = games
        self._game_of: OrderedDict[str, Game] = OrderedDict()
        """Match id -> its game, read once from the match's first event (the latest
        GAMES_KNOWN: a long-running server reads ever new matches)."""

    async def events(self, match_id: str, after_seq: int = 0) -> list[Any]:
        """A match's events after `after_seq`, typed (the referee's log)."""
        stored = await asyncio.to_thread(self.store.read, match_id, after_seq)
        if not stored:
            return []
        game = await self.game(match_id)
        return [game.parse_event(record.payload) for record in stored]

    async def game(self, match_id: str) -> Game:
        """The game of a stored match (raises UnknownMatch, or ArchiveError for a game this
        registry does not host)."""
        known = self._game_of.get(match_id)
        if known is not None:
            self._game_of.move_to_end(match_id)
            return known
        first = await asyncio.to_thread(self.store.read, match_id, 0, 1)
        if not first or first[0].type != "match_started":
            raise UnknownMatch(f"no match {match_id!r} in this store")
        try:
            game = self._game_of[match_id] = game_of_payload(first[0].payload, self.games)
        except UnknownGame as error:
            raise ArchiveError(f"match {match_id!r}: {error}") from error
        if len(self._game_of) > GAMES_KNOWN:
            self._game_of.popitem(last=False)
        return game

    async def last_seq(self, stream: str) -> int:
        return await asyncio.to_thread(self.store.last_seq, stream)

    async def table(self, table_id: str, *, config_only: bool = False) -> StoredTable | None:
        return await asyncio.to_thread(read_table, self.store, table_id,
                                       config_only=config_only)

    async def match(self, match_id: str) -> list[Any]:
        """A whole stored match (raises archive.matches.UnknownMatch or ArchiveError)."""
        return await asyncio.to_thread(load_match, self.store, match_id, None, self.games)

    async def listing(self, limit: int = 200) -> list[dict[str, Any]]:
        return await asyncio.to_thread(list_matches, self.store, limit)
