"""A memo bounded in entries and in bytes, the least recently used going first.

Kept answers differ two hundredfold in size (a dominoes move's advice is 0.6 KB, a Texas 42
decision's 130 KB), so a bound on entries alone does not bound memory: both are held here.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class SizedLru(Generic[K, V]):
    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._kept: OrderedDict[K, tuple[V, int]] = OrderedDict()
        """Each value and its size, least recently used first."""
        self.bytes = 0

    def get(self, key: K) -> V | None:
        """The kept value, now the most recently used (None if nothing is kept)."""
        found = self._kept.get(key)
        if found is None:
            return None
        self._kept.move_to_end(key)
        return found[0]

    def put(self, key: K, value: V, size: int) -> bool:
        """Keep `value` (`size` bytes) under `key`, letting the least recently used go until
        both bounds hold. One larger than the whole bound is not kept, and what `key` held
        goes too (it was replaced): False then."""
        old = self._kept.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if size > self.max_bytes:
            return False
        self._kept[key] = (value, size)
        self.bytes += size
        while len(self._kept) > self.max_entries or self.bytes > self.max_bytes:
            self.bytes -= self._kept.popitem(last=False)[1][1]
        return True

    def __len__(self) -> int:
        return len(self._kept)
