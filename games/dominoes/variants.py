"""The game variants we host. A variant fixes the set, the seats, the hand size and what
becomes of the tiles left undealt (they sleep face down, or form a boneyard to draw from)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from games.dominoes.tiles import SEATS, TEAMS, Seat, Side, Tile, full_set, team_of

Scoring = Literal["losers", "all"]
"""'losers': the winning side scores the pips left in the losing sides' hands; 'all': in every
hand (the partnership game's four, both in a two-player game)."""


class UnknownVariantError(ValueError):
    """A variant name we do not host."""


@dataclass(frozen=True)
class Variant:
    name: str
    max_pip: int
    hand_size: int
    seats: tuple[Seat, ...] = SEATS
    """Who plays, in turn order: the partnership game's four, or S and N for two players."""
    draws: bool = False
    """True: the undealt tiles are a boneyard that a player who cannot play draws from.
    False: they sleep face down all hand, never drawn, revealed when the hand ends."""

    def __post_init__(self) -> None:
        in_turn_order = tuple(s for s in SEATS if s in self.seats) == self.seats
        if len(self.seats) not in (2, 4) or not in_turn_order:
            raise ValueError(f"{self.name}: seats are all four or two, in turn order S, W, N, E")
        if len(self.seats) * self.hand_size > len(self.tiles):
            raise ValueError(f"{self.name}: not enough tiles to deal {self.hand_size} each")

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        return full_set(self.max_pip)

    @property
    def partnership(self) -> bool:
        """Four seats play as two teams (S+N against W+E); fewer play each for itself."""
        return len(self.seats) == 4

    @property
    def sides(self) -> tuple[Side, ...]:
        """The scoring units: teams NS and EW in partnership, else the seats themselves."""
        return TEAMS if self.partnership else self.seats

    def side_of(self, seat: Seat) -> Side:
        return team_of(seat) if self.partnership else seat

    def next_seat(self, seat: Seat) -> Seat:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    @cached_property
    def pool_size(self) -> int:
        """Tiles not dealt: 0 in partnership-6, 15 in partnership-9, 14 in block-2 and draw-2.

        They stay face down all hand unless `draws` (then they are the boneyard, drawn from)."""
        return len(self.tiles) - len(self.seats) * self.hand_size

    @cached_property
    def has_pool(self) -> bool:
        """Some tiles are not dealt (sleeping, or a boneyard when `draws`)."""
        return self.pool_size > 0

    @property
    def sleeping(self) -> int:
        """Tiles that stay face down all hand and are never drawn."""
        return 0 if self.draws else self.pool_size


VARIANTS: dict[str, Variant] = {
    "partnership-6": Variant("partnership-6", max_pip=6, hand_size=7),
    "partnership-9": Variant("partnership-9", max_pip=9, hand_size=10),
    "block-2": Variant("block-2", max_pip=6, hand_size=7, seats=("S", "N")),
    "draw-2": Variant("draw-2", max_pip=6, hand_size=7, seats=("S", "N"), draws=True),
}
DEFAULT_VARIANT = "partnership-6"


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})") from None
