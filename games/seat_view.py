"""One seat's own fold of the events it is sent, through the game interface alone.

A client, a bot at a table or a load generator sees exactly what that seat may see; this is
the one fold they share: whose turn it is, whether the match is over, and the legal moves,
all from the seat's own (redacted) events.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Generic

from games.interface import JSON, CommandT, EventT, Game, Seat, StateT


class SeatFold(Generic[StateT, CommandT, EventT]):
    """The state folded from one seat's events, in seq order with no gap."""

    def __init__(self, game: Game[StateT, CommandT, EventT], seat: Seat, *,
                 contiguous: bool = True) -> None:
        self.game = game
        self.seat = seat
        self.contiguous = contiguous
        """Whether each event must carry the next seq (False: positions built by hand, whose
        events carry none)."""
        self.state: StateT | None = None
        self.events: list[EventT] = []

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def fold(self, event: EventT) -> EventT:
        """Fold in the seat's next event (a ValueError if its seq leaves a gap)."""
        if self.contiguous and event.seq != self.last_seq + 1:
            raise ValueError(f"seq {event.seq} after {self.last_seq}: not contiguous")
        self.state = self.game.evolve(self.state, event)
        self.events.append(event)
        return event

    @property
    def finished(self) -> bool:
        return self.state is not None and self.game.is_over(self.state)

    def my_turn(self) -> bool:
        return self.state is not None and self.seat in self.game.to_act(self.state)

    def legal_commands(self) -> Sequence[CommandT]:
        """Every command the seat may send now (none when it is not its turn)."""
        state = self.state
        if state is None or not self.my_turn():
            return []
        return self.game.legal_moves(state, self.seat)

    def random_wire_move(self, rng: random.Random) -> JSON | None:
        """A random legal move as the `move` message's payload, or None if none is due."""
        commands = self.legal_commands()
        return self.game.command_to_wire(rng.choice(commands)) if commands else None
