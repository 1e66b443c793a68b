"""Where an Uno log commits and reveals its seed (games.fairness.dealing).

One seed per match: S's `hand_dealt`, the deal's first event, publishes its `commitment` to
everyone (the referee's copy holds the seed as `secret`); `match_ended` reveals `seed`. The
reshuffles commit nothing of their own: the seed fixed them (games/uno/shuffles.py). A log
that names no scheme is CPython's old shuffle, never committed: only its referee's copy
carries the secrets (each reshuffle's too).
"""

from __future__ import annotations

from typing import Any

from games.fairness.dealing import Commitment, Seed
from games.fairness.scheme import NEW, Scheme, scheme_named
from games.uno.check import command_for
from games.uno.events import DeckReshuffled, HandDealt, MatchEnded
from games.uno.shuffles import LEGACY

MATCH = "the match's deal"


class UnoDealing:
    name: str = NEW
    def scheme(self, first: Any) -> Scheme:
        return scheme_named(getattr(first, "fairness", None), LEGACY)

    def commitment(self, event: Any) -> Commitment | None:
        if isinstance(event, HandDealt) and event.commitment is not None:
            return Commitment(MATCH, event.commitment)
        return None

    def seed(self, event: Any) -> Seed | None:
        if isinstance(event, HandDealt) and event.secret is not None:
            return Seed(MATCH, event.secret)
        if isinstance(event, MatchEnded) and event.seed is not None:
            return Seed(MATCH, event.seed)
        if isinstance(event, DeckReshuffled) and event.secret is not None:
            return Seed(f"reshuffle at seq {event.seq}", event.secret)
        return None

    def command_for(self, event: Any) -> Any | None:
        return command_for(event)
