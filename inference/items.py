"""Items with multiplicities: labelled copies of one kind, and exact per-kind count laws.

A Uno deck holds two red 7s. The counting works on distinct items, so the two are labelled
copies, `Copy("r7", 0)` and `Copy("r7", 1)`: a uniformly shuffled deck of labelled copies
gives every assignment of labels to holders the same probability, and a world of kinds is
the sum of the label assignments that show it, so counting labels is exact.

A player asks about kinds: "how many red 7s can West hold?". `count_law` answers exactly,
not only the mean: the copies that share an allowed mask are interchangeable in the
position, so the deals where exactly j of those n copies sit with the group are
C(n, j) times the deals where the first j are forced into the group and the other n - j
forced out of it — one solve of the same DP per (j per mask). A kind's copies usually
share one mask, so a kind of m copies costs m + 1 solves per group, most of them cache hits
(other kinds with the same masks give the same canonical key).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from inference.classes import Item, Position
from inference.counting import solve, tile_counts
from inference.errors import Infeasible

Kind = TypeVar("Kind", bound=Hashable)


@dataclass(frozen=True, order=True)
class Copy(Generic[Kind]):
    """One labelled copy of a kind: what the counting sees of a card that has twins."""

    kind: Kind
    index: int

    def __str__(self) -> str:
        return f"{self.kind}#{self.index}"


def copies(multiset: Mapping[Kind, int]) -> list[Copy[Kind]]:
    """The labelled copies of a multiset of kinds: {"r7": 2} -> [r7#0, r7#1]."""
    return [Copy(kind, i) for kind, m in multiset.items() for i in range(m)]


def _total(position: Position) -> int:
    try:
        return solve(position).total
    except Infeasible:
        return 0


def group_mask(position: Position, group: str | Iterable[str]) -> int:
    """The bitmask of a holder, or of a group of holders (a seat's draw batches)."""
    names = [group] if isinstance(group, str) else list(group)
    return sum(1 << position.holder_index(h) for h in names)


def count_law(position: Position[Item], items: Iterable[Item], group: str | Iterable[str]
              ) -> tuple[int, ...]:
    """Deals (exact ints) in which exactly k of `items` are held in `group`, k = 0..len.

    Items not in the position (seen, known elsewhere) are not counted: pass the unseen
    copies of a kind and add the known ones yourself. Σ_k law[k] = |Ω|.
    """
    inside = group_mask(position, group)
    chosen = [t for t in dict.fromkeys(items) if t in position.allowed]
    by_mask: dict[int, list[Item]] = {}
    for t in chosen:
        by_mask.setdefault(position.allowed[t], []).append(t)
    masks = list(by_mask)
    law = [0] * (len(chosen) + 1)
    for js in itertools.product(*(range(len(by_mask[m]) + 1) for m in masks)):
        allowed = dict(position.allowed)
        ways = 1
        for mask, j in zip(masks, js, strict=True):
            ways *= math.comb(len(by_mask[mask]), j)
            for i, t in enumerate(by_mask[mask]):
                allowed[t] = mask & inside if i < j else mask & ~inside
        count = _total(Position(position.holders, allowed, position.counts))
        law[sum(js)] += ways * count
    return tuple(law)


@dataclass(frozen=True)
class KindLaw(Generic[Kind]):
    """How many unseen copies of one kind each group holds, as exact counts of deals."""

    kind: Kind
    total: int
    laws: dict[str, tuple[int, ...]]
    """Group -> deals in which the group holds exactly k unseen copies, k = 0..m."""

    def probability(self, group: str, k: int) -> Fraction:
        law = self.laws[group]
        return Fraction(law[k], self.total) if 0 <= k < len(law) else Fraction(0)

    def expected(self, group: str) -> Fraction:
        return Fraction(sum(k * c for k, c in enumerate(self.laws[group])), self.total)


def kind_laws(
    position: Position[Item],
    kind_of: Callable[[Item], Kind],
    groups: Mapping[str, Iterable[str]] | None = None,
    items: Iterable[Item] | None = None,
) -> dict[Kind, KindLaw[Kind]]:
    """Every kind's count law for every group (default: each holder on its own).

    `items` limits which unseen items count (e.g. not those already played from a batch).
    """
    total = tile_counts(position)[0]
    groups = groups if groups is not None else {h: (h,) for h in position.holders}
    members = [(g, tuple(hs)) for g, hs in groups.items()]
    pool = position.allowed if items is None else [t for t in items if t in position.allowed]
    by_kind: dict[Kind, list[Item]] = {}
    for t in pool:
        by_kind.setdefault(kind_of(t), []).append(t)
    return {kind: KindLaw(kind, total, {g: count_law(position, ts, hs) for g, hs in members})
            for kind, ts in by_kind.items()}
