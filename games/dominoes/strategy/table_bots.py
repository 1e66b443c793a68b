"""Dominoes' bots behind the game interface (games.interface.Bot): what tables seat, and what
the arena and calibrate play.

Each wraps one of this package's bots (games.dominoes.strategy.bots) by name. It offers the
three ways the generic layers ask for a move:
- `choose(view, seat, rng)`: from the seat's own events (the arena, calibrate, games.play);
- `seat_view(seat)` and `choose_in(view, rng)`: from the table's own running fold of the
  seat's view, on the event loop (random and greedy decide in microseconds);
- `choose_wire(events, seat, seed)`: pimc and pimc-behaviour search 150,000 solver nodes a
  decision (about 0.6 s of an idle core), so the server runs them in its strategy worker
  processes with the seat's events as dicts, and gets the move back as the wire payload
  (None: no move).

Their budgets are work (deals and solver nodes, games.dominoes.strategy.bots), never time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.dominoes.commands import Command
from games.dominoes.events import parse_event
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.bots import (
    MINIMAX_NODES,
    PIMC_NODES,
    PIMC_SAMPLES,
    PLAYOUT_SAMPLES,
    TABLE_BOTS,
    NoMoveError,
    make_bot,
)
from games.dominoes.tiles import SEATS
from games.dominoes.tiles import Seat as DominoSeat
from games.interface import JSON, Seat

BUDGETS: dict[str, dict[str, int]] = {
    "pimc": {"nodes": PIMC_NODES, "samples": PIMC_SAMPLES},
    "pimc-behaviour": {"nodes": PIMC_NODES, "samples": PIMC_SAMPLES},
    "playout": {"samples": PLAYOUT_SAMPLES},
    "minimax": {"nodes": MINIMAX_NODES, "samples": PLAYOUT_SAMPLES},
}
"""The thinking bots' work budgets at a table, by the names they take them under."""
POOLED = frozenset(BUDGETS)
"""The bots whose table decisions run in the server's strategy processes (they think for up
to a second or two: seed 001's playout 200 scenarios, its minimax 150,000 solver nodes)."""


class TableBot:
    """The bot `name` of games.dominoes.strategy.bots with these `options` (budgets)."""

    def __init__(self, name: str, **options: Any) -> None:
        self.name = name
        self.options = options

    def __repr__(self) -> str:
        return f"TableBot({self.name!r})"

    def with_budgets(self, nodes: float | None = None, samples: float | None = None
                     ) -> TableBot:
        """This bot thinking within other work budgets — solver `nodes` and deals (`samples`)
        per decision — (a bot that does not think: itself)."""
        if self.name not in POOLED:
            return self
        budgets = {"nodes": None if nodes is None else int(nodes),
                   "samples": None if samples is None else int(samples)}
        return TableBot(self.name, **{**self.options,
                                      **{k: v for k, v in budgets.items()
                                         if v is not None and k in BUDGETS[self.name]}})

    def seat_view(self, seat: Seat) -> SeatView:
        """The fold a table keeps of the seat's view for this bot."""
        return SeatView(_seat(seat))

    def choose_in(self, view: SeatView, rng: random.Random) -> Command:
        """The seat's command from its running fold (its turn: the table asks only then)."""
        command = make_bot(self.name, **self.options).act(view, rng)
        if command is None:
            raise NoMoveError(f"{self.name} at {view.seat} was asked to move out of turn")
        return command

    def choose(self, view: Sequence[Any], seat: Seat, rng: random.Random) -> Command:
        return self.choose_in(SeatView.from_events(view, _seat(seat)), rng)

    def choose_wire(self, events: Sequence[JSON], seat: Seat, seed: int) -> JSON | None:
        """The move from the seat's events as dicts, as the wire payload (None: none to
        make). Runs in a worker process: the bot is made there, seeded by `seed`."""
        bot = make_bot(self.name, seed, **self.options)
        try:
            move = bot.choose_move([parse_event(e) for e in events], _seat(seat))
        except NoMoveError:
            return None
        return {"kind": "play", "tile": str(move.tile), "end": move.end}


def _seat(seat: Seat) -> DominoSeat:
    """A seat name from the interface, checked (a typed error, never a bad fold)."""
    if seat not in SEATS:
        raise NoMoveError(f"no seat {seat!r} at dominoes")
    return seat


def table_bots() -> dict[str, TableBot]:
    """Name -> bot for exactly the bots a table may seat (never omniscient)."""
    return {name: TableBot(name, **BUDGETS.get(name, {})) for name in TABLE_BOTS}
