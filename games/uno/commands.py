"""What players and the referee ask for; the rules turn each into events."""

from __future__ import annotations

from dataclasses import dataclass

from games.fairness.scheme import NEW, SchemeName


@dataclass(frozen=True)
class StartMatch:
    match_id: str
    variant: str
    players: dict[str, str]
    fairness: SchemeName | None = NEW
    """The dealing scheme the match names (None only when re-deciding an older log)."""


@dataclass(frozen=True)
class Deal:
    """The referee shuffles with `secret` and deals both hands and the starter."""

    secret: str


@dataclass(frozen=True)
class Reshuffle:
    """The referee turns the pile under its top card into a new deck, in the order the
    match's seed fixed (`secret`: only an older log's, whose reshuffles had their own)."""

    secret: str | None = None


@dataclass(frozen=True)
class PlayCard:
    seat: str
    card: str
    colour: str | None = None


@dataclass(frozen=True)
class Draw:
    """Draw what the rules demand: the penalty owed, else one card (nothing to play)."""

    seat: str


Move = PlayCard | Draw
"""A player's command (the referee's are StartMatch, Deal and Reshuffle)."""
Command = StartMatch | Deal | Reshuffle | Move
