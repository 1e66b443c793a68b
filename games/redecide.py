"""Re-decide a referee log with a game's own pure rules: the log checker of every game.

A log is runs of events, each run what one command decided: the game says which command
opens a run (`command_for`: a deal from the referee's secret, a player's move, None for an
event no command starts); the rules decide it in the state folded so far, and the log must
hold exactly those events, in order, with seqs 1, 2, ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.interface import LogProblem, RuleViolation


def redecide(events: Sequence[Any], command_for: Callable[[Any], Any | None],
             decide: Callable[[Any, Any], list[Any]], evolve: Callable[[Any, Any], Any],
             *, no_command: Callable[[Any], str] | None = None) -> Any:
    """The final state; LogProblem at the first event the rules would not have written.
    `no_command(event)` says why an event opens no run (default: it follows from no move)."""
    state: Any = None
    expected: list[dict[str, Any]] = []
    for position, event in enumerate(events, start=1):
        if event.seq != position:
            raise LogProblem(event.seq, f"seq {event.seq} where {position} belongs")
        if not expected:
            command = command_for(event)
            if command is None:
                why = no_command(event) if no_command else "it follows from no move"
                raise LogProblem(event.seq, f"{event.type}: {why}")
            try:
                expected = [e.model_dump(exclude={"seq"}) for e in decide(state, command)]
            except RuleViolation as error:
                raise LogProblem(event.seq, f"{error.code}: {error.message}") from error
            except (ValueError, KeyError) as error:
                raise LogProblem(event.seq, f"unreadable: {error}") from error
        if event.model_dump(exclude={"seq"}) != expected.pop(0):
            raise LogProblem(event.seq, f"{event.type} is not what the rules decide")
        state = evolve(state, event)
    if expected:
        raise LogProblem(len(events) + 1, "the log stops in the middle of a move's events")
    return state
