"""Bots: a registry of policies by name, and a player that acts for one seat from its view.

A bot sees exactly what a person in that seat sees (it folds its audience's events from the
bus into a strategy.view.SeatView, the one fold of a seat's view) and acts through the same
table entry point as a person. The legal moves of a seat depend only on its own hand and the
open ends, so its view state is enough.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from games.dominoes.commands import Command
from games.dominoes.state import MatchState
from games.dominoes.tiles import Seat
from server.bus import Envelope, Unsubscribe
from server.table_bots import TablePolicy, table_policies
from strategy.view import SeatView

BOTS: dict[str, TablePolicy] = table_policies()
"""Bot name -> policy: exactly strategy.TABLE_BOTS (random, greedy, pimc), via make_bot."""

STAND_IN = "greedy"
"""Who plays for a person absent on their turn past the grace period."""

Act = Callable[[Seat, Command], Awaitable[object]]


def get_policy(name: str) -> TablePolicy | None:
    policy = BOTS.get(name)
    if policy is not None:
        policy.prepare()
    return policy


class SeatBot:
    """Plays `seat` with `policy` whenever it is active and it is the seat's turn."""

    def __init__(
        self,
        seat: Seat,
        policy: TablePolicy,
        act: Act,
        *,
        delay: float = 0.0,
        active: bool = True,
        rng: random.Random | None = None,
    ) -> None:
        self.seat = seat
        self.policy = policy
        self.act = act
        self.delay = delay
        self.active = active
        self.rng = rng or random.Random()
        self.view = SeatView(seat)
        """This seat's own (redacted) events, folded: all a bot may look at."""
        self.unsubscribe: Unsubscribe | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def state(self) -> MatchState | None:
        return self.view.state

    def on_event(self, envelope: Envelope) -> None:
        if envelope.event is None:
            return
        self.view.apply(envelope.event)
        self._consider()

    def activate(self) -> None:
        self.active = True
        self._consider()

    def wake(self) -> None:
        """Look again: after the table's failed commit of this bot's move, no event comes."""
        self._consider()

    def deactivate(self) -> None:
        self.active = False

    def stop(self) -> None:
        self.active = False
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None
        if self._task is not None:
            self._task.cancel()

    def my_turn(self) -> bool:
        return self.state is not None and self.state.to_move == self.seat

    def _consider(self) -> None:
        if self.active and self.my_turn() and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._play())

    async def decide(self) -> Command | None:
        """The policy's own `decide` (pimc thinks in a worker process)."""
        return await self.policy.decide(self.view, self.rng)

    async def _play(self) -> None:
        if self.delay > 0:
            await asyncio.sleep(self.delay)
        if not self.active:
            return
        seq = self.state.last_seq if self.state else 0  # before deciding: pimc takes time
        command = await self.decide()
        if command is None or not self.active:
            return
        await self.act(self.seat, command)
        if self.state is not None and self.state.last_seq != seq:
            # events arrived while we waited for the ack: look again (a refused move does
            # not change the seq, so a bot whose move is refused does not spin)
            self._task = None
            self._consider()
