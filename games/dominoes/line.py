"""The line of play: which tiles fit which end, and what the ends show afterwards."""

from __future__ import annotations

from collections.abc import Iterable

from games.dominoes.tiles import End, Tile


def fits(tile: Tile, left: int | None, right: int | None) -> list[End | None]:
    """The ends `tile` may be played on ([None] when it opens the line)."""
    if left is None or right is None:
        return [None]
    ends: list[End | None] = []
    if tile.has(left):
        ends.append("left")
    if tile.has(right):
        ends.append("right")
    return ends


def can_play(tiles: Iterable[Tile], left: int | None, right: int | None) -> bool:
    if left is None or right is None:
        return any(True for _ in tiles)
    return any(t.has(left) or t.has(right) for t in tiles)


def place(
    line: tuple[tuple[int, int], ...], tile: Tile, end: End | None
) -> tuple[tuple[int, int], ...]:
    """The line after laying `tile` on `end` (which must fit; opening puts low on the left)."""
    if not line:
        return ((tile.low, tile.high),)
    if end == "left":
        outer = line[0][0]
        return ((tile.other(outer), outer), *line)
    outer = line[-1][1]
    return (*line, (outer, tile.other(outer)))
