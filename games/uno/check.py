"""`check_log`: re-decide a whole referee log; the first event the rules would not have
written is a LogProblem at its seq."""

from __future__ import annotations

from collections.abc import Sequence

from games.redecide import redecide
from games.uno.commands import Command, Deal, Draw, PlayCard, Reshuffle, StartMatch
from games.uno.events import (
    CardPlayed,
    CardsDrawn,
    DeckReshuffled,
    HandDealt,
    MatchStarted,
    TurnPassed,
    UnoEvent,
)
from games.uno.rules import decide
from games.uno.state import UnoState, evolve


def command_for(event: UnoEvent) -> Command | None:
    """The command that writes `event` first (None: it only follows another's)."""
    if isinstance(event, MatchStarted):
        return StartMatch(event.match_id, event.variant,
                          {seat: name for seat, name in event.players.items()},
                          event.fairness)
    if isinstance(event, HandDealt) and event.secret is not None:
        return Deal(event.secret)
    if isinstance(event, DeckReshuffled):
        return Reshuffle(event.secret)
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card, event.colour)
    if isinstance(event, CardsDrawn | TurnPassed):
        return Draw(event.seat)
    return None


def check_log(events: Sequence[UnoEvent]) -> UnoState | None:
    """The final state; LogProblem at the first event the rules would not have produced."""
    return redecide(events, command_for, decide, evolve)
