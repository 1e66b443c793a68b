"""The game variants we host. A variant fixes the set, the hand size and what stays undealt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.dominoes.tiles import Tile, full_set

Scoring = Literal["losers", "all"]
"""'losers': the winners score the pips left in the losing team's hands; 'all': in all four."""


class UnknownVariantError(ValueError):
    """A variant name we do not host."""


@dataclass(frozen=True)
class Variant:
    name: str
    max_pip: int
    hand_size: int

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return full_set(self.max_pip)

    @property
    def pool_size(self) -> int:
        """Tiles left face down all hand (never drawn): 0 in double-six, 15 in double-nine."""
        return len(self.tiles) - 4 * self.hand_size

    @property
    def has_pool(self) -> bool:
        return self.pool_size > 0


VARIANTS: dict[str, Variant] = {
    "partnership-6": Variant("partnership-6", max_pip=6, hand_size=7),
    "partnership-9": Variant("partnership-9", max_pip=9, hand_size=10),
}
DEFAULT_VARIANT = "partnership-6"


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})") from None
