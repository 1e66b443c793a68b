"""Check a referee's whole log against the rules by re-deciding every move.

Folding alone trusts the log; here each move is turned back into the command that would have
caused it, decided afresh, and the consequences (deal, hand end, scores) must match exactly.
That catches forged deals, illegal plays, wrong scores and a seed that does not fit its hash.

`check_log` needs the referee's log (every seed and hand). Any other audience's log (a seat's
own export, a spectator's) is proved by games.fairness.proof from the seeds each finished
hand reveals, with `command_for` and games.dominoes.dealing.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.dominoes.commands import Command, DealHand, DrawTiles, PassTurn, PlayTile, StartMatch
from games.dominoes.errors import BadEvent, RuleViolation
from games.dominoes.events import (
    Event,
    HandStarted,
    MatchStarted,
    Passed,
    TilePlayed,
    TilesDrawn,
    event_to_dict,
)
from games.dominoes.rules import decide, evolve
from games.dominoes.state import MatchState
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import UnknownVariantError
from games.interface import LogProblem


def command_for(event: Event) -> Command | None:
    """The command that causes `event`, or None when it is a consequence of another (or a
    deal whose seed this copy of the log does not show)."""
    if isinstance(event, MatchStarted):
        return StartMatch(event.match_id, dict(event.players), event.variant, event.target,
                          event.scoring, event.fairness)
    if isinstance(event, HandStarted):
        return None if event.seed is None else DealHand(event.seed)
    if isinstance(event, TilePlayed):
        return PlayTile(event.seat, parse_tile(event.tile), event.end)
    if isinstance(event, Passed):
        return PassTurn(event.seat)
    if isinstance(event, TilesDrawn):
        return DrawTiles(event.seat)
    return None


def _comparable(event: Event) -> dict:
    data = event_to_dict(event)
    data.pop("seq", None)
    return data


def _difference(rules: dict, log: dict) -> str:
    """Which fields of an event differ from what the rules give: short enough to read."""
    if rules.get("type") != log.get("type"):
        return f"the rules give {rules}, the log has {log}"
    fields = sorted(k for k in rules.keys() | log.keys() if rules.get(k) != log.get(k))
    parts = [f"{k}: the rules give {rules.get(k)!r}, the log has {log.get(k)!r}" for k in fields]
    return f"{log['type']} differs from the rules in " + "; ".join(parts)


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
            command = command_for(event)
            if command is None:
                if isinstance(event, HandStarted):
                    raise LogProblem(event.seq,
                                     "hand_started without its seed: not a referee's log")
                raise LogProblem(event.seq, f"{event.type} here does not follow from any move")
            try:
                expected = [_comparable(e) for e in decide(state, command)]
            except (RuleViolation, UnknownVariantError) as error:
                raise LogProblem(event.seq, str(error)) from error
        if _comparable(event) != expected[0]:
            raise LogProblem(event.seq, _difference(expected[0], _comparable(event)))
        expected.pop(0)
        try:
            state = evolve(state, event)
        except BadEvent as error:
            raise LogProblem(event.seq, str(error)) from error
    if expected:
        raise LogProblem(last_seq + 1, f"the log stops before {expected[0]['type']}")
    return state
