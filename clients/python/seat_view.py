"""A seat's picture of its table, folded from the `event` messages it receives.

Any game through the interface (games.seat_view.SeatFold); dominoes, the default, also
offers its moves as tiles and ends, which the end-to-end tests use to send `play`/`pass`.
"""

from __future__ import annotations

import random
from typing import Any

from games.dominoes.commands import Move
from games.dominoes.game import DOMINOES
from games.dominoes.rules import legal_moves
from games.dominoes.tiles import as_seat
from games.interface import Game, Seat
from games.seat_view import SeatFold
from protocol import EventMessage


class SeatView(SeatFold):
    def __init__(self, seat: Seat, game: Game = DOMINOES) -> None:
        super().__init__(game, seat)

    def apply(self, message: EventMessage) -> Any:
        """Fold one `event` message in; it must be the next seq."""
        return self.fold(self.game.parse_event(message.event))

    def moves(self) -> list[Move]:
        """Dominoes: the legal plays as tiles and ends (empty when the seat must pass)."""
        state = self.state
        if state is None or not self.my_turn():
            return []
        return legal_moves(state, as_seat(self.seat))

    def random_move(self, rng: random.Random) -> Move | None:
        """Dominoes: a random legal play, or None when the seat must pass (or not its turn)."""
        moves = self.moves()
        return rng.choice(moves) if moves else None
