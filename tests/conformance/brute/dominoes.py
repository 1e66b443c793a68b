"""Dominoes (every variant) late in a hand: the tiles the observer has not seen handed out
every way the hand sizes allow (the sleeping tiles too), each deal's moves replayed through
games.dominoes.rules; a deal counts when the rules, dealt it, write every move the observer
saw. No draws: draw-2 is checked before the hand's first draw."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from games.dominoes.commands import PassTurn, PlayTile
from games.dominoes.errors import RuleViolation
from games.dominoes.events import HandDealt, HandStarted
from games.dominoes.rules import decide, evolve, first_leader
from games.dominoes.tiles import Tile, parse_tile
from games.dominoes.variants import get_variant
from games.interface import SPECTATOR
from inference.classes import POOL
from tests.conformance.brute import Truth, shares
from tests.conformance.cases import Match

BUDGET = 1000
"""Most deals replayed for one position. (Double-nine's 15 sleeping tiles make late
positions larger: in the first match only N has one within it; 2,500 would add S and E for
a minute of replays.)"""
HANDS = 1
"""Hands checked per audience: the latest position within the budget of the first hand
that has one."""


def _multinomial(n: int, parts: list[int]) -> int:
    out = 1
    for k in parts:
        out *= math.comb(n, k) if 0 <= k <= n else 0
        n -= k
    return out


def _assignments(tiles: list[Tile], counts: dict[str, int]) -> Iterator[dict[str, tuple]]:
    holders = list(counts)
    if not holders:
        yield {}
        return
    for chosen in itertools.combinations(tiles, counts[holders[0]]):
        rest = [t for t in tiles if t not in chosen]
        for tail in _assignments(rest, {h: counts[h] for h in holders[1:]}):
            yield {holders[0]: chosen, **tail}


class _Hand:
    def __init__(self, match: Match, start: int) -> None:
        self.match = match
        self.variant = get_variant(match.case.variant)
        events = match.events
        self.started = events[start]
        assert isinstance(self.started, HandStarted)
        self.at_start = match.states()[start + 1]
        end = next(i for i in range(start, len(events)) if events[i].type == "hand_ended")
        self.events = events[start:end]  # up to, not including, hand_ended
        draw = next((i for i, e in enumerate(self.events) if e.type == "tiles_drawn"), None)
        self.usable = self.events[:draw] if draw is not None else self.events

    def unseen(self, audience: str, cut: int) -> tuple[list[Tile], dict[str, int],
                                                        dict[str, set[Tile]], frozenset]:
        """Tiles the audience has not seen after seq `cut`, each unknown holder's count,
        the tiles each seat played, and the audience's own hand as dealt."""
        seats = self.variant.seats
        played: dict[str, set[Tile]] = {s: set() for s in seats}
        own: frozenset[Tile] = frozenset()
        for e in self.events:
            if e.seq > cut:
                break
            if e.type == "tile_played":
                played[e.seat].add(parse_tile(e.tile))
            if e.type == "hand_dealt" and e.seat == audience:
                own = frozenset(parse_tile(t) for t in e.tiles)
        counts = {s: self.variant.hand_size - len(played[s]) for s in seats if s != audience}
        if self.variant.pool_size:
            counts[POOL] = self.variant.pool_size
        gone = own | set().union(*played.values())
        return [t for t in self.variant.tiles if t not in gone], counts, played, own

    def cuts(self, audience: str) -> list[int]:
        """Seqs after the hand's first move, before its first draw and its end."""
        first = next((e.seq for e in self.usable if e.type in ("tile_played", "passed")), None)
        return [] if first is None else [e.seq for e in self.usable if e.seq >= first]

    def moves(self, cut: int) -> list[tuple[Any, Any]]:
        """Each move up to seq `cut` as a command, with the events the audience saw it write."""
        events = self.match.events
        out = []
        for e in self.events:
            if e.seq > cut:
                break
            if e.type in ("tile_played", "passed"):
                command = PassTurn(e.seat) if e.type == "passed" else \
                    PlayTile(e.seat, parse_tile(e.tile), e.end)
                out.append((command, events[e.seq - 1:cut]))
        return out

    def consistent(self, hands: dict[str, frozenset[Tile]], moves: list[tuple[Any, Any]]
                   ) -> bool:
        """Whether the rules, dealt `hands`, write every move as it was logged (the events a
        move wrote are public: the audience saw them as the referee did)."""
        if self.started.hand == 1 and first_leader(hands) != self.started.leader:
            return False
        state = self.at_start
        for seat in self.variant.seats:
            state = evolve(state, HandDealt(hand=self.started.hand, seat=seat,
                                            tiles=[str(t) for t in sorted(hands[seat])]))
        for command, logged in moves:
            try:
                produced = decide(state, command)
            except RuleViolation:
                return False
            for event, seen in zip(produced, logged, strict=False):
                if event.model_copy(update={"seq": seen.seq}) != seen:
                    return False
                state = evolve(state, event)
        return True


class DominoesCounter:
    too_large: ClassVar[Mapping[str, str]] = {}

    def positions(self, match: Match, audience: str) -> Iterator[tuple[int, Truth]]:
        found = 0
        for start, event in enumerate(match.events):
            if found == HANDS:
                return
            if not isinstance(event, HandStarted):
                continue
            hand = _Hand(match, start)
            for cut in reversed(hand.cuts(audience)):
                unseen, counts, _, _ = hand.unseen(audience, cut)
                if _multinomial(len(unseen), list(counts.values())) <= BUDGET:
                    yield cut, self._truth(hand, audience, cut)
                    found += 1
                    break

    @staticmethod
    def _truth(hand: _Hand, audience: str, cut: int) -> Truth:
        unseen, counts, played, own = hand.unseen(audience, cut)
        moves = hand.moves(cut)
        hits: dict[str, dict[str, int]] = {h: {} for h in counts}
        total = 0
        for assignment in _assignments(unseen, counts):
            hands = {s: frozenset(assignment.get(s, ())) | played[s]
                     for s in hand.variant.seats}
            if audience != SPECTATOR:
                hands[audience] = own
            if not hand.consistent(hands, moves):
                continue
            total += 1
            for holder, tiles in assignment.items():
                for t in tiles:
                    hits[holder][str(t)] = hits[holder].get(str(t), 0) + 1
        assert total, "the real deal is always consistent"
        return {"marginals": shares(hits, total)}


COUNTER = DominoesCounter()
