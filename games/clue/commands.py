"""What players and the referee ask for, and a player's `move` payload on the wire.

Wire: {"kind": "suggest"|"accuse", "suspect", "weapon", "room"}, {"kind": "show", "card"},
{"kind": "end_turn"}. Anything else is a typed `illegal_move` error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.clue.errors import ClueRuleViolation


@dataclass(frozen=True)
class Start:
    match_id: str
    variant: str
    players: dict[str, str]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Deal:
    secret: str


@dataclass(frozen=True)
class Suggest:
    seat: str
    suspect: str
    weapon: str
    room: str


@dataclass(frozen=True)
class Show:
    seat: str
    card: str


@dataclass(frozen=True)
class Accuse:
    seat: str
    suspect: str
    weapon: str
    room: str


@dataclass(frozen=True)
class EndTurn:
    seat: str


Move = Suggest | Show | Accuse | EndTurn


def _card(payload: Mapping[str, Any], key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise ClueRuleViolation("illegal_move", f"a Clue move needs {key!r} (a card name)")
    return value


def command_from_wire(seat: str, payload: Mapping[str, Any]) -> Move:
    kind = payload.get("kind")
    if kind in ("suggest", "accuse"):
        cls = Suggest if kind == "suggest" else Accuse
        return cls(seat, _card(payload, "suspect"), _card(payload, "weapon"),
                   _card(payload, "room"))
    if kind == "show":
        return Show(seat, _card(payload, "card"))
    if kind == "end_turn":
        return EndTurn(seat)
    raise ClueRuleViolation(
        "illegal_move", f"unknown move kind {kind!r} (suggest, show, accuse or end_turn)")


def command_to_wire(command: Any) -> dict[str, Any]:
    if isinstance(command, Suggest | Accuse):
        return {"kind": "suggest" if isinstance(command, Suggest) else "accuse",
                "suspect": command.suspect, "weapon": command.weapon, "room": command.room}
    if isinstance(command, Show):
        return {"kind": "show", "card": command.card}
    if isinstance(command, EndTurn):
        return {"kind": "end_turn"}
    raise TypeError(f"not a player's command: {command!r}")
