"""The deck: suspects, weapons and rooms, and the deal a seed shuffles to.

A deck is data (three tuples of card names), so the full game (6 + 6 + 9) and the small deck
the brute-force proofs run on (3 + 3 + 4) share every rule. Card names are unique across the
three types, so a card alone says its type.

The deal (sha256-fisher-yates, every match since the scheme was named): the deck in canonical
order (suspects, weapons, rooms, each as listed) shuffled by games.fairness.shuffle; the first
suspect, the first weapon and the first room of that order go in the envelope; the other cards,
in that order, are dealt round the table from the first seat. Older logs name no scheme: their
deal came from CPython's `random` (`LEGACY`), kept only so their referee logs re-decide.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Literal

from games.fairness.scheme import Scheme
from games.fairness.shuffle import shuffled

CardType = Literal["suspect", "weapon", "room"]
TYPES: tuple[CardType, ...] = ("suspect", "weapon", "room")


@dataclass(frozen=True)
class Deck:
    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]

    def __post_init__(self) -> None:
        names = self.cards
        if len(set(names)) != len(names):
            raise ValueError("card names must be unique across suspects, weapons and rooms")

    @property
    def cards(self) -> tuple[str, ...]:
        return (*self.suspects, *self.weapons, *self.rooms)

    def of_type(self, kind: CardType) -> tuple[str, ...]:
        return {"suspect": self.suspects, "weapon": self.weapons, "room": self.rooms}[kind]

    def type_of(self, card: str) -> CardType:
        for kind in TYPES:
            if card in self.of_type(kind):
                return kind
        raise KeyError(card)

    def hand_sizes(self, seats: tuple[str, ...]) -> dict[str, int]:
        """The cards outside the envelope dealt round from the first seat: as even as can be."""
        dealt = len(self.cards) - 3
        base, extra = divmod(dealt, len(seats))
        return {s: base + (1 if i < extra else 0) for i, s in enumerate(seats)}


STANDARD = Deck(
    suspects=("Scarlet", "Mustard", "White", "Green", "Peacock", "Plum"),
    weapons=("Candlestick", "Dagger", "Lead Pipe", "Revolver", "Rope", "Wrench"),
    rooms=("Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library",
           "Lounge", "Hall", "Study"),
)
"""The published game's 21 cards (Hasbro's Clue, 1949 onwards)."""

MINI = Deck(
    suspects=("Scarlet", "Mustard", "White"),
    weapons=("Candlestick", "Dagger", "Rope"),
    rooms=("Kitchen", "Ballroom", "Hall", "Study"),
)
"""3 + 3 + 4 cards: small enough to enumerate every deal (36 envelopes x 210 hands at 3)."""


@dataclass(frozen=True)
class Deal:
    envelope: tuple[str, str, str]
    hands: dict[str, tuple[str, ...]]


LEGACY = Scheme("cpython-random-sha256", commits=False)
"""The deal of logs that name no scheme: CPython's `random`, seeded by sha256 of the secret's
text; never committed, and not promised to stay the same across Python versions."""


def deal(scheme: Scheme, secret: str, deck: Deck, seats: tuple[str, ...]) -> Deal:
    """The deal `secret` shuffles to: one card of each type into the envelope, the rest dealt
    round the table from the first seat. Pure: the same secret always deals the same."""
    if scheme.commits:
        order = shuffled(secret, deck.cards)
        suspect, weapon, room = (next(c for c in order if c in deck.of_type(kind))
                                 for kind in TYPES)
        envelope = (suspect, weapon, room)
        rest = [c for c in order if c not in envelope]
    else:
        rng = random.Random(hashlib.sha256(secret.encode()).digest())
        envelope = (rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms))
        rest = [c for c in deck.cards if c not in envelope]
        rng.shuffle(rest)
    hands: dict[str, list[str]] = {s: [] for s in seats}
    for i, card in enumerate(rest):
        hands[seats[i % len(seats)]].append(card)
    position = {c: i for i, c in enumerate(deck.cards)}
    return Deal(envelope, {s: tuple(sorted(h, key=position.__getitem__))
                           for s, h in hands.items()})
