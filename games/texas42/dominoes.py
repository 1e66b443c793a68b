"""The pieces of Texas 42: the double-six set, its seats and teams, and the count.

Tiles are the dominoes package's `Tile` (read-only reuse); everything 42-specific lives here.
Each tile also has an index 0..27 (its place in the canonical set) so the solver can hold a
hand as a 28-bit mask.
"""

from __future__ import annotations

from typing import Literal

from games.dominoes.tiles import Tile, TileError, full_set, parse_tile

__all__ = ["Tile", "TileError", "parse_tile"]

Seat = Literal["S", "W", "N", "E"]
Team = Literal["NS", "EW"]

SEATS: tuple[Seat, ...] = ("S", "W", "N", "E")
"""Play goes to the left: South, West, North, East, then South again."""
TEAMS: tuple[Team, ...] = ("NS", "EW")
TILES: tuple[Tile, ...] = full_set(6)
INDEX: dict[Tile, int] = {t: i for i, t in enumerate(TILES)}
HAND_SIZE = 7
TRICKS = 7
TOTAL_POINTS = 42

COUNT: dict[Tile, int] = {Tile(5, 5): 10, Tile(4, 6): 10, Tile(0, 5): 5, Tile(1, 4): 5,
                          Tile(2, 3): 5}
"""The count dominoes: 35 points; with one point per trick, 42 in a hand."""


def count_of(tile: Tile) -> int:
    return COUNT.get(tile, 0)


def team_of(seat: str) -> Team:
    return "NS" if seat in ("N", "S") else "EW"


def other_team(team: str) -> Team:
    return "EW" if team == "NS" else "NS"


def next_seat(seat: str) -> Seat:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def partner_of(seat: str) -> Seat:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def is_seat(value: object) -> bool:
    return isinstance(value, str) and value in SEATS
