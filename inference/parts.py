"""Knowledge that allowed sets cannot hold: disjunctions, counted exactly.

The counting here knows no game. Two things an observer of a partnership-9 hand learns are
disjunctions, not per-tile exclusions (their words are games/dominoes/conditions.py):

* **someone can follow** — after a play the rules end the hand as blocked when no seat can
  play. So when the hand goes on (a pass follows the play), not every unseen tile showing an
  open end sleeps in the pool: some seat holds one of them.
* **the leader holds the highest double dealt** — in a match's first hand, before its first
  tile, the leader (public from hand_started) holds some double d and every double above d
  sleeps in the pool.

Both read "of the tiles t1, t2, ... (in a fixed order), the first one not in the pool is held
by one of `at`". Split on which tile that is: part i puts t1..t(i-1) in the pool and t(i)
with `at`. The parts are disjoint, each an ordinary Position, and their union is exactly the
knowledge; so counts, marginals and samples stay exact as sums over parts. "Someone can
follow" is also the complement of one position (every such tile in the pool), so it is
counted with two solves instead of one per tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, Protocol

from inference.classes import POOL, Item, Orderable, Position
from inference.counting import tile_counts
from inference.errors import Infeasible
from inference.propagation import propagate


@dataclass(frozen=True)
class Count:
    """Exact counts of the deals satisfying a condition."""

    total: int
    counts: dict[Orderable, list[int]]
    """Per unseen tile, per holder index: the deals giving it that tile."""
    whole: bool = False
    """Every deal of the position satisfies the condition (it says nothing more)."""

    def support(self, position: Position) -> dict[Orderable, int]:
        """Allowed masks keeping exactly the (holder, tile) pairs that some deal has."""
        return {t: sum(1 << h for h, c in enumerate(self.counts[t]) if c)
                for t in position.allowed}


def _count_or_none(position: Position) -> tuple[int, dict[Orderable, list[int]]] | None:
    try:
        return tile_counts(position)
    except Infeasible:
        return None


PARTS_CACHE = 1024
"""Conditions counted on positions kept (each a few KB): their counts are reused as is."""


@lru_cache(maxsize=PARTS_CACHE)
def _parts_count(condition: Condition, holders: tuple[str, ...], counts: tuple[int, ...],
                 allowed: tuple[tuple[Orderable, int], ...]) -> Count:
    """`condition._count` of the position with these contents (hashable, so cached)."""
    return condition._count(Position(holders, dict(allowed), counts))


class Disjunction(Protocol):
    """What a sampler needs of a pending condition: the disjoint parts of a position."""

    def parts(self, position: Position) -> list[Position]: ...


@dataclass(frozen=True)
class Condition(Generic[Item]):
    """The first of `tiles` (in order) that is not in the pool is held by one of `at`."""

    tiles: tuple[Item, ...]
    at: tuple[str, ...]

    kind = "condition"

    def parts(self, position: Position) -> list[Position]:
        """The disjoint positions whose union is `position` restricted by this condition.

        Items no longer unseen are skipped; a part where an item would have no holder left,
        or the pool more tiles than it holds, is not built (it has no deal). An empty list
        means no deal satisfies the condition.
        """
        holders = position.holders
        pool = holders.index(POOL)
        pool_bit = 1 << pool
        at_mask = sum(1 << holders.index(h) for h in self.at if h in holders)
        allowed = dict(position.allowed)
        room = position.counts[pool] - sum(1 for m in allowed.values() if m == pool_bit)
        out: list[Position] = []
        for t in self.tiles:
            mask = allowed.get(t)
            if mask is None:
                continue
            if mask & at_mask:
                out.append(Position(holders, {**allowed, t: mask & at_mask}, position.counts))
            if not mask & pool_bit:
                break  # t cannot sleep: no later part
            if mask != pool_bit:
                room -= 1
                if room < 0:
                    break  # the pool is full: no later part
            allowed[t] = pool_bit
        return out

    def count(self, position: Position) -> Count:
        """Deals of `position` satisfying the condition: the parts' counts added up (one
        solve per part; the same condition on the same position, e.g. every match's first
        hand seen by a spectator, is counted once: `_parts_count` keeps the last ones)."""
        return _parts_count(self, position.holders, position.counts,
                            tuple(sorted(position.allowed.items())))

    def _count(self, position: Position) -> Count:
        total = 0
        counts: dict[Orderable, list[int]] = {t: [0] * len(position.holders)
                                         for t in position.allowed}
        for part in self.parts(position):
            counted = _count_or_none(part)
            if counted is None:
                continue
            total += counted[0]
            for t, row in counted[1].items():
                acc = counts[t]
                for h, c in enumerate(row):
                    acc[h] += c
        return Count(total, counts, whole=total == tile_counts(position)[0])

    def holds_everywhere(self, position: Position) -> bool:
        """Whether every deal of `position` satisfies the condition."""
        return self.count(position).whole

    def listed(self, position: Position) -> tuple[list[Item], list[str]]:
        """The condition's items still unseen, and the holders of `at` that may take one (what a
        game's words for the condition name)."""
        holders = position.holders
        tiles = [t for t in self.tiles if t in position.allowed]
        union = 0
        for t in tiles:
            union |= position.allowed[t]
        return tiles, [h for h in self.at if h in holders and union >> holders.index(h) & 1]


class NotAllInPool(Condition[Item]):
    """Not every one of the unseen `tiles` is in the pool: one of `at` holds one (counted as
    everything minus the deals with all of them in the pool)."""

    kind = "not_all_in_pool"

    def count(self, position: Position) -> Count:
        """All deals minus those with every such tile in the pool (two solves)."""
        total, rows = tile_counts(position)
        pool_bit = 1 << position.holders.index(POOL)
        tiles = [t for t in self.tiles if t in position.allowed]
        if any(not position.allowed[t] & pool_bit for t in tiles):
            return Count(total, rows, whole=True)  # one cannot be in the pool: every deal fits
        blocked = _count_or_none(self._asleep(position))
        if blocked is None:
            return Count(total, rows, whole=True)
        return Count(total - blocked[0], {t: [a - b for a, b in zip(row, blocked[1][t],
                                                                       strict=True)]
                                          for t, row in rows.items()})

    def _asleep(self, position: Position) -> Position:
        """`position` with every one of the tiles in the pool: the deals the condition rules out."""
        pool_bit = 1 << position.holders.index(POOL)
        asleep = dict(position.allowed)
        for t in self.tiles:
            if t in asleep:
                asleep[t] = pool_bit
        return Position(position.holders, asleep, position.counts)

    def holds_everywhere(self, position: Position) -> bool:
        """Without counting: an item that cannot be in the pool, or no deal with all of them there
        (Hall's test)."""
        pool_bit = 1 << position.holders.index(POOL)
        if any(not mask & pool_bit for t, mask in position.allowed.items() if t in self.tiles):
            return True
        try:
            propagate(self._asleep(position))
        except Infeasible:
            return True
        return False
