"""What a player (or the table) asks for. The rules answer with events or a RuleViolation."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.dominoes.tiles import End, Seat, Tile
from games.dominoes.variants import DEFAULT_VARIANT, Scoring
from games.fairness.scheme import NEW, SchemeName


@dataclass(frozen=True)
class StartMatch:
    match_id: str
    players: dict[Seat, str]
    variant: str = DEFAULT_VARIANT
    target: int = 100
    scoring: Scoring = "losers"
    fairness: SchemeName | None = NEW
    """The dealing scheme the match names (None only when re-deciding an older log)."""


@dataclass(frozen=True)
class DealHand:
    """Deal the next hand from this secret seed (64 hex digits; cryptographic in production)."""

    seed: str


@dataclass(frozen=True)
class PlayTile:
    seat: Seat
    tile: Tile
    end: End | None = None
    """Which end to play on; may be omitted when the tile fits only one end (or opens the line)."""


@dataclass(frozen=True)
class PassTurn:
    seat: Seat


@dataclass(frozen=True)
class DrawTiles:
    """Draw from the boneyard (draw-2) until a tile fits or it is empty: one move, one event.

    Only when nothing in hand fits and the boneyard is not empty; the referee draws in the
    order the hand's seed fixed, so the move needs no choice from the player."""

    seat: Seat


Command = StartMatch | DealHand | PlayTile | PassTurn | DrawTiles


@dataclass(frozen=True)
class Move:
    """A legal play as offered to a player: the tile and the end (None when opening)."""

    tile: Tile
    end: End | None = field(default=None)
