"""`view`: the one gate hidden information passes through.

A seat sees its own cards (deal and draws) and nothing of the other's; the spectator sees
no card that is not face up; only the referee sees the match's seed (the deck order) before
match_ended reveals it (everyone sees its commitment from the deal).
"""

from __future__ import annotations

from typing import Any

from games.interface import REFEREE
from games.uno.events import CardsDrawn, DeckReshuffled, HandDealt, UnoEvent


def view(event: UnoEvent, audience: str) -> UnoEvent:
    if audience == REFEREE:
        return event
    if isinstance(event, HandDealt | CardsDrawn):
        cards = event.cards if event.seat == audience else None
        update: dict[str, Any] = {"cards": cards}
        if isinstance(event, HandDealt):
            update["secret"] = None
        return event.model_copy(update=update)
    if isinstance(event, DeckReshuffled):
        return event.model_copy(update={"secret": None})
    return event
