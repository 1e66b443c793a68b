"""One observer's exact belief about the unseen dominoes of the hand in play.

All 28 dominoes are dealt, so the unseen ones are exactly the other hands. What the plays
tell: a seat that does not follow the led suit holds none of that suit (under the trump in
force) from then on, since dominoes only leave a hand. Each such void removes the seat from
the allowed holders of every unseen domino of that suit, so the posterior is uniform over the
assignments of unseen dominoes to hands with those allowed sets and the known hand sizes:
exactly the items-and-holders counting of `inference.counting` (class-count DP, exact ints).

The bids are information too, and this model ignores them: its label says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from games.texas42.dominoes import SEATS, TILES, Tile
from games.texas42.events import Event, Played
from games.texas42.rules import evolve
from games.texas42.state import State
from games.texas42.suits import TRUMP_SUIT, follows, led_suit, suit_words, trump_name
from inference.classes import Position
from inference.counting import marginals, tile_counts

MODEL = "uniform over deals consistent with the plays"
"""The belief's label: the bids (and how anyone chooses a play) are not used."""


@dataclass
class Voids:
    """The suits (led suit values under the hand's trump) each seat has shown it lacks."""

    by_seat: dict[str, set[int]] = field(default_factory=dict)

    def add(self, seat: str, suit: int) -> None:
        self.by_seat.setdefault(seat, set()).add(suit)

    def of(self, seat: str) -> set[int]:
        return self.by_seat.get(seat, set())


def void_shown(state: State, event: Played) -> int | None:
    """The led suit `event`'s player shows it lacks (None if it followed, or it led)."""
    if not state.trick or state.trump is None:
        return None
    suit = led_suit(state.trick[0][1], state.trump)
    tile = Tile(*sorted(int(x) for x in event.tile.split("-")))
    return None if follows(tile, suit, state.trump) else suit


def position_of(state: State, observer: str, voids: Voids) -> Position[Tile] | None:
    """The counting problem of the hand in play, or None when no hand is in play."""
    if state.phase not in ("bidding", "trump", "playing") or len(state.counts) < 4:
        return None
    own = state.hands.get(observer) or frozenset()
    holders = tuple(s for s in SEATS if s != observer)
    played = set(state.played)
    unseen = [t for t in TILES if t not in own and t not in played]
    every = (1 << len(holders)) - 1
    allowed: dict[Tile, int] = {}
    for tile in unseen:
        mask = every
        for i, seat in enumerate(holders):
            if state.trump is not None and any(follows(tile, s, state.trump)
                                               for s in voids.of(seat)):
                mask &= ~(1 << i)
        allowed[tile] = mask
    return Position(holders, allowed, tuple(state.counts[h] for h in holders))


def void_facts(state: State, voids: Voids) -> list[str]:
    """Voids in words: "E is out of trumps", "W has no 5s"."""
    out = []
    for seat in SEATS:
        suits = voids.of(seat)
        if TRUMP_SUIT in suits and state.trump is not None:
            out.append(f"{seat} is out of trumps ({trump_name(state.trump)})")
        out.extend(f"{seat} has no {suit_words(s)}" for s in sorted(suits)
                   if s != TRUMP_SUIT)
    return out


def certain_facts(position: Position[Tile]) -> list[str]:
    """Dominoes only one seat can hold."""
    by_holder: dict[str, list[str]] = {}
    for tile, mask in sorted(position.allowed.items()):
        if mask and mask & (mask - 1) == 0:
            by_holder.setdefault(position.holders[mask.bit_length() - 1], []).append(str(tile))
    return [f"{h} surely holds {', '.join(tiles)}" for h, tiles in by_holder.items()]


class Texas42Belief:
    """The exact belief of `observer` (a seat or the spectator), fed its own view's events."""

    costly = False
    """An update takes about a millisecond."""

    def __init__(self, observer: str) -> None:
        self.observer = observer
        self.state: State | None = None
        self.voids = Voids()
        self.seq = 0

    def apply(self, event: Event) -> None:
        if event.type == "hand_started":
            self.voids = Voids()
        if isinstance(event, Played) and self.state is not None:
            suit = void_shown(self.state, event)
            if suit is not None:
                self.voids.add(event.seat, suit)
        self.state = evolve(self.state, event)
        self.seq = event.seq

    def position(self) -> Position[Tile] | None:
        return None if self.state is None else position_of(self.state, self.observer,
                                                             self.voids)

    def snapshot_dict(self) -> dict[str, Any]:
        state = self.state
        position = self.position()
        head: dict[str, Any] = {"seq": self.seq, "observer": self.observer, "model": MODEL,
                                "hand": state.hand if state else None,
                                "status": "live" if position is not None else "idle",
                                "phase": state.phase if state else None,
                                "trump": (trump_name(state.trump) if state and
                                          state.trump is not None else None)}
        if state is None or position is None:
            return {**head, "consistent_deals": None, "entropy_bits": None, "remaining": {},
                    "marginals": {}, "facts": []}
        total, _ = tile_counts(position)
        probs = marginals(position)
        return {**head, "consistent_deals": total, "entropy_bits": math.log2(total),
                "remaining": {h: state.counts[h] for h in SEATS},
                "marginals": {h: {str(t): p for t, p in sorted(row.items())}
                              for h, row in probs.items()},
                "facts": void_facts(state, self.voids) + certain_facts(position)}
