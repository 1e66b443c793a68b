"""A match's state as any audience can rebuild it from its own view, and `evolve`.

Total and pure: replay is a fold. A seat's view folds to the same public state as the
referee's, with unknown hands and the envelope left as None.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from games.clue.cards import LEGACY, Deck
from games.clue.events import (
    Accused,
    CardShown,
    ClueEvent,
    Dealt,
    MatchEnded,
    MatchStarted,
    Suggested,
    TurnPassed,
)
from games.clue.variants import VARIANTS
from games.fairness.scheme import Scheme, scheme_named

Phase = Literal["deal", "turn", "refute", "after", "over"]


@dataclass(frozen=True)
class Pending:
    """The suggestion being answered (phase 'refute') or just answered (phase 'after')."""

    seat: str
    cards: tuple[str, str, str]
    refuter: str | None


@dataclass(frozen=True)
class ClueState:
    match_id: str
    variant: str
    deck: Deck
    seats: tuple[str, ...]
    players: dict[str, str]
    phase: Phase = "deal"
    hand_sizes: dict[str, int] = field(default_factory=dict)
    hands: dict[str, frozenset[str] | None] = field(default_factory=dict)
    envelope: tuple[str, ...] | None = None
    secret: str | None = None
    turn: str = "P1"
    pending: Pending | None = None
    out: frozenset[str] = frozenset()
    winner: str | None = None
    scheme: Scheme = LEGACY
    """How the match deals (`match_started.fairness`; none named: CPython's old shuffle)."""

    def next_active(self, seat: str, out: frozenset[str] | None = None) -> str | None:
        """The next seat after `seat` still in the game (None when all are out)."""
        out = self.out if out is None else out
        i = self.seats.index(seat)
        for k in range(1, len(self.seats) + 1):
            s = self.seats[(i + k) % len(self.seats)]
            if s not in out:
                return s
        return None

    def refute_order(self, seat: str) -> tuple[str, ...]:
        """The seats asked to refute `seat`'s suggestion, clockwise (out players too)."""
        i = self.seats.index(seat)
        return tuple(self.seats[(i + k) % len(self.seats)] for k in range(1, len(self.seats)))


def _seat_key(seat: str) -> int:
    return int(seat[1:])


def evolve(state: ClueState | None, event: ClueEvent) -> ClueState:
    if isinstance(event, MatchStarted):
        seats = tuple(sorted(event.players, key=_seat_key))
        return ClueState(event.match_id, event.variant, VARIANTS[event.variant].deck, seats,
                         dict(event.players), turn=seats[0],
                         scheme=scheme_named(event.fairness, LEGACY))
    if state is None:
        raise ValueError(f"{event.type} before match_started")
    if isinstance(event, Dealt):
        hands = {s: (None if h is None else frozenset(h)) for s, h in event.hands.items()}
        return replace(state, phase="turn", hand_sizes=dict(event.hand_sizes), hands=hands,
                       envelope=tuple(event.envelope) if event.envelope else None,
                       secret=event.secret)
    if isinstance(event, Suggested):
        pending = Pending(event.seat, (event.suspect, event.weapon, event.room), event.refuter)
        return replace(state, phase="refute" if event.refuter else "after", pending=pending)
    if isinstance(event, CardShown):
        return replace(state, phase="after")
    if isinstance(event, Accused):
        envelope = state.envelope
        if event.correct:
            envelope = (event.suspect, event.weapon, event.room)
        elif event.envelope:
            envelope = tuple(event.envelope)
        # the match is over at once when the accusation is right or leaves nobody in: nobody
        # is to act between this event and the match_ended that follows it
        if event.correct:
            return replace(state, envelope=envelope, winner=event.seat, pending=None,
                           phase="over")
        out = state.out | {event.seat}
        nxt = state.next_active(event.seat, out)
        return replace(state, envelope=envelope, out=out, pending=None,
                       phase="turn" if nxt else "over", turn=nxt or state.turn)
    if isinstance(event, TurnPassed):
        return replace(state, phase="turn", turn=event.to, pending=None)
    if isinstance(event, MatchEnded):
        return replace(state, phase="over", winner=event.winner, envelope=tuple(event.envelope),
                       pending=None, secret=event.seed or state.secret)
    raise ValueError(f"not a Clue event: {event!r}")
