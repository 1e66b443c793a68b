"""Re-decide a referee log with a game's own pure rules: the log checker of every game.

A log is runs of events, each run what one command decided: the game says which command
opens a run (`command_for`: a deal from the referee's secret, a player's move, None for an
event no command starts); the rules decide it in the state folded so far, and the log must
hold exactly those events, in order, with seqs 1, 2, ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from games.interface import LogProblem, RuleViolation


class Logged(Protocol):
    """An event as the checker compares it: its type, seq and fields."""

    @property
    def type(self) -> str: ...

    @property
    def seq(self) -> int: ...

    def model_dump(self, *, exclude: set[str]) -> dict[str, Any]: ...


State = TypeVar("State")
E = TypeVar("E", bound=Logged)
# The command passes from command_for to decide as the game's own type; it is Any here
# because mypy cannot infer a union (a game's Command) through `Command | None`.


def redecide(events: Sequence[E], command_for: Callable[[E], Any],
             decide: Callable[[State | None, Any], Sequence[E]],
             evolve: Callable[[State | None, E], State],
             *, no_command: Callable[[E], str] | None = None) -> State | None:
    """The final state; LogProblem at the first event the rules would not have written.
    `no_command(event)` says why an event opens no run (default: it follows from no move)."""
    state: State | None = None
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
