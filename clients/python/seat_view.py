"""A seat's picture of its table, folded from the events it receives: enough to play legally.

Legal moves depend only on the seat's own hand and the open ends, both in its own view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.dominoes.commands import Move
from games.dominoes.events import Event, parse_event
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.state import MatchState
from server.protocol import EventMessage


@dataclass
class SeatView:
    seat: str
    state: MatchState | None = None
    events: list[Event] = field(default_factory=list)

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def apply(self, message: EventMessage) -> Event:
        """Fold one `event` message in; it must be the next seq."""
        event = parse_event(message.event)
        if event.seq != self.last_seq + 1:
            raise ValueError(f"seq {event.seq} after {self.last_seq}: not contiguous")
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.phase == "finished"

    def my_turn(self) -> bool:
        return self.state is not None and self.state.to_move == self.seat

    def moves(self) -> list[Move]:
        return legal_moves(self.state, self.seat) if self.my_turn() else []  # type: ignore[arg-type]

    def random_move(self, rng: random.Random) -> Move | None:
        """A random legal move, or None when the seat must pass (or it is not its turn)."""
        moves = self.moves()
        return rng.choice(moves) if moves else None
