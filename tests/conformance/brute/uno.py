"""Uno on the reduced deck: every deal and draw, forward in time (tests/games/uno/brute.py,
independent of games/uno/counting.py), as the belief's P(at least n copies) per holder and
its expected copies."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import ClassVar

from games.interface import SPECTATOR
from tests.conformance.brute import Truth, observed
from tests.conformance.cases import Match
from tests.games.uno.brute import BruteForce


def _truth(brute: BruteForce) -> Truth:
    total = brute.total()
    owners = [*brute.unknown, "deck"]
    at_least: dict[str, dict[str, Fraction]] = {o: {} for o in owners}
    expected: dict[str, dict[str, Fraction]] = {o: {} for o in owners}
    for h, owner in enumerate(owners):
        for j, kind in enumerate(brute.kinds):
            copies: dict[int, int] = {}
            for (hands, deck), ways in brute.worlds.items():
                n = (hands[h] if owner != "deck" else deck)[j]
                copies[n] = copies.get(n, 0) + ways
            mean = Fraction(sum(n * w for n, w in copies.items()), total)
            if mean:
                expected[owner][kind] = mean
            for n in range(1, max(copies) + 1):
                p = Fraction(sum(w for m, w in copies.items() if m >= n), total)
                if p:
                    at_least[owner][kind if n == 1 else f"{kind}>={n}"] = p
    return {"marginals": at_least, "expected": expected}


class UnoCounter:
    too_large: ClassVar[Mapping[str, str]] = {
        "uno-2": "108 cards: every deal and draw is far too many (uno-2-mini is the same "
                 "rules on 20 cards)"}
    """(The spectator's deals of uno-2-mini are 242,088 worlds at the deal, seconds each
    event: tests/games/uno/test_belief.py checks them across a reshuffle.)"""

    def positions(self, match: Match, audience: str) -> Iterator[tuple[int, Truth]]:
        if match.case.variant in self.too_large or audience == SPECTATOR:
            return
        brute = BruteForce(audience)
        seen = observed(match, audience)
        for cut, event in enumerate(seen[:-1], start=1):
            brute.apply(event)
            if brute.worlds and event.type != "hand_dealt":
                yield cut, _truth(brute)


COUNTER = UnoCounter()
