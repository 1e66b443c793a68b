"""Advice computed for a move, kept so the same question is never solved twice.

Every advisor's answer is decided by work budgets and a seed taken from the position
(`advice_seed`: the match, the move's seq, the model), so the advice a seated player got
live is exactly what the replay of that move would compute; the live desk keeps it here and
the replay reads it first, so a replay shows it at once. Bounded (least recently used go
first); in memory, for the server's lifetime.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

from games.advice import UNIFORM

MAX_KEPT = 2048

MemoKey = tuple[str, int, str, str]
"""(match id, the seq of the move being decided, the seat deciding it, model)."""


def advice_seed(match_id: str, seq: int, model: str = UNIFORM) -> int:
    """The sampler's seed for advice on move `seq` of a match: the same live and in a replay."""
    text = f"{match_id}:{seq}" if model == UNIFORM else f"{match_id}:{seq}:{model}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class AdviceMemo:
    def __init__(self, max_kept: int = MAX_KEPT) -> None:
        self.max_kept = max_kept
        self._kept: OrderedDict[MemoKey, dict[str, Any]] = OrderedDict()
        self.hits = 0

    def keep(self, key: MemoKey, payload: dict[str, Any]) -> None:
        self._kept[key] = payload
        self._kept.move_to_end(key)
        while len(self._kept) > self.max_kept:
            self._kept.popitem(last=False)

    def get(self, key: MemoKey) -> dict[str, Any] | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            self.hits += 1
        return found

    def __len__(self) -> int:
        return len(self._kept)
