"""The variants: `clue` (the 21-card game for 3-6 players, 4 by default), `clue-3` ... `clue-6`
(the same game at a fixed table size, for tools that take seats from the variant), and
`clue-mini` (3 players, 3 + 3 + 4 cards: small enough to prove the belief by brute force)."""

from __future__ import annotations

from dataclasses import dataclass

from games.clue.cards import MINI, STANDARD, Deck

MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 3, 6, 4


def seats_for(players: int) -> tuple[str, ...]:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Clue takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return tuple(f"P{i}" for i in range(1, players + 1))


@dataclass(frozen=True)
class ClueVariant:
    name: str
    title: str
    deck: Deck
    players: int

    @property
    def seats(self) -> tuple[str, ...]:
        return seats_for(self.players)


VARIANTS: dict[str, ClueVariant] = {
    "clue": ClueVariant("clue", "Clue (6 suspects, 6 weapons, 9 rooms; 4 players)", STANDARD,
                        DEFAULT_PLAYERS),
    **{f"clue-{n}": ClueVariant(f"clue-{n}", f"Clue for {n}", STANDARD, n)
       for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
    "clue-mini": ClueVariant("clue-mini", "Clue, small deck (3 suspects, 3 weapons, 4 rooms)",
                             MINI, 3),
}


def variant_for(name: str, players: int | None = None) -> ClueVariant:
    """The variant `name`, at `players` seats when a table option asks for another size."""
    base = VARIANTS[name]
    if players is None or players == base.players:
        return base
    if name != "clue":
        raise ValueError(f"{name} is played by {base.players}; only `clue` takes a size")
    return VARIANTS[f"clue-{players}"]
