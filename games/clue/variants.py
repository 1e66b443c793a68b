"""The variants: `clue` (the 21-card game for 3-6 players: the table option `players`, 4 by
default), `clue-mini` (3 players, 3 + 3 + 4 cards: small enough to prove the belief by brute
force), and `clue-3` ... `clue-6`, the names the player count had before it was an option:
aliases of `clue` at a fixed size, kept so old logs and stored tables read, verify and replay
(and an old client's create_table still plays); tools and the lobby offer `clue` instead."""

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
    alias_of: str | None = None

    @property
    def seats(self) -> tuple[str, ...]:
        return seats_for(self.players)


VARIANTS: dict[str, ClueVariant] = {
    "clue": ClueVariant("clue", "Clue (6 suspects, 6 weapons, 9 rooms; 4 players)", STANDARD,
                        DEFAULT_PLAYERS),
    **{f"clue-{n}": ClueVariant(f"clue-{n}", f"Clue for {n}", STANDARD, n, alias_of="clue")
       for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
    "clue-mini": ClueVariant("clue-mini", "Clue, small deck (3 suspects, 3 weapons, 4 rooms)",
                             MINI, 3),
}

