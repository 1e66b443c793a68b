"""What a player or the referee asks for: the inputs of `rules.decide`."""

from __future__ import annotations

from dataclasses import dataclass

from games.fairness.scheme import NEW, SchemeName
from games.texas42.dominoes import Tile


@dataclass(frozen=True)
class StartMatch:
    match_id: str
    variant: str
    players: dict[str, str]
    target_marks: int = 7
    target_points: int = 0
    dealer_must_bid: bool = False
    first_dealer: str = "E"
    nello: bool = False
    """The table option: a mark bidder may name nello instead of a trump."""
    fairness: SchemeName | None = NEW
    """The dealing scheme the match names (None only when re-deciding an older log)."""


@dataclass(frozen=True)
class DealHand:
    """The referee's step: shuffle with this 64-hex-digit seed and deal seven each."""

    seed: str


@dataclass(frozen=True)
class Bid:
    seat: str
    bid: int
    """0 passes."""


@dataclass(frozen=True)
class NameTrump:
    seat: str
    trump: int
    """0..6, suits.DOUBLES, suits.FOLLOW_ME or suits.NELLO (when the table offers it)."""


@dataclass(frozen=True)
class PlayTile:
    seat: str
    tile: Tile


Move = Bid | NameTrump | PlayTile
"""A player's command (the referee's are StartMatch and DealHand)."""
Command = StartMatch | DealHand | Move
