"""What one seat has seen: its redacted events, folded into a table state and (on demand) a belief.

Bots decide from this and nothing else. Every event is passed through games.dominoes.audience.view
on the way in, so feeding a SeatView the referee's log cannot leak another seat's tiles —
unless it is built for the 'referee' audience, which only the measuring-only omniscient bot is.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.dominoes.adapter import RULES
from games.dominoes.audience import view
from games.dominoes.belief_partnership import Belief
from games.dominoes.belief_two import TwoPlayerBelief
from games.dominoes.commands import Command, Move
from games.dominoes.events import Event, HandStarted, TilePlayed
from games.dominoes.rules import legal_moves
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS
from games.seat_view import SeatFold


class SeatView(SeatFold[MatchState, Command, Event]):
    """The fold of one seat's view of a match (games.seat_view's, through the dominoes
    game); `belief()` is kept up to date lazily. `seat` is any audience's name: a spectator's
    view has no moves (tiles.as_seat where a seat is needed)."""

    def __init__(self, seat: str, audience: str | None = None) -> None:
        super().__init__(RULES, seat, contiguous=False)  # also hand-built positions
        self.audience = audience or seat
        self._hand_start = 0
        self._belief: Belief | TwoPlayerBelief | None = None
        self._fed = 0

    @classmethod
    def from_events(
        cls, events: Iterable[Event], seat: str, audience: str | None = None
    ) -> SeatView:
        seat_view = cls(seat, audience)
        for event in events:
            seat_view.apply(event)
        return seat_view

    def apply(self, event: Event) -> None:
        event = view(event, self.audience)
        if isinstance(event, HandStarted):
            self._hand_start = len(self.events)
        self.fold(event)

    def legal_moves(self) -> list[Move]:
        seat = self.seat  # a spectator's view (behaviour odds) has none
        return [] if self.state is None or seat not in SEATS else legal_moves(self.state, seat)

    def hand_events(self) -> list[Event]:
        """The current hand's events so far (from its hand_started), in order."""
        return self.events[self._hand_start :]

    def plays(self) -> list[TilePlayed]:
        """The tiles played so far in the current hand, in order."""
        return [e for e in self.hand_events() if isinstance(e, TilePlayed)]

    def belief(self) -> Belief | TwoPlayerBelief:
        """This seat's belief about the unseen tiles (exact posterior; games.dominoes
        .belief_partnership, or .belief_two for two players: both work with DealSampler.of)."""
        if self._belief is None:
            variant = self.state.variant if self.state is not None else None
            if variant is not None and not variant.partnership:
                self._belief = TwoPlayerBelief(self.seat, variant)
            else:
                self._belief = Belief(self.seat, variant) if variant else Belief(self.seat)
        # only the current hand matters to a belief (hand_started resets it)
        start = max(self._fed, self._hand_start)
        for event in self.events[start:]:
            self._belief.apply(view(event, self.seat))
        self._fed = len(self.events)
        return self._belief
