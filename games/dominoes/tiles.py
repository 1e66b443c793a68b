"""Tiles, seats, teams and sides: the vocabulary every other module speaks."""

from __future__ import annotations

from functools import cache
from typing import Literal, NamedTuple

Seat = Literal["S", "W", "N", "E"]
Team = Literal["NS", "EW"]
Side = Literal["NS", "EW", "S", "W", "N", "E"]
"""Who scores: a team in the partnership game, the seat itself when everyone plays alone."""
End = Literal["left", "right"]

SEATS: tuple[Seat, ...] = ("S", "W", "N", "E")
"""Turn order of the partnership game: South, West, North, East, then South again.

A variant may seat fewer (two players sit S and N); code that knows its variant should ask
`variant.seats`. The helpers below (next_seat, team_of, ...) are the partnership game's."""
TEAMS: tuple[Team, ...] = ("NS", "EW")


class TileError(ValueError):
    """A tile name that is not of the form 'a-b' with 0 <= a <= b."""


class Tile(NamedTuple):
    """A domino in canonical form: low <= high. Written 'low-high' in logs and protocol."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        return self.low + self.high

    def has(self, value: int) -> bool:
        return value == self.low or value == self.high

    def other(self, value: int) -> int:
        """The value at the far side when this tile is matched on `value`."""
        if value == self.low:
            return self.high
        if value == self.high:
            return self.low
        raise TileError(f"tile {self} does not show {value}")


def tile(a: int, b: int) -> Tile:
    """The canonical tile with values a and b, in either order."""
    return Tile(a, b) if a <= b else Tile(b, a)


@cache
def parse_tile(text: str) -> Tile:
    """Parse 'a-b' (either order accepted on input, canonical form returned)."""
    parts = text.split("-") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 2 for p in parts):
        raise TileError(f"not a tile: {text!r} (expected 'a-b', e.g. '3-5')")
    return tile(int(parts[0]), int(parts[1]))


@cache
def full_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of a double-`max_pip` set, in canonical order (0-0, 0-1, ..., max-max)."""
    return tuple(Tile(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1))


def pips(tiles: object) -> int:
    """Total pips on an iterable of tiles."""
    return sum(t.pips for t in tiles)  # type: ignore[attr-defined]


def team_of(seat: Seat) -> Team:
    return "NS" if seat in ("N", "S") else "EW"


def partner_of(seat: Seat) -> Seat:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def next_seat(seat: Seat) -> Seat:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def other_team(team: Team) -> Team:
    return "EW" if team == "NS" else "NS"
