"""Texas 42 late in a hand: the unseen dominoes dealt every possible way, each deal's plays
replayed through the rules (tests/games/texas42/test_belief.py's brute force, which knows
nothing of voids), after four tricks for a seat (1,680 deals) and six for the spectator
(whose 12 unseen after five are 2,520 deals each replayed)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar

from games.interface import SPECTATOR
from tests.conformance.brute import Truth
from tests.conformance.cases import Match
from tests.games.texas42.test_belief import brute_force, late_cuts

HANDS = 1
"""Hands checked per audience (the first that reaches the trick)."""


class Texas42Counter:
    too_large: ClassVar[Mapping[str, str]] = {}

    def positions(self, match: Match, audience: str) -> Iterator[tuple[int, Truth]]:
        events = list(match.events)
        tricks = 6 if audience == SPECTATOR else 4
        for index in list(late_cuts(events, tricks))[:HANDS]:
            _total, probs = brute_force(events, index, audience)
            yield index + 1, {"marginals": {h: {str(t): p for t, p in row.items()}
                                            for h, row in probs.items()}}


COUNTER = Texas42Counter()
