"""Seed 004's approximate belief, kept to compare the exact one against.

The seed resets its prior after every opponent move: uniform over hands of the opponent's
size drawn from the unseen cards L = D \\ (H1 u P), except that after a draw forced by having
no legal card it restricts the hand (the drawn card included) to L minus the kinds legal at
that moment ("uniform over hands with no legal card"). That last step is what is wrong: the
drawn card may be legal, and an earlier "nothing to play" is forgotten once the opponent
plays. A +2/+4 draw and a reshuffle reset the prior as a play does (the seed says nothing
more for them). A seat's view only: the seed models one opponent.
"""

from __future__ import annotations

from collections import Counter
from math import comb

from games.uno.cards import legal_kinds
from games.uno.events import CardPlayed, CardsDrawn, DeckReshuffled, TurnPassed, UnoEvent
from games.uno.state import UnoState, evolve
from games.uno.variants import other

MODEL = "seed 004: uniform reset after every opponent move; after a draw, uniform over " \
        "hands with no card legal before the draw"


class SeedBelief:
    def __init__(self, observer: str) -> None:
        self.observer = observer
        self.opponent = other(observer)
        self.state: UnoState | None = None
        self.excluded: frozenset[str] = frozenset()

    def apply(self, event: UnoEvent) -> None:
        before = self.state
        self.state = evolve(self.state, event)
        by_opponent = getattr(event, "seat", None) == self.opponent
        reset = isinstance(event, DeckReshuffled) or (by_opponent and (
            isinstance(event, CardPlayed)
            or (isinstance(event, CardsDrawn | TurnPassed) and event.penalty)))
        if reset:
            self.excluded = frozenset()
        if isinstance(event, CardsDrawn) and event.seat == self.opponent and not event.penalty:
            assert before is not None
            self.excluded = legal_kinds(before.variant.deck.kinds(), before.top, before.colour)

    def unseen(self) -> Counter[str]:
        state = self.state
        assert state is not None
        pool = state.variant.deck.counts()
        pool.subtract(state.hands[self.observer] or ())
        pool.subtract(state.pile)
        return +pool

    def marginals(self) -> dict[str, dict[str, float]]:
        """opponent -> kind -> (expected copies, P(at least one)) under the seed's prior."""
        state = self.state
        assert state is not None
        unseen = self.unseen()
        allowed = {k: n for k, n in unseen.items() if k not in self.excluded}
        size = sum(allowed.values())
        k = state.counts[self.opponent]
        expected: dict[str, float] = {}
        at_least: dict[str, float] = {}
        for kind in state.variant.deck.kinds():
            a = allowed.get(kind, 0)
            expected[kind] = k * a / size if size else 0.0
            at_least[kind] = 1 - comb(size - a, k) / comb(size, k) if comb(size, k) else 0.0
        return {"expected": expected, "at_least_one": at_least}
