"""A player's `move` payload and back: {"kind": "play", "card": "r7"} (a black card also
names "colour": one of r, y, g, b), or {"kind": "draw"}."""

from __future__ import annotations

from typing import Any

from games.uno.cards import CardError, parse_card
from games.uno.commands import Command, Draw, PlayCard
from games.uno.errors import UnoRuleViolation
from games.uno.variants import SEATS


def command_from_wire(seat: str, payload: dict[str, Any]) -> PlayCard | Draw:
    if seat not in SEATS:
        raise UnoRuleViolation("illegal_move", f"no seat {seat!r} at uno (seats: S, N)")
    kind = payload.get("kind", "play" if "card" in payload else None)
    if kind == "draw":
        return Draw(seat)
    if kind != "play":
        raise UnoRuleViolation("illegal_move", "an uno move is {\"kind\": \"play\", \"card\": "
                               "...} or {\"kind\": \"draw\"}")
    try:
        card = parse_card(payload.get("card"))
    except CardError as error:
        raise UnoRuleViolation("illegal_move", str(error)) from None
    colour = payload.get("colour")
    if colour is not None and colour not in ("r", "y", "g", "b"):
        raise UnoRuleViolation("bad_colour", f"colour must be r, y, g or b, not {colour!r}")
    return PlayCard(seat, card, colour)


def command_to_wire(command: Command) -> dict[str, Any]:
    if isinstance(command, Draw):
        return {"kind": "draw"}
    if isinstance(command, PlayCard):
        wire: dict[str, Any] = {"kind": "play", "card": command.card}
        if command.colour is not None:
            wire["colour"] = command.colour
        return wire
    raise TypeError(f"not a player's command: {command!r}")
