"""Re-deciding a whole referee log: each move is re-asked of the rules, which must answer with
exactly the logged events (a forged card, a refutation skipped, a wrong envelope all fail)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.clue.commands import Accuse, Deal, EndTurn, Show, Start, Suggest
from games.clue.errors import ClueRuleViolation
from games.clue.events import (
    Accused,
    CardShown,
    Dealt,
    MatchStarted,
    Suggested,
    TurnPassed,
)
from games.clue.rules import decide
from games.clue.state import ClueState, evolve
from games.interface import LogProblem


def command_of(event: Any) -> Any | None:
    """The command that makes `event` the first of its decision (None: it follows another)."""
    if isinstance(event, MatchStarted):
        return Start(event.match_id, event.variant, dict(event.players))
    if isinstance(event, Dealt):
        if event.secret is None:
            return None
        return Deal(event.secret)
    if isinstance(event, Suggested):
        return Suggest(event.seat, event.suspect, event.weapon, event.room)
    if isinstance(event, CardShown):
        return None if event.card is None else Show(event.seat, event.card)
    if isinstance(event, Accused):
        return Accuse(event.seat, event.suspect, event.weapon, event.room)
    if isinstance(event, TurnPassed):
        return EndTurn(event.seat)
    return None


def check_log(events: Sequence[Any]) -> None:
    """Raise LogProblem at the first event the rules would not have written."""
    state: ClueState | None = None
    expected: list[dict[str, Any]] = []
    for i, event in enumerate(events, start=1):
        if event.seq != i:
            raise LogProblem(event.seq, f"expected seq {i}")
        if not expected:
            command = command_of(event)
            if command is None:
                why = ("a redacted event (a seat's export cannot be re-decided)"
                       if isinstance(event, Dealt | CardShown) else "it follows from no move")
                raise LogProblem(event.seq, f"{event.type}: {why}")
            try:
                expected = [e.model_dump(exclude={"seq"}) for e in decide(state, command)]
            except ClueRuleViolation as error:
                raise LogProblem(event.seq, f"{error.code}: {error.message}") from error
        if event.model_dump(exclude={"seq"}) != expected.pop(0):
            raise LogProblem(event.seq, f"{event.type} is not what the rules decide")
        state = evolve(state, event)
    if expected:
        raise LogProblem(len(events) + 1, "the log stops inside a decision")
    if state is None:
        raise LogProblem(1, "an empty log")
