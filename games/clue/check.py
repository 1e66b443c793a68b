"""Re-deciding a whole referee log: each move is re-asked of the rules, which must answer with
exactly the logged events (a forged card, a refutation skipped, a wrong envelope all fail)."""

from __future__ import annotations

from collections.abc import Sequence

from games.clue.commands import Accuse, Command, Deal, EndTurn, Show, Start, Suggest
from games.clue.events import (
    Accused,
    CardShown,
    ClueEvent,
    Dealt,
    MatchStarted,
    Suggested,
    TurnPassed,
)
from games.clue.rules import decide
from games.clue.state import evolve
from games.interface import LogProblem
from games.redecide import redecide


def command_of(event: ClueEvent) -> Command | None:
    """The command that makes `event` the first of its decision (None: it follows another)."""
    if isinstance(event, MatchStarted):
        return Start(event.match_id, event.variant, dict(event.players),
                     fairness=event.fairness)
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


def check_log(events: Sequence[ClueEvent]) -> None:
    """Raise LogProblem at the first event the rules would not have written."""
    if redecide(events, command_of, decide, evolve, no_command=_no_command) is None:
        raise LogProblem(1, "an empty log")


def _no_command(event: ClueEvent) -> str:
    """Why `event` opens no run: a seat's export hides what the referee dealt or showed."""
    return ("a redacted event (a seat's export cannot be re-decided)"
            if isinstance(event, Dealt | CardShown) else "it follows from no move")
