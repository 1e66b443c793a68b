"""Who may see what: the projection of an event to one audience.

Hidden information never leaves the referee except through this function.
"""

from __future__ import annotations

from typing import Literal

from games.dominoes.events import Event, HandDealt, HandStarted, TilesDrawn
from games.dominoes.tiles import SEATS, Seat
from games.dominoes.variants import Variant

Audience = Seat | Literal["spectator", "referee"]
AUDIENCES: tuple[str, ...] = (*SEATS, "spectator", "referee")
"""The partnership game's audiences; `audiences(variant)` for any variant."""


def audiences(variant: Variant) -> tuple[str, ...]:
    """Every audience of a match of `variant`: its seats, the spectators and the referee."""
    return (*variant.seats, "spectator", "referee")


def view(event: Event, audience: str) -> Event:
    """`event` as `audience` (an Audience; any other name sees what a spectator sees) may see
    it: another seat's dealt or drawn tiles and the secret seed go (a draw's count stays
    public).

    The event is still delivered (redacted) so every audience sees a contiguous seq.
    Hands become public through hand_ended, which carries every remaining tile and the seed.
    """
    if audience == "referee":
        return event
    if (
        isinstance(event, HandDealt | TilesDrawn)
        and event.seat != audience
        and event.tiles is not None
    ):
        return event.model_copy(update={"tiles": None})
    if isinstance(event, HandStarted) and event.seed is not None:
        return event.model_copy(update={"seed": None})
    return event
