"""What players and the referee ask for, and a player's `move` payload on the wire.

Wire: {"kind": "suggest"|"accuse", "suspect", "weapon", "room"}, {"kind": "show", "card"},
{"kind": "end_turn"}. Anything else is a typed `illegal_move` error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.clue.errors import ClueRuleViolation
from games.fairness.scheme import NEW, SchemeName


@dataclass(frozen=True)
class Start:
    match_id: str
    variant: str
    players: dict[str, str]
    options: Mapping[str, Any] = field(default_factory=dict)
    fairness: SchemeName | None = NEW
    """The dealing scheme the match names (None only when re-deciding an older log)."""


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
"""A player's command (the referee's are Start and Deal)."""
Command = Start | Deal | Move


CARD_NAME_MAX = 40
"""Longest card name a move may carry (the decks' longest is far shorter)."""


def _card(payload: Mapping[str, Any], key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise ClueRuleViolation("illegal_move", f"a Clue move needs {key!r} (a card name)")
    if len(value) > CARD_NAME_MAX or not value.isascii() or not value.isprintable():
        raise ClueRuleViolation("illegal_move", f"{key!r} must be a card's name as the deck "
                                f"writes it (printable ASCII, at most {CARD_NAME_MAX})")
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


def command_to_wire(command: Command) -> dict[str, Any]:
    if isinstance(command, Suggest | Accuse):
        return {"kind": "suggest" if isinstance(command, Suggest) else "accuse",
                "suspect": command.suspect, "weapon": command.weapon, "room": command.room}
    if isinstance(command, Show):
        return {"kind": "show", "card": command.card}
    if isinstance(command, EndTurn):
        return {"kind": "end_turn"}
    raise TypeError(f"not a player's command: {command!r}")
