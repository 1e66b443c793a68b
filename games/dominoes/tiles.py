"""Tiles, seats, teams and sides: the vocabulary every other module speaks."""

from __future__ import annotations

import re
from collections.abc import Iterable
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


TILE_SYNTAX = r"(0|[1-9][0-9]?)-(0|[1-9][0-9]?)"
"""A tile as written anywhere (wire, log, advice): ASCII digits, no leading zero, no space.
Not `str.isdigit`, which took '06-06', Arabic-Indic and fullwidth digits as the double six."""
_TILE = re.compile(TILE_SYNTAX)


@cache
def parse_tile(text: str) -> Tile:
    """Parse 'a-b' (either order accepted on input, canonical form returned)."""
    match = _TILE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise TileError(f"not a tile: {text!r} (expected 'a-b' in ASCII digits, e.g. '3-5')")
    return tile(int(match[1]), int(match[2]))


@cache
def full_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of a double-`max_pip` set, in canonical order (0-0, 0-1, ..., max-max)."""
    return tuple(Tile(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1))


def pips(tiles: Iterable[Tile]) -> int:
    """Total pips on an iterable of tiles."""
    return sum(t.pips for t in tiles)


def as_seat(name: str) -> Seat:
    """`name` as a seat (ValueError if it names none): where a name from outside, or a view
    that may be a spectator's, reaches code that needs a seat."""
    if name not in SEATS:
        raise ValueError(f"no seat {name!r} (seats: {', '.join(SEATS)})")
    return name


def team_of(seat: Seat) -> Team:
    return "NS" if seat in ("N", "S") else "EW"


def partner_of(seat: Seat) -> Seat:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def next_seat(seat: Seat) -> Seat:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def other_team(team: Team) -> Team:
    return "EW" if team == "NS" else "NS"
