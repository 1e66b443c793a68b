"""The variants: `uno-2` (seed 004's 108 cards, hands of 7) and `uno-2-mini` (a 20-card deck
small enough to prove the belief against every assignment)."""

from __future__ import annotations

from dataclasses import dataclass

from games.uno.cards import DeckSpec

SEATS = ("S", "N")


@dataclass(frozen=True)
class UnoVariant:
    name: str
    title: str
    deck: DeckSpec


_NUMBERS = (("0", 1), *((str(v), 2) for v in range(1, 10)))

VARIANTS: dict[str, UnoVariant] = {
    "uno-2": UnoVariant(
        "uno-2", "Uno for two (seed 004: 108 cards, hands of 7)",
        DeckSpec(colours=("r", "y", "g", "b"),
                 copies=(*_NUMBERS, ("S", 2), ("R", 2), ("+2", 2)),
                 wilds=4, wild_fours=4, hand_size=7)),
    "uno-2-mini": UnoVariant(
        "uno-2-mini", "Uno for two, reduced deck (2 colours, 0-3, hands of 3)",
        DeckSpec(colours=("r", "g"),
                 copies=(("0", 1), ("1", 2), ("2", 2), ("3", 1), ("S", 1), ("R", 1),
                         ("+2", 1)),
                 wilds=1, wild_fours=1, hand_size=3)),
}


def other(seat: str) -> str:
    return "N" if seat == "S" else "S"
