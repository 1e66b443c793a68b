"""The counting problem as plain data: unseen items, who may hold each, how many each holds.

A `Position` knows nothing about events or games; `Belief` builds one for dominoes tiles,
`inference.batches` for any game, and every algorithm reads one. Items are any hashable,
orderable values (a dominoes `Tile`, a labelled card copy). Holders are indexed, and an
allowed set is a bitmask over those indices, so items with the same allowed set fall into
one class of interchangeable items.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar


class Orderable(Hashable, Protocol):
    """What the counting needs of an item: hashable, and sortable for a stable class order."""

    def __lt__(self, other: Any, /) -> bool: ...


Item = TypeVar("Item", bound=Orderable)

POOL = "pool"
"""The holder name of the tiles left face down all hand (partnership-9)."""

ClassKey = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]
"""(sorted (mask, size) of the non-forced classes, residual counts) — the cache key."""


def holders_in(mask: int, holders: tuple[str, ...]) -> list[str]:
    return [h for i, h in enumerate(holders) if mask >> i & 1]


@dataclass(frozen=True)
class Position(Generic[Item]):
    """Unseen items with their allowed-holder masks and each holder's item count r(h)."""

    holders: tuple[str, ...]
    allowed: Mapping[Item, int]
    counts: tuple[int, ...]
    _classes: dict[int, list[Item]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def tiles(self) -> list[Item]:
        return sorted(self.allowed)

    def classes(self) -> dict[int, list[Item]]:
        """Unseen items grouped by allowed mask (items sorted inside each class)."""
        if not self._classes and self.allowed:
            groups: dict[int, list[Item]] = {}
            for t in sorted(self.allowed):
                groups.setdefault(self.allowed[t], []).append(t)
            self._classes.update(groups)
        return self._classes

    def key(self) -> ClassKey | None:
        """Canonical cache key: forced (single-holder) classes folded into the counts.

        None when the forced tiles alone already overflow a holder (no deal fits).
        """
        residual = list(self.counts)
        free: list[tuple[int, int]] = []
        for mask, tiles in self.classes().items():
            if mask and mask & (mask - 1) == 0:
                residual[mask.bit_length() - 1] -= len(tiles)
            else:
                free.append((mask, len(tiles)))
        if min(residual, default=0) < 0:
            return None
        return tuple(sorted(free)), tuple(residual)

    def holder_index(self, holder: str) -> int:
        return self.holders.index(holder)
