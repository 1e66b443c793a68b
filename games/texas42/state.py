"""The state of a Texas 42 match: a pure fold of its events (any audience's view of them).

A seat's own view folds to the same state with the other hands unknown (None); everything
public (bids, trump, plays, tricks, points, marks) is the same for every audience.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from games.texas42.dominoes import Tile, partner_of

Phase = Literal["between_hands", "dealing", "bidding", "trump", "playing", "over"]


@dataclass(frozen=True)
class Options:
    target_marks: int = 7
    target_points: int = 0
    dealer_must_bid: bool = False
    first_dealer: str = "E"
    nello: bool = False

    @property
    def in_points(self) -> bool:
        return self.target_points > 0


@dataclass(frozen=True)
class State:
    match_id: str
    variant: str
    players: dict[str, str]
    options: Options
    phase: Phase = "between_hands"
    totals: dict[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    hand: int = 0
    dealer: str = ""
    commitment: str = ""
    seed: str | None = None
    hands: dict[str, frozenset[Tile] | None] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    bids: tuple[tuple[str, int], ...] = ()
    trump: int | None = None
    """The trump in force (suits.FOLLOW_ME in a nello hand)."""
    nello: bool = False
    """This hand is a nello contract: the bidder's partner sits out, tricks have three plays."""
    trick: tuple[tuple[str, Tile], ...] = ()
    leader: str = ""
    tricks: tuple[tuple[tuple[str, Tile], ...], ...] = ()
    """The finished tricks of this hand, in order."""
    points: dict[str, int] = field(default_factory=lambda: {"NS": 0, "EW": 0})
    trick_winners: tuple[str, ...] = ()
    """Who took each finished trick of this hand, in order."""
    winner: str | None = None

    @property
    def high_bid(self) -> int:
        return max((b for _, b in self.bids), default=0)

    @property
    def bidder(self) -> str | None:
        best = self.high_bid
        if best == 0:
            return None
        return next(s for s, b in self.bids if b == best)

    @property
    def sitting_out(self) -> str | None:
        """The bidder's partner in a nello hand (it plays no domino), else None."""
        bidder = self.bidder
        return partner_of(bidder) if self.nello and bidder is not None else None

    @property
    def trick_size(self) -> int:
        return 3 if self.nello else 4

    @property
    def played(self) -> tuple[Tile, ...]:
        """Every tile played this hand, finished tricks first."""
        return tuple(t for trick in (*self.tricks, self.trick) for _, t in trick)
