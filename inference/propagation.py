"""Constraint propagation (seed 000 §6, rules 1-5) as one Hall-type rule to a fixed point.

For a set S of holders let inside(S) = number of unseen tiles whose allowed set lies in S.
A deal exists iff inside(S) <= r(S) for every S (Gale/Hall for a transportation problem).
When inside(S) == r(S) ("S is tight") the holders of S hold exactly those tiles, so S is
struck from every other tile's allowed set. Rules 3 (a hand equal to its candidates) and 4
(a tile with one candidate) are the tight sets of size |H|-1 and 1; rule 5 is the rest.
At the fixed point the allowed sets are exactly the supports of the marginals: h may hold t
iff some consistent deal gives t to h (so marginals are 0 or 1 exactly where facts say).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from inference.classes import Position, holders_in
from inference.errors import Infeasible


@dataclass(frozen=True)
class Propagated:
    """The tightened position and the tight holder sets found (for facts)."""

    position: Position
    tight: tuple[int, ...]


@lru_cache(maxsize=4096)
def _subset_sums(values: tuple[int, ...]) -> tuple[int, ...]:
    sums = [0] * (1 << len(values))
    for s in range(1, len(sums)):
        low = s & -s
        sums[s] = sums[s ^ low] + values[low.bit_length() - 1]
    return tuple(sums)


def _inside_counts(counts: dict[int, int], m: int) -> list[int]:
    """inside[S] = tiles whose allowed set lies within S, for every S at once (a sum over
    subsets: m passes over 2^m entries, where one sum per S over the classes cost 2^m times
    the number of classes); each pass walks only the sets that hold its bit."""
    inside = [0] * (1 << m)
    for mask, n in counts.items():
        inside[mask] += n
    size = len(inside)
    for i in range(m):
        bit = 1 << i
        for base in range(bit, size, bit << 1):
            for s in range(base, base + bit):
                inside[s] += inside[s - bit]
    return inside


def propagate(position: Position) -> Propagated:
    """Tighten allowed sets to the fixed point; raise Infeasible if no deal fits."""
    holders, r = position.holders, position.counts
    shape = tuple(sorted((mask, len(ts)) for mask, ts in position.classes().items()))
    try:
        tightened, tight = _fixed_point(shape, r, len(holders))
    except _Overfull as overfull:
        names = " and ".join(holders_in(overfull.holders, holders))
        raise Infeasible(f"{overfull.inside} tiles can only be with {names}, who hold "
                         f"{overfull.hold}") from None
    if tightened is None:
        return Propagated(position, tight)
    allowed: Mapping[Any, int] = {t: tightened[mask] for t, mask in position.allowed.items()}
    return Propagated(Position(holders, allowed, r), tight)


class _Overfull(Exception):
    """More tiles can only be with a set of holders than they hold (named by the caller:
    the cache is keyed by shape, not by names)."""

    def __init__(self, holders: int, inside: int, hold: int) -> None:
        super().__init__(holders, inside, hold)
        self.holders, self.inside, self.hold = holders, inside, hold


@lru_cache(maxsize=16384)
def _fixed_point(shape: tuple[tuple[int, int], ...], r: tuple[int, ...], m: int
                 ) -> tuple[Mapping[int, int] | None, tuple[int, ...]]:
    """The fixed point of a position's shape (its classes' masks and sizes, the counts):
    original mask -> tightened (None: nothing moved; read only, it is the cache's) and the
    tight sets. Cached (issue 31):
    the shape recurs across seats, moves and tables far more often than the tiles do, and
    every belief pushed propagated it again. Infeasible shapes raise (and are not cached)."""
    full = (1 << m) - 1
    r_of = _subset_sums(r)
    current = {mask: mask for mask, _ in shape}  # original mask -> tightened
    sizes = dict(shape)
    if sum(sizes.values()) != r_of[full]:
        raise Infeasible(f"{sum(sizes.values())} unseen tiles but hands hold {r_of[full]}")
    tight: list[int] = []
    changed = True
    while changed:
        changed = False
        counts: dict[int, int] = {}
        for orig, mask in current.items():
            counts[mask] = counts.get(mask, 0) + sizes[orig]
        if counts.get(0):
            raise Infeasible("a tile no holder can have")
        tight = []
        inside_of = _inside_counts(counts, m)
        for s in [s for s in range(1, full) if inside_of[s] >= r_of[s]]:
            inside = inside_of[s]
            if inside > r_of[s]:
                raise _Overfull(s, inside, r_of[s])
            tight.append(s)
            for orig, mask in current.items():
                if mask & s and mask & ~s:
                    current[orig] = mask & ~s
                    changed = True
            if changed:
                break
    if all(current[m_] == m_ for m_ in current):
        return None, tuple(tight)
    return current, tuple(tight)


def clear_cache() -> None:
    """Forget the fixed points (a benchmark's cold pass)."""
    _fixed_point.cache_clear()
    _subset_sums.cache_clear()
