"""The toy: every deal of the seven cards, kept when it agrees with the observer's view."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import ClassVar

from tests.conformance.brute import Truth, observed, shares
from tests.conformance.cases import Match
from tests.games.toy.game import CARDS, HAND, KITTY, SEATS, Dealt, Played


def _truth(observer: str, seen: list) -> Truth:
    own = {c for e in seen if isinstance(e, Dealt) and e.seat == observer for c in e.cards}
    played: dict[str, set[int]] = {s: set() for s in SEATS}
    for e in seen:
        if isinstance(e, Played):
            played[e.seat].add(e.card)
    others = [s for s in SEATS if s != observer]
    gone = set().union(*played.values())
    hits: dict[str, dict[str, int]] = {h: {} for h in [*others, KITTY]}
    total = 0
    for order in itertools.permutations([c for c in CARDS if c not in own]):
        deal = {s: set(order[i * HAND:(i + 1) * HAND]) for i, s in enumerate(others)}
        deal[KITTY] = set(order[len(others) * HAND:])
        if any(len(v) != (1 if h == KITTY else HAND) for h, v in deal.items()):
            continue
        if not all(played[s] <= deal[s] for s in others):
            continue
        total += 1
        for holder, cards in deal.items():
            for card in cards - gone:
                hits[holder][str(card)] = hits[holder].get(str(card), 0) + 1
    return {"marginals": shares(hits, total)}


class ToyCounter:
    too_large: ClassVar[Mapping[str, str]] = {}

    def positions(self, match: Match, audience: str) -> Iterator[tuple[int, Truth]]:
        seen = observed(match, audience)
        for cut in range(3, len(seen)):  # from the deal to the last card (then all is shown)
            yield cut, _truth(audience, seen[:cut])


COUNTER = ToyCounter()
