"""Brute force for the proofs: every deal of a small deck, filtered by what one audience saw.

Independent of games.clue.knowledge: it reads the events itself and keeps the deals that
would have produced them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from games.clue.cards import Deck
from games.clue.events import Accused, CardShown, Dealt, MatchEnded, Suggested

World = tuple[tuple[str, str, str], dict[str, frozenset[str]]]


def every_deal(deck: Deck, sizes: dict[str, int]) -> Iterator[World]:
    seats = list(sizes)
    for envelope in itertools.product(deck.suspects, deck.weapons, deck.rooms):
        rest = [c for c in deck.cards if c not in envelope]
        yield from ((envelope, hands) for hands in _hands(rest, seats, sizes))


def _hands(cards: list[str], seats: list[str], sizes: dict[str, int]
           ) -> Iterator[dict[str, frozenset[str]]]:
    if not seats:
        yield {}
        return
    first, others = seats[0], seats[1:]
    for hand in itertools.combinations(cards, sizes[first]):
        left = [c for c in cards if c not in hand]
        for more in _hands(left, others, sizes):
            yield {first: frozenset(hand), **more}


def fits(world: World, event: Any, audience: str) -> bool:
    envelope, hands = world
    if isinstance(event, Dealt):
        own = event.hands.get(audience)
        return own is None or hands[audience] == frozenset(own)
    if isinstance(event, Suggested):
        triple = {event.suspect, event.weapon, event.room}
        if any(hands[s] & triple for s in event.passed):
            return False
        return event.refuter is None or bool(hands[event.refuter] & triple)
    if isinstance(event, CardShown):
        return event.card is None or event.card in hands[event.seat]
    if isinstance(event, Accused):
        triple = (event.suspect, event.weapon, event.room)
        if event.correct:
            return envelope == triple
        if event.envelope is not None:
            return list(envelope) == event.envelope
        return envelope != triple
    if isinstance(event, MatchEnded):
        return list(envelope) == event.envelope
    return True


def marginals(worlds: list[World], deck: Deck) -> dict[str, dict[str, Fraction]]:
    """card -> holder (seats, 'envelope') -> exact probability."""
    n = len(worlds)
    seats = list(worlds[0][1])
    out = {c: {h: Fraction(0) for h in (*seats, "envelope")} for c in deck.cards}
    for envelope, hands in worlds:
        for c in envelope:
            out[c]["envelope"] += Fraction(1, n)
        for s, hand in hands.items():
            for c in hand:
                out[c][s] += Fraction(1, n)
    return out
