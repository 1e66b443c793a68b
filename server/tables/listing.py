"""`list_tables` answered from a snapshot: each table's entry encoded once per change.

Before, every `list_tables` built a TableInfo model per table on the page and encoded the
page: thirty clients asking twenty times a second made the server re-encode the same
hundred entries 600 times a second. Now each hosted table's entry is kept encoded with the
table's fingerprint (last seq, seats stream seq, spectators, rematch, running clocks,
abandoned: what the entry shows changes only with one of them), and re-encoded only when
that changed; the sorted ids are kept until a table is added or retired (`Tables.version`).
A page is then the kept pieces joined: the same cost whoever asks, and as fresh as the
tables themselves.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from protocol import TableInfo, Tables


class Listed(Protocol):
    """What the fingerprint reads of a hosted table (server.tables.local.Table)."""

    table_id: str
    side_seq: int
    spectators: int
    rematch: str | None
    clock_started: dict[str, float]
    abandoned: bool
    ended_at: float | None

    @property
    def last_seq(self) -> int: ...

    @property
    def status(self) -> str: ...


def fingerprint(table: Listed) -> tuple[Any, ...]:
    """What the entry shows changes only with one of these; the status is read as well, not
    only derived from the seq, so an entry encoded between a commit and its fold is never
    kept stale."""
    return (table.last_seq, table.status, table.side_seq, table.spectators, table.rematch,
            tuple(table.clock_started.items()), table.abandoned, table.ended_at)


V = TypeVar("V")


class Versioned(dict[str, V]):
    """The registry's tables by id, counting additions and removals (`version`)."""

    version = 0

    def __setitem__(self, key: str, value: V) -> None:
        if key not in self:
            self.version += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self.version += 1

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            self.version += 1
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, V]:
        self.version += 1
        return super().popitem()

    def clear(self) -> None:
        self.version += 1
        super().clear()

    def setdefault(self, key: str, default: V) -> V:
        if key not in self:
            self.version += 1
        return super().setdefault(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.version += 1
        super().update(*args, **kwargs)


class ListingCache:
    """Encoded entries of the hosted tables, and their ids in order."""

    def __init__(self, tables: Versioned[Any], info: Callable[[Any], TableInfo]) -> None:
        self.tables = tables
        self.info = info
        self._entries: dict[str, tuple[tuple[Any, ...], str]] = {}
        self._ids: list[str] = []
        self._version = -1
        self.encoded = 0
        """Entries encoded so far (a figure for tests and /healthz)."""

    def ordered(self) -> list[str]:
        if self._version != self.tables.version:
            self._ids = sorted(self.tables)
            self._version = self.tables.version
            self._entries = {k: v for k, v in self._entries.items() if k in self.tables}
        return self._ids

    def entry(self, table: Any) -> str:
        mark = fingerprint(table)
        kept = self._entries.get(table.table_id)
        if kept is not None and kept[0] == mark:
            return kept[1]
        text = self.info(table).model_dump_json()
        self._entries[table.table_id] = (mark, text)
        self.encoded += 1
        return text

    def page(self, after: str | None, limit: int | None) -> tuple[list[str], str | None]:
        """Up to `limit` hosted tables' ids above `after`, and the id to go on after."""
        ids = self.ordered()
        start = 0 if after is None else bisect.bisect_right(ids, after)
        end = len(ids) if limit is None else min(len(ids), start + limit)
        more = ids[end - 1] if limit is not None and end < len(ids) and end > start else None
        return ids[start:end], more

    def reply(self, command_id: Any, after: str | None, limit: int | None) -> str:
        """The whole `tables` frame for one page, spliced from the kept entries."""
        page, more = self.page(after, limit)
        body = ",".join(self.entry(self.tables[t]) for t in page)
        frame = Tables(id=command_id, tables=[], next=more).model_dump_json()
        marker = '"tables":[]'
        assert marker in frame
        return frame.replace(marker, f'"tables":[{body}]', 1)

