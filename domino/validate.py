"""Check a whole log against the rules by re-deciding every move.

Folding alone trusts the log; here each move is turned back into the command that would have
caused it, decided afresh, and the consequences (deal, hand end, scores) must match exactly.
That catches forged deals, illegal plays, wrong scores and a seed that does not fit its hash.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domino.commands import Command, DealHand, PassTurn, PlayTile, StartMatch
from domino.errors import BadEvent, RuleViolation
from domino.events import Event, HandStarted, MatchStarted, Passed, TilePlayed, event_to_dict
from domino.rules import decide, evolve
from domino.state import MatchState
from domino.tiles import parse_tile
from domino.variants import UnknownVariantError


@dataclass(frozen=True)
class LogProblem(Exception):
    """The first event of a log that the rules refuse, and why."""

    seq: int
    reason: str

    def __str__(self) -> str:
        return f"event seq {self.seq}: {self.reason}"


def _command_for(event: Event) -> Command | None:
    """The command that causes `event`, or None when it is a consequence of another."""
    if isinstance(event, MatchStarted):
        return StartMatch(
            event.match_id, dict(event.players), event.variant, event.target, event.scoring
        )
    if isinstance(event, HandStarted):
        if event.seed is None:
            raise LogProblem(event.seq, "hand_started without its seed: not a referee's log")
        return DealHand(event.seed)
    if isinstance(event, TilePlayed):
        return PlayTile(event.seat, parse_tile(event.tile), event.end)
    if isinstance(event, Passed):
        return PassTurn(event.seat)
    return None


def _comparable(event: Event) -> dict:
    data = event_to_dict(event)
    data.pop("seq", None)
    return data


def check_log(events: Iterable[Event]) -> MatchState | None:
    """Fold a referee's log, proving each step legal; raise LogProblem at the first bad one."""
    state: MatchState | None = None
    expected: list[dict] = []
    last_seq = 0
    for event in events:
        if event.seq != last_seq + 1:
            raise LogProblem(event.seq, f"seq {event.seq} follows {last_seq}: not contiguous")
        last_seq = event.seq
        if not expected:
            command = _command_for(event)
            if command is None:
                raise LogProblem(event.seq, f"{event.type} here does not follow from any move")
            try:
                expected = [_comparable(e) for e in decide(state, command)]
            except (RuleViolation, UnknownVariantError) as error:
                raise LogProblem(event.seq, str(error)) from error
        if _comparable(event) != expected[0]:
            raise LogProblem(
                event.seq, f"the rules give {expected[0]}, the log has {_comparable(event)}"
            )
        expected.pop(0)
        try:
            state = evolve(state, event)
        except BadEvent as error:
            raise LogProblem(event.seq, str(error)) from error
    if expected:
        raise LogProblem(last_seq + 1, f"the log stops before {expected[0]['type']}")
    return state
