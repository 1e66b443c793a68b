"""Advice computed for a move, kept so the same question is never solved twice.

Every advisor's answer is decided by work budgets and a seed taken from the position
(`advice_seed`: the match, the move's seq, the model), so the advice a seated player got
live is exactly what the replay of that move would compute; the live desk keeps it here and
the replay reads it first, so a replay shows it at once. Bounded in entries and in bytes
(least recently used go first); in memory, for the server's lifetime.

`KeptAdvice` keeps, beyond the server's lifetime, the answers of an advisor that names them by
position (games.advice.position_key: e.g. Texas 42's bidding oracle, under its `cache_key`):
in the store's database (storage/kept.py), so a replay of a stored match, after a restart or
on another server on the same database, shows them at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from games.advice import UNIFORM
from server.logs import log
from server.sized_lru import SizedLru
from storage import EventStore, StorageError
from storage.kept import KeptValues

MAX_KEPT = 2048
MAX_KEPT_BYTES = 32 * 1024 * 1024
"""The kept answers' size as compact JSON. Answers differ two hundredfold: a dominoes move's
is 0.6 KB, a Texas 42 decision's (the oracle's table) 130 KB, 217 KB as Python objects, so
2,048 of those held 0.45 GB (`domino-oracle bench advice-sizes`). 32 MiB keeps 251 of them;
a Texas 42 answer the memo let go is read back from the store (KeptAdvice), not computed
again."""

MemoKey = tuple[str, int, str, str]
"""(match id, the seq of the move being decided, the seat deciding it, model)."""


def advice_seed(match_id: str, seq: int, model: str = UNIFORM) -> int:
    """The sampler's seed for advice on move `seq` of a match: the same live and in a replay."""
    text = f"{match_id}:{seq}" if model == UNIFORM else f"{match_id}:{seq}:{model}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class AdviceMemo:
    def __init__(self, max_kept: int = MAX_KEPT, max_bytes: int = MAX_KEPT_BYTES) -> None:
        self._kept: SizedLru[MemoKey, dict[str, Any]] = SizedLru(max_kept, max_bytes)
        self.hits = 0

    @property
    def bytes(self) -> int:
        """The kept answers' size (compact JSON)."""
        return self._kept.bytes

    def keep(self, key: MemoKey, payload: dict[str, Any]) -> None:
        self._kept.put(key, payload, len(json.dumps(payload, separators=(",", ":"))))

    def get(self, key: MemoKey) -> dict[str, Any] | None:
        found = self._kept.get(key)
        if found is not None:
            self.hits += 1
        return found

    def __len__(self) -> int:
        return len(self._kept)


class KeptAdvice:
    """Advice payloads kept in the store's database under their position key (see above).
    A failing read or write is logged and costs a recomputation, never an answer."""

    PREFIX = "advice:"

    def __init__(self, store: EventStore, values: KeptValues | None = None) -> None:
        self.values = values if values is not None else KeptValues(store)
        self.hits = 0
        self.kept = 0

    async def get(self, position: str) -> dict[str, Any] | None:
        try:
            raw = await asyncio.to_thread(self.values.get, self.PREFIX + position)
        except (SQLAlchemyError, StorageError, OSError, ValueError) as error:
            log("advice_kept_unread", position=position, error=repr(error))
            return None
        if raw is None:
            return None
        try:
            payload = json.loads(raw)
        except ValueError:  # not what put wrote (a store without a key checks no seal)
            log("advice_kept_unread", position=position, error="not JSON")
            return None
        if not isinstance(payload, dict):
            return None
        self.hits += 1
        return payload

    async def put(self, position: str, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, separators=(",", ":")).encode()
        try:
            if await asyncio.to_thread(self.values.put, self.PREFIX + position, data):
                self.kept += 1
        except (SQLAlchemyError, StorageError, OSError, ValueError) as error:
            log("advice_kept_unwritten", position=position, error=repr(error))
