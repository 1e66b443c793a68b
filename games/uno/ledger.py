"""What one observer has seen, as sources, batches and timelines (input to counting.py).

Folded from the observer's own view. The cards it sees leave the hidden pool: its own hand
and draws, the starter, every card played. What it cannot see is split among the unknown
hands (the opponent; for the spectator both seats) and the deck. Each unknown hand is a list
of batches on a timeline with its plays and its "nothing to play" moments; the legal set of
such a moment is fixed by the top card and colour then.

A reshuffle happens when the deck is empty. A seat then knows the opponent's hand exactly
(everything it cannot see is in that hand), so the history before it no longer matters: a
new epoch starts with that hand as one batch of known content. The spectator knows only the
two hands' union, so its batches before the reshuffle stay, filled from the old source.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from games.interface import SPECTATOR
from games.uno.cards import legal_kinds
from games.uno.counting import DECK, Column, Position, Step
from games.uno.events import (
    CardPlayed,
    CardsDrawn,
    DeckReshuffled,
    HandDealt,
    MatchStarted,
    StarterTurned,
    TurnPassed,
    UnoEvent,
)
from games.uno.state import UnoState, evolve
from games.uno.variants import SEATS


@dataclass
class RawStep:
    what: str
    batch: int = -1
    kind: str = ""
    legal: frozenset[str] = frozenset()
    seq: int = 0


@dataclass
class Ledger:
    observer: str
    state: UnoState | None = None
    own: Counter[str] = field(default_factory=Counter)
    sources: list[Counter[str]] = field(default_factory=list)
    batches: list[Column] = field(default_factory=list)
    timelines: dict[str, list[RawStep]] = field(default_factory=dict)
    seq: int = 0

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(s for s in SEATS if s != self.observer)

    @property
    def ready(self) -> bool:
        return bool(self.sources)

    def apply(self, event: UnoEvent) -> None:
        before = self.state
        self.state = evolve(self.state, event)
        self.seq = event.seq
        if isinstance(event, MatchStarted):
            return
        if isinstance(event, HandDealt):
            if event.seat == self.observer and event.cards is not None:
                self.own = Counter(event.cards)
            return
        if isinstance(event, StarterTurned):
            self._deal(event.card)
            return
        assert before is not None
        if isinstance(event, CardPlayed):
            if event.seat in self.unknown:
                self.timelines[event.seat].append(RawStep("play", kind=event.card, seq=event.seq))
            else:
                self.own[event.card] -= 1
            return
        if isinstance(event, CardsDrawn):
            self._drawn(before, event)
            return
        if isinstance(event, TurnPassed):
            if event.seat in self.unknown and not event.penalty:
                self.timelines[event.seat].append(self._nothing(before, event.seq))
            return
        if isinstance(event, DeckReshuffled):
            self._reshuffled(before)

    def _deal(self, starter: str) -> None:
        assert self.state is not None
        spec = self.state.variant.deck
        pool = spec.counts()
        pool.subtract(self.own)
        pool[starter] -= 1
        self.sources = [+pool]
        size = spec.hand_size
        for seat in self.unknown:
            self.timelines[seat] = [RawStep("draw", batch=len(self.batches))]
            self.batches.append(Column(seat, size, 0))

    def _nothing(self, state: UnoState, seq: int) -> RawStep:
        kinds = state.variant.deck.kinds()
        return RawStep("none", legal=legal_kinds(kinds, state.top, state.colour), seq=seq)

    def _drawn(self, before: UnoState, event: CardsDrawn) -> None:
        current = len(self.sources) - 1
        if event.seat == self.observer:
            assert event.cards is not None
            self.sources[current].subtract(event.cards)
            self.own.update(event.cards)
            return
        steps = self.timelines[event.seat]
        if not event.penalty:
            steps.append(self._nothing(before, event.seq))
        steps.append(RawStep("draw", batch=len(self.batches), seq=event.seq))
        self.batches.append(Column(event.seat, event.count, current))

    def _reshuffled(self, before: UnoState) -> None:
        under = Counter(before.pile[:-1])
        if self.observer == SPECTATOR:
            self.sources.append(under)
            return
        # a seat: the opponent's hand is all it cannot see; a new epoch from that hand
        opponent = self.unknown[0]
        hand = before.variant.deck.counts()
        hand.subtract(self.own)
        hand.subtract(Counter(before.pile))
        self.sources = [+hand, under]
        self.batches = [Column(opponent, before.counts[opponent], 0)]
        self.timelines = {opponent: [RawStep("draw", batch=0, seq=self.seq)]}

    def position(self, relax_until: int = 0) -> Position:
        """The counting input. Batches no step of their owner separates are merged (exact);
        `relax_until` > 0 also merges batches drawn up to that seq into the batch before them,
        dropping the 'nothing to play' checks in between (a relaxation, for estimates)."""
        assert self.state is not None
        columns: list[Column] = []
        timelines: dict[str, list[Step]] = {}
        factor = 1
        into = [-1] * len(self.batches)
        for owner, raw in self.timelines.items():
            steps: list[Step] = []
            open_column = -1
            sizes: list[int] = []
            for i, step in enumerate(raw):
                if step.what == "draw":
                    batch = self.batches[step.batch]
                    adjacent = i > 0 and raw[i - 1].what == "draw"
                    merge = open_column >= 0 and columns[open_column].source == batch.source \
                        and (adjacent or step.seq <= relax_until)
                    if merge:
                        old = columns[open_column]
                        columns[open_column] = Column(owner, old.size + batch.size, old.source)
                        sizes.append(batch.size)
                        into[step.batch] = open_column
                        if step.seq <= relax_until:
                            steps = _drop_nothing_after(steps, open_column)
                        continue
                    factor *= _split_ways(sizes)
                    open_column, sizes = len(columns), [batch.size]
                    into[step.batch] = open_column
                    columns.append(batch)
                    steps.append(Step("draw", column=open_column, seq=step.seq))
                elif step.what == "play":
                    steps.append(Step("play", kind=step.kind, seq=step.seq))
                else:
                    steps.append(Step("none", legal=step.legal, seq=step.seq))
            factor *= _split_ways(sizes)
            timelines[owner] = steps
        columns.append(Column(DECK, self.state.deck_count, len(self.sources) - 1))
        kinds = self.state.variant.deck.kinds()
        return Position(kinds, [dict(s) for s in self.sources], columns, timelines, factor,
                        into)


def _drop_nothing_after(steps: list[Step], column: int) -> list[Step]:
    """Remove the 'nothing to play' checks after `column`'s draw (plays stay)."""
    at = next(i for i, s in enumerate(steps) if s.what == "draw" and s.column == column)
    return [*steps[:at + 1], *(s for s in steps[at + 1:] if s.what != "none")]


def _split_ways(sizes: list[int]) -> int:
    """Ways to split a merged column's labelled cards back into batches of these sizes."""
    ways = math.factorial(sum(sizes))
    for n in sizes:
        ways //= math.factorial(n)
    return ways
