"""A table is an actor: one asyncio task serialises every change to its match.

Each change runs decide -> store.append (durable) -> evolve -> fan-out, in that order, one at
a time, so an ack or an event is only ever sent for something already on disk, and the
in-memory log, the bus and the store never disagree. Reads that change nothing (watch,
resume, list) run outside the actor: they are synchronous, so they see a consistent log.

Streams: the match itself is stream `<table_id>` (the match id is the table id);
`seats:<table_id>` holds the table's configuration and seat claims (sha256 of each token);
`commands:<table_id>` holds a side record per applied client command id, committed with the
events it caused all or nothing (`append_atomic`), so a retried id is answered, never
re-applied, even across a restart; and when two servers briefly both think they own the
table, a move and its id record either both commit or neither does.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from archive.streams import commands_stream, seats_stream
from archive.tables import StoredTable, TableConfig
from games.interface import RuleViolation, Seat
from protocol import ProtocolError
from server.feeds.bus import Bus, Envelope, Handler, Unsubscribe
from server.feeds.fanout import backlog, publish_events
from server.logs import log
from server.metrics import Metrics
from server.stages import CLOCK
from server.table_game import TableGame
from server.tables.bots import SeatBot, policy_for, stand_in_for
from server.tables.seats import (
    ABANDONED,
    STOOD_IN,
    StandIn,
    abandoned_error,
    new_token,
    token_digest,
    token_matches,
)
from storage import AsyncEventStore, ConcurrencyConflict

T = TypeVar("T")
RETRY_FIRST, RETRY_LAST = 0.2, 5.0
"""Seconds before a table looks again after a failed store write (doubling)."""


class BeliefHandle(Protocol):
    """An audience's belief producer: in-process worker or remote inference's stand-in."""

    def refresh(self) -> None: ...

    def stop(self) -> None: ...


class Inference(Protocol):
    """Where beliefs come from: InProcessInference or RemoteInference (MQTT workers)."""

    def attach_table(self, table: Table) -> Mapping[str, BeliefHandle]: ...


@dataclass
class SeatRecord:
    name: str
    bot: str | None = None
    token_sha256: str | None = None


@dataclass(frozen=True)
class TableOptions:
    """Server-wide timings and limits every table follows."""

    grace: float = 30.0
    """Seconds a disconnected person may hold up their turn before a stand-in bot plays."""
    bot_delay: float = 0.0
    """Seconds a bot waits before moving (so people can follow)."""
    hand_pause: float = 0.0
    """Seconds between a hand's end and the next deal (so people can see the result)."""
    recent_commands: int = 256
    """Command ids remembered per seat for retries."""
    retire_after: float = 60.0
    """Seconds a finished (or abandoned) table stays listed and watchable."""
    abandon_after: float = 300.0
    """Seconds a match in play may go on with every person seat disconnected before the
    table stops as "abandoned" (long enough for a phone that slept to come back)."""
    close_empty_after: float = 1800.0
    """Seconds a table still waiting for players may stay with no person connected to a
    seat (none may have sat yet) before it is closed as "abandoned" and retired: a lobby
    left behind does not stay listed, nor held, for as long as the server runs."""


@dataclass
class _Job:
    run: Callable[[], Awaitable[Any]]
    future: asyncio.Future[Any]


class Table:
    """The actor for one table: owns its referee state, seats, bots and belief workers."""

    def __init__(
        self,
        config: TableConfig,
        *,
        game: TableGame,
        store: AsyncEventStore,
        bus: Bus,
        inference: Inference,
        metrics: Metrics,
        options: TableOptions,
        on_retire: Callable[[Table], None] | None = None,
        on_conflict: Callable[[Table], None] | None = None,
    ) -> None:
        self.config = config
        self.table_id = config.table_id
        self.game = game
        self.store = store
        self.bus = bus
        self.inference = inference
        self.metrics = metrics
        self.options = options
        self.on_retire = on_retire
        self.on_conflict = on_conflict
        self.seats: dict[Seat, SeatRecord] = {
            seat: SeatRecord(name=f"bot:{bot}", bot=bot) for seat, bot in config.bots.items()
        }
        self.state: Any = None
        """The referee's state, as the game folds it (None before match_started)."""
        self.log: list[Any] = []
        self.side_seq = 0
        self.cmd_seq = 0
        self.recent: dict[Seat, OrderedDict[str, int]] = {s: OrderedDict() for s in self.game.seats}
        self.connected: Counter[Seat] = Counter()
        self.spectators = 0
        self.autopilot: set[Seat] = set()
        self.bots: dict[Seat, SeatBot] = {}
        self.workers: Mapping[str, BeliefHandle] = {}
        self._timers: dict[Seat, asyncio.TimerHandle] = {}
        self.turn_clock: float | None = getattr(config, "turn_clock", None)
        """Seconds a person may take over a move (None: no clock); then a stand-in plays it."""
        self._clocks: dict[Seat, tuple[int, asyncio.TimerHandle]] = {}
        """Running turn clocks: seat -> (the seq its turn began after, the timer)."""
        self.clock_started: dict[Seat, float] = {}
        """When each running clock started (time.time()), for the lobby's listing."""
        self._one_move: set[Seat] = set()
        """Seats whose stand-in plays one move (the clock ran out), not the rest of the match."""
        self.stood_in: list[StandIn] = []
        """Moves stand-in bots made for people, oldest first (kept in the seats stream)."""
        self.rematch: str | None = None
        """The table created as this one's rematch, once someone asks for it (in memory:
        a finished table is listed only until it retires)."""
        self._deal_pending = False
        self._queue: asyncio.Queue[_Job | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._retire_handle: asyncio.TimerHandle | None = None
        self._retry_handle: asyncio.TimerHandle | None = None
        self._retry_delay = RETRY_FIRST
        self.abandoned = False
        """Every person left for `abandon_after` seconds: the match stopped unfinished."""
        self._abandon_handle: asyncio.TimerHandle | None = None
        self._signs_of_life = 0
        """Moves and seats claimed: an abandonment queued before the latest is called off."""
        self.ended_at: float | None = None
        """When no more moves were to come (time.time()): finished or abandoned."""

    # -- lifecycle -----------------------------------------------------------------------

    @property
    def last_seq(self) -> int:
        return len(self.log)

    @property
    def status(self) -> str:
        if self.state is None:
            return "abandoned" if self.abandoned else "waiting"
        if self.game.game.is_over(self.state):
            return "finished"
        return "abandoned" if self.abandoned else "playing"

    @property
    def finished(self) -> bool:
        """The match ended: the log is complete (said in `resumed` and `watching`)."""
        return self.status == "finished"

    def restore(
        self, stored: StoredTable, events: list[Any], commands: list[dict[str, Any]]
    ) -> None:
        """Rebuild from the stored streams (recovery): fold the match, reload seats and ids."""
        self.side_seq = 1 + len(stored.records)  # the config record, then the claims
        for seat, record in stored.latest_claims().items():
            self.seats[seat] = SeatRecord(record["name"], None, record["token_sha256"])
        self.stood_in = [StandIn.from_record(r) for r in stored.records
                         if r.get("type") == STOOD_IN]
        self.abandoned = any(r.get("type") == ABANDONED for r in stored.records)
        for event in events:
            self.state = self.game.game.evolve(self.state, event)
            self.log.append(event)
        for record in commands:
            self.cmd_seq = max(self.cmd_seq, int(record["seq"]))
            self._remember(record["seat"], record["id"], int(record["event_seq"]))

    async def start(self) -> None:
        """Start the actor, the belief workers and the bots; deal or start if due."""
        self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")
        if self.status in ("finished", "abandoned"):
            self._schedule_retire()
            return
        self.workers = self.inference.attach_table(self)
        for seat, bot_name in self.config.bots.items():
            policy = policy_for(self.game, bot_name)
            assert policy is not None  # create_table accepted only this game's bots
            self._add_bot(seat, policy, active=True)
        if self.state is None and self._seated():
            self._enqueue_quietly(self._start_match)
        self._after_change()
        self._review_abandon()  # a table nobody sits at: its clock starts now

    async def close(self) -> None:
        """Finish the jobs already queued (their commits and acks), then stop."""
        self._closing = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self._stop_clocks()
        if self._retire_handle is not None:
            self._retire_handle.cancel()
        if self._abandon_handle is not None:
            self._abandon_handle.cancel()
        if self._retry_handle is not None:
            self._retry_handle.cancel()
        for bot in self.bots.values():
            bot.stop()
        for worker in self.workers.values():
            worker.stop()
        if self._task is not None:
            self._queue.put_nowait(None)
            await asyncio.gather(self._task, return_exceptions=True)

    # -- the actor -----------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            job = await self._queue.get()
            if job is None:
                break
            try:
                result = await job.run()
            except BaseException as error:  # handed to the caller
                if not job.future.done():
                    job.future.set_exception(error)
                if isinstance(error, asyncio.CancelledError):
                    raise
            else:
                if not job.future.done():
                    job.future.set_result(result)

    def _enqueue(self, run: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        if self._closing:
            raise ProtocolError("shutting_down", "the server is shutting down")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(run, future))
        return future

    async def call(self, run: Callable[[], Awaitable[T]]) -> T:
        """Run `run` inside the actor, after every job queued before it."""
        return await self._enqueue(run)

    # -- commands (run inside the actor) -------------------------------------------------

    async def join(self, seat: Seat, name: str) -> str:
        """Claim an empty seat; returns the new token (only its sha256 is stored)."""

        async def run() -> str:
            if seat not in self.game.seats:
                raise ProtocolError("bad_request", f"{self.config.variant} has no seat {seat} "
                                    f"(seats: {', '.join(self.game.seats)})")
            if seat in self.seats:
                holder = self.seats[seat]
                raise ProtocolError("seat_taken", f"seat {seat} is taken by {holder.name!r}")
            if self.abandoned:
                raise abandoned_error(self.last_seq)
            token = new_token()
            record = {
                "type": "seat_claimed",
                "seat": seat,
                "name": name or seat,
                "token_sha256": token_digest(token),
            }
            await self.store.append(seats_stream(self.table_id), self.side_seq, [record])
            self.side_seq += 1
            self.seats[seat] = SeatRecord(record["name"], None, record["token_sha256"])
            log("seat_claimed", table=self.table_id, seat=seat, name=record["name"])
            self._sign_of_life()  # before its connection attaches
            if self.state is None and self._seated():
                self._enqueue_quietly(self._start_match)  # its own job: the seat is claimed
            return token

        return await self.call(run)

    async def join_seat(self, seat: Seat, name: str) -> tuple[str, int]:
        """`join`, plus the seq the seat's feed starts from (as RemoteTable answers)."""
        token = await self.join(seat, name)
        return token, self.last_seq

    async def move(self, seat: Seat, move: dict[str, Any], command_id: str | int | None) -> int:
        """Apply a seat's move as sent (the game reads the payload, a typed error if bad).

        A person's own move is a sign of life: it restarts the abandon clock (in a cluster,
        a table taken over counts only the connections on its new owner until the others
        attach again, while their moves still arrive forwarded)."""
        CLOCK.enter("actor")
        try:
            command = self.game.game.command_from_wire(seat, move)
        finally:
            CLOCK.leave()
        seq = await self.apply(seat, command, command_id)
        self._sign_of_life()
        return seq

    async def apply(self, seat: Seat, command: Any, command_id: str | int | None) -> int:
        """Apply a seat's command; returns the seq of the event recording it."""

        async def run() -> int:
            CLOCK.enter("actor")
            try:
                key = None if command_id is None else json.dumps(command_id)
                if key is not None and key in self.recent[seat]:
                    return self.recent[seat][key]  # a retry: the original answer, once
                if self.state is None:
                    raise RuleViolation("wrong_phase",
                                        "the match has not started: seats are still empty")
                if self.abandoned:
                    raise abandoned_error(self.last_seq)
                events = self.game.game.decide(self.state, command)
                side = []
                if command_id is not None:
                    record = {"type": "command_applied", "seat": seat, "id": command_id,
                              "event_seq": self.last_seq + 1}
                    side.append((commands_stream(self.table_id), self.cmd_seq, [record]))
            finally:
                CLOCK.leave()
            stamped = await self._commit(events, side)
            if command_id is not None:
                self.cmd_seq += 1
                self._remember(seat, command_id, stamped[0].seq)
            self.metrics.moves += 1
            return stamped[0].seq

        return await self.call(run)

    async def _start_match(self) -> None:
        if self.state is not None:
            return
        game = self.game
        players = {seat: self.seats[seat].name for seat in game.seats}
        command = game.game.start(self.table_id, self.config.variant, players,
                                  game.options())
        await self._commit(game.game.decide(None, command))
        log("match_started", table=self.table_id, variant=self.config.variant)

    async def _referee_step(self) -> None:
        self._deal_pending = False  # a failed commit leaves it re-armable (_retry_later)
        if self.state is None or self.abandoned:
            return
        step = self.game.game.referee_step(self.state, secrets.token_hex(32))
        if step is not None:
            await self._commit(self.game.game.decide(self.state, step))

    async def _commit(
        self, events: list[Any], side: list[tuple[str, int, list[dict[str, Any]]]] | None = None
    ) -> list[Any]:
        """Durable first: append (with side records, all or nothing), then evolve, publish."""
        CLOCK.enter("actor")
        try:
            first = self.last_seq + 1
            stamped = [e.model_copy(update={"seq": first + i}) for i, e in enumerate(events)]
            data = [self.game.game.event_to_dict(e) for e in stamped]
            appends = [(self.table_id, self.last_seq, data)]
            appends += side or []
        finally:
            CLOCK.leave()
        started = time.monotonic()
        try:
            await self.store.append_atomic(appends)
        except ConcurrencyConflict as conflict:  # another writer: nothing of ours was stored
            self.metrics.commit_latency.add((time.monotonic() - started) * 1000.0)
            log("append_conflict", table=self.table_id, error=conflict)
            if self.on_conflict is not None:
                self.on_conflict(self)
            raise ProtocolError("internal", "the table's stream moved under it; retry") from None
        CLOCK.enter("actor")
        try:
            self.metrics.commit_latency.add((time.monotonic() - started) * 1000.0)
            state = self.state
            for event in stamped:
                state = self.game.game.evolve(state, event)
            self.state = state
            self.log.extend(stamped)
            self.metrics.events += len(stamped)
            self._retry_delay = RETRY_FIRST
            publish_events(self.bus, self.table_id, stamped, self.game, self._offers())
            self._after_change()
        finally:
            CLOCK.leave()
        return stamped

    def _offers(self) -> dict[Seat, list[dict[str, Any]]]:
        """The legal moves of each seat to act now that a person plays (not a bot, nor a
        stand-in for someone gone past the grace): computed once per turn, and only for
        those who can use them. A person still joining counts: their presence may arrive
        after the event (from another server), and the feed offers moves only once."""
        state = self.state
        if state is None or self.game.game.is_over(state):
            return {}
        return {seat: self.game.offered_moves(state, seat)
                for seat in self.game.game.to_act(state)
                if self.is_person(seat) and seat not in self.autopilot}

    def _offer_to(self, audience: str) -> list[dict[str, Any]] | None:
        """What a feed attaching as `audience` is offered on the log's last event: the
        seat's legal moves when it is to act, else nothing."""
        state = self.state
        if state is None or audience not in self.game.seats or self.game.game.is_over(state):
            return None
        if audience not in self.game.game.to_act(state):
            return None
        return self.game.offered_moves(state, audience)

    def _seated(self) -> bool:
        """Every seat of the variant is taken: the match can start."""
        return len(self.seats) == len(self.game.seats)

    def _remember(self, seat: Seat, command_id: str | int, seq: int) -> None:
        recent = self.recent[seat]
        recent[json.dumps(command_id)] = seq
        while len(recent) > self.options.recent_commands:
            recent.popitem(last=False)

    # -- what follows a change -----------------------------------------------------------

    def _after_change(self) -> None:
        state = self.state
        if state is None or self._closing or self.abandoned:
            return
        game = self.game.game
        over = game.is_over(state)
        if not over and not game.to_act(state) and not self._deal_pending:
            # nobody is to act: the referee's turn (a deal); pause after a hand, not at first
            self._deal_pending = True
            if self.options.hand_pause > 0 and self.last_seq > 1:
                asyncio.get_running_loop().call_later(
                    self.options.hand_pause, self._enqueue_quietly, self._referee_step
                )
            else:
                self._enqueue_quietly(self._referee_step)
        elif over:
            self._finish()
        self._review_absence()

    def _enqueue_quietly(self, run: Callable[[], Awaitable[Any]]) -> None:
        if not self._closing:
            future = self._enqueue(run)
            future.add_done_callback(self._log_failure)

    def _log_failure(self, future: asyncio.Future[Any]) -> None:
        if not future.cancelled() and future.exception() is not None:
            log("table_job_failed", table=self.table_id, error=future.exception())
            self._retry_later()

    def _retry_later(self) -> None:
        """A job that moves the table on by itself (start, deal, a bot's move) failed on the
        store: look again after a pause (doubling up to RETRY_LAST). Nothing else would: each
        is triggered by the event before it, and a failed commit adds no event."""
        if self._closing or self._retry_handle is not None:
            return
        self._retry_handle = asyncio.get_running_loop().call_later(self._retry_delay,
                                                                   self._retry)
        self._retry_delay = min(RETRY_LAST, self._retry_delay * 2)

    def _retry(self) -> None:
        self._retry_handle = None
        if self._closing:
            return
        if self.state is None:
            if self._seated():
                self._enqueue_quietly(self._start_match)
            return
        self._after_change()
        for bot in self.bots.values():
            bot.wake()

    def _finish(self) -> None:
        if self._retire_handle is None:
            log("match_ended", table=self.table_id, seq=self.last_seq)
            self._stop_moving()
            self._schedule_retire()

    def _stop_moving(self) -> None:
        """No more moves from this table: its bots, grace timers and turn clocks stop."""
        if self.ended_at is None:
            self.ended_at = time.time()
        for bot in self.bots.values():
            bot.stop()
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self._stop_clocks()

    def _schedule_retire(self) -> None:
        if self.on_retire is not None and self._retire_handle is None:
            self._retire_handle = asyncio.get_running_loop().call_later(
                self.options.retire_after, self.on_retire, self
            )

    # -- bots and absent people ----------------------------------------------------------

    def _add_bot(self, seat: Seat, policy: Any, *, active: bool) -> SeatBot:
        bot = SeatBot(seat, policy, self._bot_act, delay=self.options.bot_delay, active=active)
        bot.unsubscribe = self.attach(seat, bot.on_event)[1]
        self.bots[seat] = bot
        return bot

    async def _bot_act(self, seat: Seat, command: Any) -> None:
        try:
            seq = await self.apply(seat, command, None)
            if self.is_person(seat):  # a stand-in's move: said to everyone, kept
                reason: Literal["clock", "away"] = ("clock" if seat in self._one_move
                                                    else "away")
                if seat in self._one_move:
                    self._one_move.discard(seat)
                    if seat not in self.autopilot:  # away meanwhile: it plays on for them
                        self.bots[seat].deactivate()  # one move: the person plays the next
                await self.call(lambda: self._record_stand_in(StandIn(seq, seat, reason)))
        except (RuleViolation, ProtocolError):
            pass  # overtaken (a stale move, the table reloading): the next event wakes it
        except Exception as error:  # the store failed: the move was not made; try again
            log("bot_move_failed", table=self.table_id, seat=seat, error=error)
            self._retry_later()

    async def _record_stand_in(self, move: StandIn) -> None:
        await self.store.append(seats_stream(self.table_id), self.side_seq, [move.record()])
        self.side_seq += 1
        self.stood_in.append(move)
        log("stand_in_moved", table=self.table_id, seat=move.seat, seq=move.seq,
            reason=move.reason)

    def is_person(self, seat: Seat) -> bool:
        record = self.seats.get(seat)
        return record is not None and record.bot is None

    def presence(self, seat: Seat, delta: int) -> None:
        """A connection of `seat` attached (+1) or went away (-1).

        Never below 0: after a takeover, a -1 can arrive from a server whose +1 went to the
        old owner; counting it would leave a connected person under a stand-in bot."""
        self.connected[seat] = max(0, self.connected[seat] + delta)
        self._review_absence()

    def _review_absence(self) -> None:
        """Start the grace clock for an absent person on turn; hand back to a returning one."""
        for seat in list(self.autopilot):
            if self.connected[seat] > 0:
                self.autopilot.discard(seat)
                if seat not in self._one_move:
                    self.bots[seat].deactivate()
                log("stand_in_off", table=self.table_id, seat=seat)
        self._review_clocks()
        self._review_abandon()
        for seat in list(self._timers):
            if self.connected[seat] > 0:
                self._timers.pop(seat).cancel()
        state = self.state
        if state is None or self._closing:
            return
        for turn in self.game.game.to_act(state):
            if (
                self.is_person(turn)
                and self.connected[turn] <= 0
                and turn not in self.autopilot
                and turn not in self._timers
            ):
                self._timers[turn] = asyncio.get_running_loop().call_later(
                    self.options.grace, self._grace_over, turn
                )

    def _review_abandon(self) -> None:
        """Start the abandon clock when every person seat of a match in play is
        disconnected, or when a table waiting for players has no person connected to a
        seat (`close_empty_after`); stop it when one comes back (it restarts only when all
        are gone again). A match of bots only has nobody to wait for: it is never
        abandoned."""
        gone = self._everyone_gone()
        if gone and self._abandon_handle is None:
            after = (self.options.close_empty_after if self.status == "waiting"
                     else self.options.abandon_after)
            self._abandon_handle = asyncio.get_running_loop().call_later(
                after, self._abandon_over)
        elif not gone and self._abandon_handle is not None:
            self._abandon_handle.cancel()
            self._abandon_handle = None

    def _sign_of_life(self) -> None:
        """A move or a seat claimed: an abandonment already due (queued behind other jobs)
        is called off, and the clock starts over if every person is still away."""
        self._signs_of_life += 1
        if self._abandon_handle is not None:
            self._abandon_handle.cancel()
            self._abandon_handle = None
        self._review_abandon()

    def _everyone_gone(self) -> bool:
        people = [seat for seat in self.seats if self.is_person(seat)]
        away = all(self.connected[seat] <= 0 for seat in people)
        if self._closing or not away:
            return False
        return self.status == "waiting" or (bool(people) and self.status == "playing")

    def _abandon_over(self) -> None:
        self._abandon_handle = None
        if self._everyone_gone():
            self._enqueue_quietly(functools.partial(self._abandon, self._signs_of_life))

    async def _abandon(self, signs_of_life: int) -> None:
        """Stop the match unfinished (inside the actor: no commit is in flight, and any move
        queued after this is refused, `table_abandoned`). No bot nor stand-in moves again,
        the referee deals no more; the log stays as stored, a side record in the seats
        stream says where it stopped (a restart does not bring the table back); retired
        after `retire_after` like a finished table."""
        if not self._everyone_gone() or signs_of_life != self._signs_of_life:
            return  # someone came back, or moved or sat down, while the jobs before ran
        waiting = self.status == "waiting"
        self.abandoned = True
        self._stop_moving()
        self.autopilot.clear()
        log("table_abandoned", table=self.table_id, seq=self.last_seq, waiting=waiting,
            after=self.options.close_empty_after if waiting else self.options.abandon_after)
        self._schedule_retire()
        record = {"type": ABANDONED, "event_seq": self.last_seq}
        await self.store.append(seats_stream(self.table_id), self.side_seq, [record])
        self.side_seq += 1

    def _review_clocks(self) -> None:
        """The turn clock (a per-table option): every person to act gets `turn_clock`
        seconds per move, connected or not; a clock stops when its seat has moved."""
        state = self.state
        playing = state is not None and not self._closing and self.status == "playing"
        to_act = set(self.game.game.to_act(state)) if playing else set()
        for seat, (seq, handle) in list(self._clocks.items()):
            if seat not in to_act or seq != self.last_seq or seat in self.autopilot:
                handle.cancel()
                del self._clocks[seat]
                self.clock_started.pop(seat, None)
        if not self.turn_clock:
            return
        for seat in to_act:
            if self.is_person(seat) and seat not in self.autopilot and seat not in self._clocks:
                handle = asyncio.get_running_loop().call_later(
                    self.turn_clock, self._clock_over, seat, self.last_seq)
                self._clocks[seat] = (self.last_seq, handle)
                self.clock_started[seat] = time.time()

    def _stop_clocks(self) -> None:
        for _, handle in self._clocks.values():
            handle.cancel()
        self._clocks.clear()
        self.clock_started.clear()

    def _clock_over(self, seat: Seat, seq: int) -> None:
        """The clock ran out: a stand-in makes this one move for the person."""
        self._clocks.pop(seat, None)
        self.clock_started.pop(seat, None)
        if self._closing or self.status != "playing" or self.last_seq != seq:
            return
        log("turn_clock_out", table=self.table_id, seat=seat, seq=seq)
        self._one_move.add(seat)
        bot = self.bots.get(seat)
        if bot is None:
            bot = self._add_bot(seat, stand_in_for(self.game), active=False)
        bot.activate()

    def _grace_over(self, seat: Seat) -> None:
        self._timers.pop(seat, None)
        if self.connected[seat] > 0 or self._closing or self.status != "playing":
            return
        self.autopilot.add(seat)
        log("stand_in_on", table=self.table_id, seat=seat, grace=self.options.grace)
        bot = self.bots.get(seat)
        if bot is None:
            policy = stand_in_for(self.game)
            bot = self._add_bot(seat, policy, active=False)
        bot.activate()

    # -- audiences -----------------------------------------------------------------------

    def attach(
        self,
        audience: str,
        on_event: Handler,
        on_belief: Handler | None = None,
        after_seq: int = 0,
        offer: list[dict[str, Any]] | None = None,
    ) -> tuple[int, Unsubscribe]:
        """Deliver what `audience` missed after `after_seq` (`offer` on the last event),
        then every new event (and belief).

        Synchronous, so nothing can be published between the backlog and the subscription:
        the audience sees every seq exactly once, in order.
        """
        for envelope in backlog(self.table_id, self.log, audience, after_seq, self.game, offer):
            on_event(envelope)
        unsubscribers = [self.bus.subscribe(self.table_id, audience, "event", on_event)]
        if on_belief is not None:
            worker = self.workers.get(audience)
            # A worker nobody listened to folded events without publishing: the retained
            # belief is older than them. Skip it; refresh() publishes the current one.
            outdated = bool(getattr(worker, "stale", False) and not getattr(worker, "broken", 0))
            subscribing = True

            def deliver_belief(envelope: Envelope) -> None:
                if not (subscribing and outdated):
                    on_belief(envelope)

            unsubscribers.append(
                self.bus.subscribe(self.table_id, audience, "belief", deliver_belief)
            )
            subscribing = False
            if worker is not None:
                worker.refresh()

        def detach() -> None:
            for unsubscribe in unsubscribers:
                unsubscribe()

        return self.last_seq, detach

    async def open_feed(
        self, audience: str, deliver: Handler, after_seq: int, reply: Callable[[int, int], None]
    ) -> Unsubscribe:
        """A connection's feed: reply(after, last), then the backlog and the live events."""
        after = min(after_seq, self.last_seq)
        reply(after, self.last_seq)
        return self.attach(audience, deliver, deliver, after, self._offer_to(audience))[1]

    async def find_seat(self, token: str) -> Seat | None:
        return self.seat_for_token(token)

    async def table_config(self) -> TableConfig:
        return self.config

    async def referee_log(self) -> list[Any]:
        return list(self.log)

    def seat_for_token(self, token: str) -> Seat | None:
        for seat, record in self.seats.items():
            if token_matches(token, record.token_sha256):
                return seat
        return None
