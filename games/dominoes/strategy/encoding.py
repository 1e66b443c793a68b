"""Tiles as bit indices: hands become ints so the solver's inner loop is a few bit operations.

A tile's index is its position in the variant's canonical set (0-0, 0-1, ..., max-max). Seats
are indexed in the variant's turn order: S, W, N, E (0..3; seats 0 and 2 are NS) or S, N
(0, 1; each seat its own side). Either way the side to move alternates at every turn — which
is what lets the solver be a negamax.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from games.dominoes.tiles import Tile, full_set


@dataclass(frozen=True)
class Codec:
    """Lookup tables of one double-`max_pip` set."""

    max_pip: int
    tiles: tuple[Tile, ...]
    index: dict[Tile, int]
    suit: tuple[int, ...]
    """suit[v]: mask of the tiles showing value v."""
    pips: tuple[int, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]

    def mask(self, tiles: Iterable[Tile]) -> int:
        m = 0
        for t in tiles:
            m |= 1 << self.index[t]
        return m



def bits(mask: int) -> list[int]:
    """The indices of the set bits of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@cache
def codec(max_pip: int) -> Codec:
    tiles = full_set(max_pip)
    suit = tuple(sum(1 << i for i, t in enumerate(tiles) if t.has(v)) for v in range(max_pip + 1))
    return Codec(
        max_pip=max_pip,
        tiles=tiles,
        index={t: i for i, t in enumerate(tiles)},
        suit=suit,
        pips=tuple(t.pips for t in tiles),
        low=tuple(t.low for t in tiles),
        high=tuple(t.high for t in tiles),
    )
