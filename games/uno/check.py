"""`check_log`: re-decide a whole referee log; the first event the rules would not have
written is a LogProblem at its seq."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.interface import LogProblem, RuleViolation
from games.uno.commands import Deal, Draw, PlayCard, Reshuffle, StartMatch
from games.uno.events import (
    CardPlayed,
    CardsDrawn,
    DeckReshuffled,
    HandDealt,
    MatchStarted,
    TurnPassed,
)
from games.uno.rules import decide
from games.uno.state import UnoState, evolve


def command_for(event: Any) -> Any:
    """The command that writes `event` first (None: it only follows another's)."""
    if isinstance(event, MatchStarted):
        return StartMatch(event.match_id, event.variant, dict(event.players))
    if isinstance(event, HandDealt) and event.secret is not None:
        return Deal(event.secret)
    if isinstance(event, DeckReshuffled) and event.secret is not None:
        return Reshuffle(event.secret)
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card, event.colour)
    if isinstance(event, CardsDrawn | TurnPassed):
        return Draw(event.seat)
    return None


def check_log(events: Sequence[Any]) -> None:
    state: UnoState | None = None
    expected: list[dict[str, Any]] = []
    for at, event in enumerate(events, start=1):
        if event.seq != at:
            raise LogProblem(event.seq, f"expected seq {at}")
        if not expected:
            command = command_for(event)
            if command is None:
                raise LogProblem(event.seq, f"{event.type} follows from no move")
            try:
                expected = [e.model_dump(exclude={"seq"}) for e in decide(state, command)]
            except RuleViolation as error:
                raise LogProblem(event.seq, f"{error.code}: {error.message}") from error
        if event.model_dump(exclude={"seq"}) != expected.pop(0):
            raise LogProblem(event.seq, "not what the rules decide")
        state = evolve(state, event)
    if expected:
        raise LogProblem(len(events) + 1, "the log stops early")
