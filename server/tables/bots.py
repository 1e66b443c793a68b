"""Bots: the policies a table may seat, and a player that acts for one seat from its view.

A bot sees exactly what a person in that seat sees (it folds its audience's events from the
bus into its own view) and acts through the same table entry point as a person. Where the
strategy package plays a game (dominoes: random, greedy, pimc; server/tables/strategy_bots.py),
those are the table's bots; any other game seats the bots its own package supplies.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Protocol

from games.interface import Bot, Game, Seat
from games.seat_view import SeatFold
from server.feeds.bus import Envelope, Unsubscribe
from server.strategy_processes import STRATEGY_GAMES
from server.table_game import TableGame
from server.tables.strategy_bots import table_policies

GAME_BOT_THREADS = 2
"""Threads deciding for games' own bots (all tables): a bot's decision waits its turn here
rather than holding the event loop."""
STAND_IN = "greedy"
"""Who plays for a person absent on their turn past the grace period (if the game has it;
else the game's first bot)."""

Act = Callable[[Seat, Any], Awaitable[object]]


class SeatViewLike(Protocol):
    """A seat's own fold of its (redacted) events: all a bot may look at."""

    @property
    def last_seq(self) -> int: ...

    def apply(self, event: Any) -> None: ...

    def to_act(self) -> bool:
        """Whether it is this seat's move now."""
        ...


class SeatPolicy(Protocol):
    name: str

    def prepare(self) -> None: ...

    def new_view(self, seat: Seat) -> SeatViewLike: ...

    async def decide(self, view: Any, rng: random.Random) -> Any | None: ...


class GameSeatView(SeatFold):
    """A seat's fold at the table: the bus carries the table's events, redacted here for the
    seat through the game's own `view` before they are folded."""

    def apply(self, event: Any) -> None:
        self.fold(self.game.view(event, self.seat))

    def to_act(self) -> bool:
        return self.my_turn()


class GamePolicy:
    """One of a game's own bots (games.interface.Bot) as a table policy. It decides on a
    small thread pool shared by every game's bots, never on the event loop: a bot that
    thinks (sampling deals) must not stall every table and socket while it does."""

    def __init__(self, name: str, game: Game, bot: Bot, executor: Executor) -> None:
        self.name = name
        self.game = game
        self.bot = bot
        self.executor = executor

    def prepare(self) -> None:
        """Nothing to warm up."""

    def new_view(self, seat: Seat) -> GameSeatView:
        return GameSeatView(self.game, seat)

    async def decide(self, view: GameSeatView, rng: random.Random) -> Any | None:
        if not view.to_act():
            return None
        events: Sequence[Any] = list(view.events)  # a copy: the view goes on folding
        seed = rng.getrandbits(64)  # the bot's own generator: rng stays on the loop's thread
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, self.bot.choose, events, view.seat, random.Random(seed))


class Policies:
    """Bot name -> policy, per game; built once per game and kept."""

    def __init__(self, threads: int = GAME_BOT_THREADS) -> None:
        self._by_game: dict[int, tuple[Game, dict[str, SeatPolicy]]] = {}
        """By the game object itself (two registries may hold different games of one name,
        as the tests' do); the object is kept so its id is not reused."""
        self._threads = threads
        self._executor: ThreadPoolExecutor | None = None

    def executor(self) -> ThreadPoolExecutor:
        """The game bots' threads (started on first use)."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self._threads, thread_name_prefix="game-bot")
        return self._executor

    def of(self, game: TableGame) -> dict[str, SeatPolicy]:
        kept = self._by_game.get(id(game.game))
        policies = kept[1] if kept is not None else None
        if policies is None:
            if game.name in STRATEGY_GAMES:
                policies = dict(table_policies())
            else:
                policies = {name: GamePolicy(name, game.game, bot, self.executor())
                            for name, bot in game.game.bots().items()}
            self._by_game[id(game.game)] = (game.game, policies)
        return policies


POLICIES = Policies()


def bot_names(game: TableGame) -> list[str]:
    """The bots a table of this game may seat."""
    return list(POLICIES.of(game))


def policy_for(game: TableGame, name: str) -> SeatPolicy | None:
    """The policy called `name` for this game (warmed up), or None if it has none."""
    policy = POLICIES.of(game).get(name)
    if policy is not None:
        policy.prepare()
    return policy


def stand_in_for(game: TableGame) -> SeatPolicy:
    """Who plays for an absent person: greedy where the game has it, else its first bot."""
    policies = POLICIES.of(game)
    policy = policies.get(STAND_IN) or next(iter(policies.values()))
    policy.prepare()
    return policy


class SeatBot:
    """Plays `seat` with `policy` whenever it is active and it is the seat's turn."""

    def __init__(
        self,
        seat: Seat,
        policy: SeatPolicy,
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
        self.view = policy.new_view(seat)
        """This seat's own (redacted) events, folded: all a bot may look at."""
        self.unsubscribe: Unsubscribe | None = None
        self._task: asyncio.Task[None] | None = None

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
        return self.view.to_act()

    def _consider(self) -> None:
        if self.active and self.my_turn() and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._play())

    async def decide(self) -> Any | None:
        """The policy's own `decide` (pimc thinks in a worker process)."""
        return await self.policy.decide(self.view, self.rng)

    async def _play(self) -> None:
        if self.delay > 0:
            await asyncio.sleep(self.delay)
        if not self.active:
            return
        seq = self.view.last_seq  # before deciding: pimc takes time
        command = await self.decide()
        if command is None or not self.active:
            return
        await self.act(self.seat, command)
        if self.view.last_seq != seq:
            # events arrived while we waited for the ack: look again (a refused move does
            # not change the seq, so a bot whose move is refused does not spin)
            self._task = None
            self._consider()
