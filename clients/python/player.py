"""A bot as a client: plays one seat over the socket with random legal moves until the end.

Used by the end-to-end tests and the loadtest; it sees only what the server sends its seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from clients.python.client import DominoClient, ServerError
from clients.python.seat_view import SeatView
from protocol import EventMessage, ServerMessage

STALE_VIEW_CODES = frozenset({"not_your_turn", "illegal_move", "wrong_phase"})


async def play_until_finished(
    client: DominoClient,
    table_id: str,
    view: SeatView,
    rng: random.Random,
    *,
    timeout: float = 30,
    on_message: Callable[[ServerMessage], None] | None = None,
    stop_after_moves: int | None = None,
) -> int:
    """Read this seat's feed and move whenever it is its turn; returns the moves made.

    Acts at most once per seq seen, and only with nothing left unread, so the view is as
    fresh as it can be. A view can still be one message behind (the move that ends a hand
    arrives just before hand_ended): a refusal then is normal, and the next event retries.
    """
    moves = 0
    acted_at = -1
    while not view.finished:
        if stop_after_moves is not None and moves >= stop_after_moves:
            return moves
        message = await client.next_message(timeout)
        if on_message is not None:
            on_message(message)
        if isinstance(message, EventMessage) and message.table_id == table_id:
            view.apply(message)
        if view.my_turn() and view.last_seq > acted_at and client.feed.empty():
            acted_at = view.last_seq
            move = view.random_move(rng)
            try:
                if move is None:
                    await client.pass_(table_id)
                else:
                    await client.play(table_id, str(move.tile), move.end)
            except ServerError as error:
                if error.code not in STALE_VIEW_CODES:
                    raise
                continue
            moves += 1
    return moves
