"""Where a dominoes log commits and reveals each hand's seed (games.fairness.dealing).

`hand_started` publishes `seed_sha256` (and holds the seed in the referee's copy only);
`hand_ended` reveals `seed`. A log that names no scheme is dealt the same way: every dominoes
log ever written was.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.events import HandEnded, HandStarted
from games.dominoes.validate import command_for
from games.fairness.dealing import Commitment, Seed
from games.fairness.scheme import NEW, SHA256_FISHER_YATES, Scheme, scheme_named


def _deal(hand: int) -> str:
    return f"hand {hand}"


class DominoesDealing:
    name: str = NEW
    def scheme(self, first: Any) -> Scheme:
        return scheme_named(getattr(first, "fairness", None), SHA256_FISHER_YATES)

    def commitment(self, event: Any) -> Commitment | None:
        if isinstance(event, HandStarted):
            return Commitment(_deal(event.hand), event.seed_sha256)
        return None

    def seed(self, event: Any) -> Seed | None:
        if isinstance(event, HandStarted | HandEnded) and event.seed is not None:
            return Seed(_deal(event.hand), event.seed)
        return None

    def command_for(self, event: Any) -> Any | None:
        return command_for(event)
