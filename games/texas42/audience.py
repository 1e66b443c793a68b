"""What each audience may see: the one gate hidden information passes through.

A seat sees its own dealt tiles; nobody but the referee sees a hand's seed before
`hand_ended` reveals it (everyone has its commitment from `hand_started`). Everything else
(bids, trump, plays, tricks, scores) is public.
"""

from __future__ import annotations

from games.interface import REFEREE
from games.texas42.events import Dealt, Event, HandStarted


def view(event: Event, audience: str) -> Event:
    if audience == REFEREE:
        return event
    if isinstance(event, Dealt) and event.seat != audience:
        return event.model_copy(update={"tiles": None})
    if isinstance(event, HandStarted) and event.seed is not None:
        return event.model_copy(update={"seed": None})
    return event
