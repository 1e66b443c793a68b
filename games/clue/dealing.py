"""Where a Clue log commits and reveals its seed (games.fairness.dealing).

One deal per match: `dealt` publishes the seed's `commitment` to everyone (the referee's copy
holds the seed as `secret`), and `match_ended` reveals `seed` with the envelope. A log that
names no scheme was dealt by CPython's `random` and never committed: only its referee's copy
can be re-decided.
"""

from __future__ import annotations

from typing import Any

from games.clue.cards import LEGACY
from games.clue.check import command_of
from games.clue.events import Dealt, MatchEnded
from games.fairness.dealing import Commitment, Seed
from games.fairness.scheme import NEW, Scheme, scheme_named

MATCH = "the match's deal"


class ClueDealing:
    name: str = NEW
    def scheme(self, first: Any) -> Scheme:
        return scheme_named(getattr(first, "fairness", None), LEGACY)

    def commitment(self, event: Any) -> Commitment | None:
        if isinstance(event, Dealt) and event.commitment is not None:
            return Commitment(MATCH, event.commitment)
        return None

    def seed(self, event: Any) -> Seed | None:
        if isinstance(event, Dealt) and event.secret is not None:
            return Seed(MATCH, event.secret)
        if isinstance(event, MatchEnded) and event.seed is not None:
            return Seed(MATCH, event.seed)
        return None

    def command_for(self, event: Any) -> Any | None:
        return command_of(event)
