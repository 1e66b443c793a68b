"""Bots: the policies a table may seat, and a player that acts for one seat from its view.

A bot sees exactly what a person in that seat sees (it folds its audience's events from the
bus into its own view) and acts through the same table entry point as a person. A table seats
the bots its game declares (games.interface.Capabilities.bots), and each decides where its
game says it should:
- a pooled bot (`Capabilities.pooled_bots`: it thinks for up to a second) in the server's
  strategy worker processes, with the seat's events as dicts; should the pool fail, or not
  give the table a worker within a second (server/strategy_processes.py, Admission), the
  game's `fallback_bot` moves instead and the log says so;
- a bot with `choose_in(view, rng)` (it decides in microseconds) on the event loop, from the
  fold it keeps of the seat's view (`seat_view(seat)`);
- any other on a small thread pool shared by every game's bots, never on the event loop.
A seat with one legal move makes it without asking a pooled bot.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, Protocol

from games.interface import Bot, Game, Seat
from games.seat_view import SeatFold
from server import strategy_processes
from server.feeds.bus import Envelope, Unsubscribe
from server.logs import log
from server.table_game import TableGame

GAME_BOT_THREADS = 2
"""Threads deciding for games' own bots (all tables): a bot's decision waits its turn here
rather than holding the event loop."""

Act = Callable[[Seat, Any], Awaitable[object]]


class SeatViewLike(Protocol):
    """A seat's own fold of its (redacted) events: all a bot may look at (games.seat_view's
    SeatFold, fed through `apply`)."""

    seat: Seat
    events: list[Any]

    @property
    def last_seq(self) -> int: ...

    def apply(self, event: Any) -> None: ...

    def my_turn(self) -> bool:
        """Whether it is this seat's move now."""
        ...

    def legal_commands(self) -> Sequence[Any]: ...


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


class GamePolicy:
    """One of a game's own bots (games.interface.Bot) as a table policy, deciding where its
    game declares (the module's docstring): in the strategy processes, on the loop from its
    own fold, or on a thread with a copy of the seat's events."""

    def __init__(self, name: str, game: Game, bot: Bot, executor: Executor,
                 fallback: GamePolicy | None = None) -> None:
        self.name = name
        self.game = game
        self.bot = bot
        self.executor = executor
        self.fallback = fallback
        """Plays when a pooled bot gets no worker (None: the bot is not pooled)."""
        inline = getattr(bot, "choose_in", None)
        self.inline: Callable[[SeatViewLike, random.Random], Any] | None = (
            inline if callable(inline) else None)

    def __repr__(self) -> str:
        return f"GamePolicy({self.name!r})"

    def prepare(self) -> None:
        """A table seated this bot: start the worker processes now if it will need them."""
        if self.fallback is not None:
            strategy_processes.warm_up(strategy_processes.BOTS)

    def new_view(self, seat: Seat) -> SeatViewLike:
        make = getattr(self.bot, "seat_view", None)
        view: SeatViewLike = make(seat) if callable(make) else GameSeatView(self.game, seat)
        return view

    async def decide(self, view: SeatViewLike, rng: random.Random) -> Any | None:
        if not view.my_turn():
            return None
        if self.fallback is not None:
            return await self._pooled(view, rng)
        if self.inline is not None:
            return self.inline(view, rng)
        events: Sequence[Any] = list(view.events)  # a copy: the view goes on folding
        seed = rng.getrandbits(64)  # the bot's own generator: rng stays on the loop's thread
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, self.bot.choose, events, view.seat, random.Random(seed))

    async def _pooled(self, view: SeatViewLike, rng: random.Random) -> Any | None:
        """The pooled bot's move from a worker process; the fallback's if none comes."""
        assert self.fallback is not None
        legal = view.legal_commands()
        if len(legal) == 1:  # nothing to think about
            return legal[0]
        events = [self.game.event_to_dict(e) for e in view.events]
        table = str(getattr(view.events[0], "match_id", "?")) if view.events else "?"
        try:
            chosen = await strategy_processes.pooled_move(
                self.bot, events, view.seat, rng.getrandbits(62), owners=(f"table:{table}",))
        except strategy_processes.PoolBusy as busy:  # shared workers: never wait long
            # the event keeps its first name (pimc was the first pooled bot): logs are searched
            log("pimc_fell_back", bot=self.name, table=table, seat=view.seat,
                reason=str(busy), played=self.fallback.name)
        except Exception as error:  # a dead worker must not stall the table
            log("pooled_bot_failed", bot=self.name, seat=view.seat, error=repr(error))
        else:
            if chosen is not None:
                return self.game.command_from_wire(view.seat, chosen)
        return await self.fallback.decide(self._fallback_view(view), rng)

    def _fallback_view(self, view: SeatViewLike) -> SeatViewLike:
        """The fold the fallback decides from: this one when the fallback keeps its kind."""
        assert self.fallback is not None
        fold = self.fallback.new_view(view.seat)
        if type(fold) is type(view):
            return view
        for event in view.events:
            fold.apply(event)
        return fold


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
            policies = self._policies(game.game)
            self._by_game[id(game.game)] = (game.game, policies)
        return policies

    def _policies(self, game: Game) -> dict[str, SeatPolicy]:
        """The game's bots as policies; a pooled bot falls back on the bot its game names."""
        declared = game.capabilities
        plain = {name: GamePolicy(name, game, bot, self.executor())
                 for name, bot in game.bots().items()}
        fallback = plain.get(declared.fallback_bot or "")
        out: dict[str, SeatPolicy] = {}
        for name, policy in plain.items():
            if name in declared.pooled_bots:
                if fallback is None or fallback.name in declared.pooled_bots:
                    raise ValueError(f"{game.name}: pooled bot {name!r} needs a fallback_bot "
                                     "that is not pooled")
                policy = GamePolicy(name, game, policy.bot, policy.executor, fallback)
            out[name] = policy
        return out


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
    """Who plays for an absent person: the bot its game declares, else its first bot."""
    policies = POLICIES.of(game)
    declared = game.game.capabilities.stand_in
    policy = policies.get(declared or "") or next(iter(policies.values()))
    policy.prepare()
    return policy


async def _stopped(seat: Seat, move: Any) -> None:
    """A stopped bot's act: nothing."""


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
        """For good: the table stops moving. The bot lets go of what leads back to the
        table (its `act`, a bound method; its task, whose cancellation's traceback holds
        the table's frames), so a retired table is freed by reference counting."""
        self.active = False
        self.act = _stopped
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def my_turn(self) -> bool:
        return self.view.my_turn()

    def _consider(self) -> None:
        if self.active and self.my_turn() and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._play())

    async def decide(self) -> Any | None:
        """The policy's own `decide` (a pooled bot thinks in a worker process)."""
        return await self.policy.decide(self.view, self.rng)

    async def _play(self) -> None:
        if self.delay > 0:
            await asyncio.sleep(self.delay)
        if not self.active:
            return
        seq = self.view.last_seq  # before deciding: a pooled bot takes time
        command = await self.decide()
        if command is None or not self.active:
            return
        await self.act(self.seat, command)
        if self.view.last_seq != seq:
            # events arrived while we waited for the ack: look again (a refused move does
            # not change the seq, so a bot whose move is refused does not spin)
            self._task = None
            self._consider()
