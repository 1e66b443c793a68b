"""Clue: the envelope and the hands, every way the cards the observer has not seen could lie,
kept when they would have produced every event it saw (tests/games/clue/brute.py reads the
events). On the small deck from the deal on; on the full deck for a seat late in the match,
once its own hand and the cards shown to it leave few ways."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from games.clue.events import Accused, CardShown, Dealt
from games.clue.variants import VARIANTS
from games.interface import SPECTATOR
from tests.conformance.brute import Truth, observed, shares
from tests.conformance.cases import Match
from tests.games.clue.brute import World, fits

BUDGET = 20_000
"""Most deals enumerated for one position."""
LATE = 3
"""Positions per seat on the full deck: the last ones before the end that fit the budget."""


def _known(seen: list[Any], audience: str) -> tuple[dict[str, str], tuple[str, ...] | None]:
    """Cards whose holder the audience saw (its own hand, cards shown to it), and the
    envelope if it was shown to it."""
    held: dict[str, str] = {}
    envelope = None
    for event in seen:
        if isinstance(event, Dealt) and event.hands.get(audience):
            held.update(dict.fromkeys(event.hands[audience], audience))
        if isinstance(event, CardShown) and event.card is not None:
            held[event.card] = event.seat
        if isinstance(event, Accused) and event.envelope is not None:
            envelope = tuple(event.envelope)
    return held, envelope


def _worlds(deck: Any, sizes: dict[str, int], held: dict[str, str],
            envelope: tuple[str, ...] | None) -> Iterator[World]:
    free = [c for c in deck.cards if c not in held]
    triples = [envelope] if envelope else itertools.product(
        *([c for c in kind if c in free] for kind in (deck.suspects, deck.weapons, deck.rooms)))
    seats = list(sizes)
    for triple in triples:
        rest = [c for c in free if c not in triple]
        need = [sizes[s] - sum(1 for h in held.values() if h == s) for s in seats]
        yield from ((tuple(triple), hands)  # type: ignore[misc]
                    for hands in _hands(rest, seats, need, held))


def _hands(cards: list[str], seats: list[str], need: list[int], held: dict[str, str]
           ) -> Iterator[dict[str, frozenset[str]]]:
    if not seats:
        if not cards:
            yield {}
        return
    mine = frozenset(c for c, h in held.items() if h == seats[0])
    for chosen in itertools.combinations(cards, need[0]):
        left = [c for c in cards if c not in chosen]
        for more in _hands(left, seats[1:], need[1:], held):
            yield {seats[0]: mine | frozenset(chosen), **more}


def _count(deck: Any, sizes: dict[str, int], held: dict[str, str],
           envelope: tuple[str, ...] | None) -> int:
    free = [c for c in deck.cards if c not in held]
    triples = 1 if envelope else math.prod(
        sum(1 for c in kind if c in free) for kind in (deck.suspects, deck.weapons, deck.rooms))
    left = len(free) - 3
    ways = 1
    for s, size in sizes.items():
        k = size - sum(1 for h in held.values() if h == s)
        ways *= math.comb(left, k) if 0 <= k <= left else 0
        left -= k
    return triples * ways


def _truth(worlds: list[World], deck: Any, seats: list[str]) -> Truth:
    hits: dict[str, dict[str, int]] = {h: dict.fromkeys(deck.cards, 0)
                                       for h in (*seats, "envelope")}
    for envelope, hands in worlds:
        for card in envelope:
            hits["envelope"][card] += 1
        for seat, hand in hands.items():
            for card in hand:
                hits[seat][card] += 1
    return {"marginals": shares(hits, len(worlds))}


class ClueCounter:
    too_large: ClassVar[Mapping[str, str]] = {}
    """(On the full deck the spectator sees no card before the end: 18 cards among 3-6
    hands are far too many deals; seats are checked late.)"""

    def positions(self, match: Match, audience: str) -> Iterator[tuple[int, Truth]]:
        seen = observed(match, audience)
        deck = VARIANTS[match.case.variant].deck
        sizes = dict(match.events[1].hand_sizes)
        seats = list(sizes)
        if _count(deck, sizes, {}, None) <= BUDGET:  # the small deck: every event
            worlds = list(_worlds(deck, sizes, {}, None))
            for cut, event in enumerate(seen[:-1], start=1):
                worlds = [w for w in worlds if fits(w, event, audience)]
                if cut >= 2:
                    yield cut, _truth(worlds, deck, seats)
            return
        if audience == SPECTATOR:
            return
        late: list[int] = []
        for cut in range(len(seen) - 1, 1, -1):
            if len(late) == LATE:
                break
            if _count(deck, sizes, *_known(seen[:cut], audience)) <= BUDGET:
                late.append(cut)
        for cut in sorted(late):
            held, envelope = _known(seen[:cut], audience)
            worlds = [w for w in _worlds(deck, sizes, held, envelope)
                      if all(fits(w, e, audience) for e in seen[:cut])]
            yield cut, _truth(worlds, deck, seats)


COUNTER = ClueCounter()
