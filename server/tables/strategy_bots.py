"""The strategy's bots (strategy.TABLE_BOTS: random, greedy, pimc, pimc-behaviour) as table
policies.

A SeatBot (server/tables/bots.py) folds its seat's own events into a SeatView, exactly as a
connection of that seat receives them (redacted by the bus), and asks its policy to `decide`
from that view. random and greedy
decide in-line (a fold of the seat's view and a few microseconds of rules); pimc and
pimc-behaviour (pimc on deals from the behaviour posterior) think for up to ~0.6 s, so a
decision runs in the strategy process pool (server/strategy_processes.py) with
the seat's events as JSON-able dicts, and the event loop stays free. Should the pool fail,
or not give the table a worker within a second (it is shared: strategy_processes.Admission),
the bot plays the greedy move instead of stalling its table, and says so in the log.
"""

from __future__ import annotations

import random

from games.dominoes.commands import Command, DrawTiles, PassTurn, PlayTile
from games.dominoes.events import event_to_dict
from games.dominoes.rules import legal_moves, must_draw
from games.dominoes.tiles import Seat, parse_tile
from server import strategy_processes
from server.logs import log
from strategy.bots import TABLE_BOTS, Bot, make_bot
from strategy.view import SeatView

POOLED = strategy_processes.POOLED_BOTS
"""Bots whose decisions run in the process pool (the job takes the bot's name)."""

class StrategySeatView(SeatView):
    """strategy's fold of a seat's view, with what a SeatBot asks of any view."""

    @property
    def last_seq(self) -> int:
        return self.state.last_seq if self.state is not None else 0

    def to_act(self) -> bool:
        return self.state is not None and self.state.to_move == self.seat


class TablePolicy:
    """One bot kind at a table: `await policy.decide(seat_bot)` -> the seat's command."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pooled = name in POOLED
        self._local: Bot = make_bot(name if not self.pooled else "greedy")
        """In-line chooser (its own rng is unused: each SeatBot passes its own)."""

    def __repr__(self) -> str:
        return f"TablePolicy({self.name!r})"

    def new_view(self, seat: Seat) -> StrategySeatView:
        return StrategySeatView(seat)

    def prepare(self) -> None:
        """A table seated this bot: start the worker processes now if it will need them."""
        if self.pooled:
            strategy_processes.warm_up(strategy_processes.BOTS)

    async def decide(self, view: SeatView, rng: random.Random) -> Command | None:
        """The seat's command now, from its own view only (None: not its turn)."""
        state, seat = view.state, view.seat
        if state is None or state.to_move != seat:
            return None
        moves = legal_moves(state, seat)
        if not moves:  # nothing fits: draw from the boneyard where the variant has one
            return DrawTiles(seat) if must_draw(state, seat) else PassTurn(seat)
        if len(moves) == 1:
            return PlayTile(seat, moves[0].tile, moves[0].end)
        if self.pooled:
            events = [event_to_dict(e) for e in view.events]
            table = str(getattr(view.events[0], "match_id", "?")) if view.events else "?"
            try:
                chosen = await strategy_processes.pimc_move(
                    events, seat, rng.getrandbits(62), owners=(f"table:{table}",),
                    bot=self.name)
            except strategy_processes.PoolBusy as busy:  # shared workers: never wait long
                log("pimc_fell_back", bot=self.name, table=table, seat=seat,
                    reason=str(busy), played="greedy")
            except Exception as error:  # a dead worker must not stall the table
                log("pooled_bot_failed", bot=self.name, seat=seat, error=repr(error))
            else:
                if chosen is not None:
                    return PlayTile(seat, parse_tile(chosen["tile"]), chosen["end"])
        move = self._local.choose(view, moves, rng)
        return PlayTile(seat, move.tile, move.end)


def table_policies() -> dict[str, TablePolicy]:
    """Name -> policy for exactly the bots a table may seat (never omniscient)."""
    return {name: TablePolicy(name) for name in TABLE_BOTS}
