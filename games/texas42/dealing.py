"""Where a Texas 42 log commits and reveals each hand's seed (games.fairness.dealing).

`hand_started` publishes `commitment` (the seed itself in the referee's copy only);
`hand_ended` reveals `seed`, a redeal's too. Every 42 log was dealt with the shared shuffle
over the 28 tiles in canonical order, S, W, N, E taking consecutive sevens, so a log that
names no scheme reads the same way.
"""

from __future__ import annotations

from typing import Any

from games.fairness.dealing import Commitment, Seed
from games.fairness.scheme import NEW, SHA256_FISHER_YATES, Scheme, scheme_named
from games.texas42.check import command_for
from games.texas42.events import HandEnded, HandStarted


def _deal(hand: int) -> str:
    return f"hand {hand}"


class Texas42Dealing:
    name: str = NEW
    def scheme(self, first: Any) -> Scheme:
        return scheme_named(getattr(first, "fairness", None), SHA256_FISHER_YATES)

    def commitment(self, event: Any) -> Commitment | None:
        if isinstance(event, HandStarted):
            return Commitment(_deal(event.hand), event.commitment)
        return None

    def seed(self, event: Any) -> Seed | None:
        if isinstance(event, HandStarted | HandEnded) and event.seed:
            return Seed(_deal(event.hand), event.seed)
        return None

    def command_for(self, event: Any) -> Any | None:
        return command_for(event)
