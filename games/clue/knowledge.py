"""What one observer has seen, as plain data: the input of the exact belief and the facts.

Folded from the observer's own view (a seat or the spectator): the public hand sizes, cards
whose holder it has seen (its own hand, cards shown to it, the envelope when opened to it),
per-seat exclusions ("could not refute"), open disjunctions ("showed one of three" when the
card was not shown to it) and wrong accusations ("the envelope is not these three").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.clue.cards import Deck
from games.clue.events import (
    Accused,
    CardShown,
    ClueEvent,
    Dealt,
    MatchEnded,
    MatchStarted,
    Suggested,
)
from games.clue.variants import VARIANTS

ENVELOPE = "envelope"


@dataclass(frozen=True)
class Refutation:
    """`seat` holds at least one of `cards` (it refuted `suggester`'s suggestion at `seq`)."""

    seat: str
    cards: tuple[str, str, str]
    suggester: str
    seq: int


@dataclass
class Knowledge:
    observer: str
    deck: Deck | None = None
    seats: tuple[str, ...] = ()
    hand_sizes: dict[str, int] = field(default_factory=dict)
    seen: dict[str, str] = field(default_factory=dict)
    """card -> holder (a seat or ENVELOPE) the observer has seen it with."""
    seen_why: dict[str, str] = field(default_factory=dict)
    excluded: dict[str, set[str]] = field(default_factory=dict)
    """seat -> cards it could not refute with."""
    passes: list[tuple[str, tuple[str, str, str], str, int]] = field(default_factory=list)
    """(seat, triple, suggester, seq) for every 'could not refute'."""
    refutations: list[Refutation] = field(default_factory=list)
    suggestions: list[tuple[str, tuple[str, str, str], str | None, int]] = field(
        default_factory=list)
    """(suggester, triple, refuter, seq) for every suggestion."""
    wrong_accusations: list[tuple[str, tuple[str, str, str]]] = field(default_factory=list)
    seq: int = 0
    dealt: bool = False
    over: bool = False

    def apply(self, event: ClueEvent) -> None:
        self.seq = event.seq
        if isinstance(event, MatchStarted):
            self.deck = VARIANTS[event.variant].deck
            self.seats = tuple(sorted(event.players, key=lambda s: int(s[1:])))
            self.excluded = {s: set() for s in self.seats}
        elif isinstance(event, Dealt):
            self.dealt = True
            self.hand_sizes = dict(event.hand_sizes)
            for seat, hand in event.hands.items():
                for card in hand or ():
                    self._see(card, seat, "in your hand" if seat == self.observer
                              else f"dealt to {seat}")
            for card in event.envelope or ():
                self._see(card, ENVELOPE, "the envelope")
        elif isinstance(event, Suggested):
            triple = (event.suspect, event.weapon, event.room)
            self.suggestions.append((event.seat, triple, event.refuter, event.seq))
            for seat in event.passed:
                self.excluded[seat].update(triple)
                self.passes.append((seat, triple, event.seat, event.seq))
            if event.refuter is not None:  # it holds one of the three, whatever it shows
                self.refutations.append(Refutation(event.refuter, triple, event.seat, event.seq))
        elif isinstance(event, CardShown):
            if event.card is not None:
                self._see(event.card, event.seat, f"{event.seat} showed it to {event.to}")
        elif isinstance(event, Accused):
            triple = (event.suspect, event.weapon, event.room)
            if event.correct:
                for card in triple:
                    self._see(card, ENVELOPE, f"{event.seat}'s accusation was right")
            else:
                self.wrong_accusations.append((event.seat, triple))
                for card in event.envelope or ():
                    self._see(card, ENVELOPE, "you looked in the envelope")
        elif isinstance(event, MatchEnded):
            self.over = True
            for card in event.envelope:
                self._see(card, ENVELOPE, "the envelope was opened")

    def _see(self, card: str, holder: str, why: str) -> None:
        if card not in self.seen:
            self.seen[card] = holder
            self.seen_why[card] = why

    @property
    def holders(self) -> tuple[str, ...]:
        return (*self.seats, ENVELOPE)
