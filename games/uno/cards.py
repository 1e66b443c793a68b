"""Card kinds, decks and the matching rule.

A card is named by its kind: a colour letter and a value ("r7", "gS" skip, "bR" reverse,
"y+2"), or a black card ("W" wild, "W+4"). Copies of one kind are interchangeable, so every
hand, pile and deck is a multiset of kinds; beliefs count kinds with multiplicities.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

WILD = "W"
WILD_FOUR = "W+4"
BLACK = (WILD, WILD_FOUR)
SKIP, REVERSE, DRAW_TWO = "S", "R", "+2"
COLOUR_NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}


class CardError(ValueError):
    """A name that is not a card of the variant."""


@dataclass(frozen=True)
class DeckSpec:
    """What one variant's deck holds: copies of each value per colour, and black cards."""

    colours: tuple[str, ...]
    copies: tuple[tuple[str, int], ...]
    """(value, copies per colour), e.g. ("0", 1), ("7", 2), ("+2", 2)."""
    wilds: int
    wild_fours: int
    hand_size: int

    def counts(self) -> Counter[str]:
        deck: Counter[str] = Counter()
        for colour in self.colours:
            for value, n in self.copies:
                deck[colour + value] = n
        deck[WILD] = self.wilds
        deck[WILD_FOUR] = self.wild_fours
        return deck

    def kinds(self) -> tuple[str, ...]:
        """Every kind, in a fixed display order (colour by colour, then black)."""
        return tuple(k for k, n in self.counts().items() if n > 0)

    def cards(self) -> list[str]:
        """The whole deck as a sorted list (the order a shuffle starts from)."""
        return sorted(self.counts().elements())

    def size(self) -> int:
        return sum(self.counts().values())


def is_black(kind: str) -> bool:
    return kind in BLACK


def colour_of(kind: str) -> str | None:
    return None if is_black(kind) else kind[0]


def value_of(kind: str) -> str:
    return kind if is_black(kind) else kind[1:]


def matches(kind: str, top: str, colour: str | None) -> bool:
    """Seed 004's LEGAL(P_t): same colour, same value (numbers and action symbols alike), or
    black. `colour` is the colour in force (a wild's chosen one); None (a black starter)
    means any card may be played."""
    if is_black(kind) or colour is None:
        return True
    if colour_of(kind) == colour:
        return True
    return not is_black(top) and value_of(kind) == value_of(top)


def legal_kinds(kinds: Iterable[str], top: str, colour: str | None) -> frozenset[str]:
    return frozenset(k for k in kinds if matches(k, top, colour))


def penalty_of(kind: str) -> int:
    """Cards the next player must draw after `kind` is played."""
    if kind == WILD_FOUR:
        return 4
    return 2 if value_of(kind) == DRAW_TWO else 0


def skips(kind: str) -> bool:
    """After these the same player moves again (two players: the opponent loses the turn;
    seed 004 says REVERSE also forfeits the next player's turn)."""
    return value_of(kind) in (SKIP, REVERSE, DRAW_TWO) or kind == WILD_FOUR


_NAME = re.compile(r"([rygb]([0-9]|S|R|\+2)|W|W\+4)")


def parse_card(name: object) -> str:
    """A card name from outside (a wire payload), checked."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise CardError(f"not an uno card: {name!r}")
    return name
