"""What players and the referee ask for; the rules turn each into events."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StartMatch:
    match_id: str
    variant: str
    players: dict[str, str]


@dataclass(frozen=True)
class Deal:
    """The referee shuffles with `secret` and deals both hands and the starter."""

    secret: str


@dataclass(frozen=True)
class Reshuffle:
    """The referee turns the pile under its top card into a new deck."""

    secret: str


@dataclass(frozen=True)
class PlayCard:
    seat: str
    card: str
    colour: str | None = None


@dataclass(frozen=True)
class Draw:
    """Draw what the rules demand: the penalty owed, else one card (nothing to play)."""

    seat: str


Command = StartMatch | Deal | Reshuffle | PlayCard | Draw
