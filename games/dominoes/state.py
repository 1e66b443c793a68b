"""The table state as folded from events: the same shape for the referee and for any audience.

An audience that cannot see a hand still knows its size, so `hands[seat]` may be None while
`counts[seat]` is always right.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from games.dominoes.tiles import Seat, Side, Tile
from games.dominoes.variants import Scoring, Variant

Phase = Literal["dealing", "playing", "between_hands", "finished"]


@dataclass(frozen=True)
class PassRecord:
    seat: Seat
    left: int
    right: int


@dataclass(frozen=True)
class DrawRecord:
    """`seat` had nothing for ends (left, right) and drew `count` tiles (draw-2)."""

    seat: Seat
    left: int
    right: int
    count: int


@dataclass(frozen=True)
class HandState:
    number: int
    leader: Seat
    seed_sha256: str
    seed: str | None
    hands: dict[Seat, frozenset[Tile] | None]
    counts: dict[Seat, int]
    turn: Seat
    line: tuple[tuple[int, int], ...] = ()
    """Tiles as laid, left to right, each oriented (left value, right value)."""
    passes: tuple[PassRecord, ...] = ()
    dealt: int = 0
    boneyard: int = 0
    """Tiles left to draw (public); always 0 where the undealt tiles sleep."""
    draws: tuple[DrawRecord, ...] = ()

    @property
    def left(self) -> int | None:
        return self.line[0][0] if self.line else None

    @property
    def right(self) -> int | None:
        return self.line[-1][1] if self.line else None

    @property
    def played(self) -> frozenset[Tile]:
        return frozenset(Tile(min(a, b), max(a, b)) for a, b in self.line)


@dataclass(frozen=True)
class MatchState:
    match_id: str
    variant: Variant
    target: int
    players: dict[Seat, str]
    scoring: Scoring
    scores: dict[Side, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    """Per side (variant.sides): teams NS and EW, or the two seats S and N."""
    hand: HandState | None = None
    phase: Phase = "between_hands"
    hands_played: int = 0
    last_seq: int = 0
    winner: Side | None = None

    @property
    def to_move(self) -> Seat | None:
        """The seat whose turn it is while a hand is in play; None between hands and after."""
        if self.phase != "playing" or self.hand is None:
            return None
        return self.hand.turn
