"""A brute-force belief for small decks: every hand the unknown seats could hold after each
event, with the number of labelled deals and draws that lead to it.

Independent of games/uno/counting.py: it follows the match forward in time, dealing and
drawing every possible sub-multiset of the actual pool (weighted by how many labelled cards
give it: a product of binomials) and dropping the histories that a play or a "nothing to
play" contradicts. A world is (each unknown hand, the deck) as count vectors over the kinds.
Its cost grows with the pool, so it is used on the reduced deck only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from games.interface import SPECTATOR
from games.uno.cards import matches
from games.uno.events import (
    CardPlayed,
    CardsDrawn,
    DeckReshuffled,
    HandDealt,
    MatchEnded,
    MatchStarted,
    StarterTurned,
    TurnPassed,
)
from games.uno.state import evolve
from games.uno.variants import SEATS

Vec = tuple[int, ...]
World = tuple[tuple[Vec, ...], Vec]


@cache
def subsets(pool: Vec, size: int) -> tuple[tuple[Vec, int], ...]:
    """Every sub-multiset of `pool` with `size` cards, with its labelled ways."""
    out: list[tuple[Vec, int]] = []

    def walk(i: int, left: int, chosen: list[int], ways: int) -> None:
        if left == 0:
            out.append((tuple(chosen) + (0,) * (len(pool) - i), ways))
            return
        if i == len(pool):
            return
        for n in range(min(left, pool[i]) + 1):
            walk(i + 1, left - n, [*chosen, n], ways * math.comb(pool[i], n))

    walk(0, size, [], 1)
    return tuple(out)


def _sub(a: Vec, b: Vec) -> Vec:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _add(a: Vec, b: Vec) -> Vec:
    return tuple(x + y for x, y in zip(a, b, strict=True))


class BruteForce:
    """Fold an observer's view; `marginals()` at any point."""

    def __init__(self, observer: str) -> None:
        self.observer = observer
        self.unknown = list(SEATS) if observer == SPECTATOR else \
            [s for s in SEATS if s != observer]
        self.state: Any = None
        self.worlds: dict[World, int] = {}
        self.dealt: dict[str, list[str]] = {}
        self.kinds: tuple[str, ...] = ()

    def vec(self, cards: Sequence[str]) -> Vec:
        return tuple(list(cards).count(k) for k in self.kinds)

    def _add_world(self, into: dict[World, int], key: World, ways: int) -> None:
        into[key] = into.get(key, 0) + ways

    def apply(self, event: Any) -> None:
        before = self.state
        self.state = evolve(self.state, event)
        if isinstance(event, MatchStarted):
            self.kinds = self.state.variant.deck.kinds()
            return
        if isinstance(event, MatchEnded):
            return
        if isinstance(event, HandDealt):
            self.dealt[event.seat] = event.cards or []
            if len(self.dealt) == len(SEATS):
                self._deal()
            return
        if isinstance(event, StarterTurned):
            self._known_left(self.vec([event.card]))
            return
        if isinstance(event, CardPlayed):
            if event.seat in self.unknown:
                self._played(self.unknown.index(event.seat), self.kinds.index(event.card))
            return
        if isinstance(event, TurnPassed | CardsDrawn) and event.seat in self.unknown \
                and not event.penalty:
            self._nothing(self.unknown.index(event.seat), before)
        if isinstance(event, CardsDrawn):
            if event.seat in self.unknown:
                self._drawn(self.unknown.index(event.seat), event.count)
            else:
                self._known_left(self.vec(event.cards or []))
        if isinstance(event, DeckReshuffled):
            under = self.vec(list(before.pile[:-1]))
            worlds: dict[World, int] = {}
            for (hands, deck), ways in self.worlds.items():
                assert not any(deck), "a reshuffle with cards left in the deck"
                self._add_world(worlds, (hands, under), ways)
            self.worlds = worlds

    def _deal(self) -> None:
        spec = self.state.variant.deck
        pool = self.vec(spec.cards())
        if self.observer in self.dealt and self.observer != SPECTATOR:
            pool = _sub(pool, self.vec(self.dealt[self.observer]))
        worlds: dict[World, int] = {((), pool): 1}
        for _seat in self.unknown:
            nxt: dict[World, int] = {}
            for (hands, deck), ways in worlds.items():
                for hand, w in subsets(deck, spec.hand_size):
                    self._add_world(nxt, ((*hands, hand), _sub(deck, hand)), ways * w)
            worlds = nxt
        self.worlds = worlds

    def _known_left(self, cards: Vec) -> None:
        """Cards the observer sees leave the deck: weighted by their copies there."""
        worlds: dict[World, int] = {}
        for (hands, deck), ways in self.worlds.items():
            w = math.prod(math.comb(d, c) for d, c in zip(deck, cards, strict=True))
            if w:
                self._add_world(worlds, (hands, _sub(deck, cards)), ways * w)
        self.worlds = worlds

    def _played(self, i: int, k: int) -> None:
        worlds: dict[World, int] = {}
        for (hands, deck), ways in self.worlds.items():
            if hands[i][k] >= 1:
                hand = tuple(n - (j == k) for j, n in enumerate(hands[i]))
                self._add_world(worlds, ((*hands[:i], hand, *hands[i + 1:]), deck), ways)
        self.worlds = worlds

    def _nothing(self, i: int, state: Any) -> None:
        legal = [j for j, k in enumerate(self.kinds) if matches(k, state.top, state.colour)]
        self.worlds = {key: ways for key, ways in self.worlds.items()
                       if not any(key[0][i][j] for j in legal)}

    def _drawn(self, i: int, count: int) -> None:
        worlds: dict[World, int] = {}
        for (hands, deck), ways in self.worlds.items():
            for drawn, w in subsets(deck, count):
                hand = _add(hands[i], drawn)
                self._add_world(worlds, ((*hands[:i], hand, *hands[i + 1:]),
                                         _sub(deck, drawn)), ways * w)
        self.worlds = worlds

    def total(self) -> int:
        return sum(self.worlds.values())

    def marginals(self) -> dict[str, dict[str, tuple[Fraction, Fraction]]]:
        """owner ("deck" too) -> kind -> (expected copies, P(at least one)), exactly."""
        total = self.total()
        assert total, "no world fits the history"
        out: dict[str, dict[str, tuple[Fraction, Fraction]]] = {}
        for h, owner in enumerate([*self.unknown, "deck"]):
            row = {}
            for j, kind in enumerate(self.kinds):
                e = p = 0
                for (hands, deck), ways in self.worlds.items():
                    n = (hands[h] if owner != "deck" else deck)[j]
                    e += ways * n
                    p += ways if n else 0
                row[kind] = (Fraction(e, total), Fraction(p, total))
            out[owner] = row
        return out
