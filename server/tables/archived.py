"""A finished match no server hosts any more, served read-only from the store.

A finished table is retired after `retire_after` seconds and is not rebuilt after a
restart, yet a player who dropped at `match_ended` still holds a token and an `after_seq`.
Rather than `unknown_table`, `resume` (and `watch`) of such a match get what they missed
from the stored log, exactly as the live table would have sent it (the same redaction, the
same frames), then the audience's final belief; `resumed.finished` tells them nothing more
will come. Moves are refused as after any match's end (`wrong_phase`), joins as at any full
table (`seat_taken`). Nothing here subscribes to the bus: a finished match never changes.

An abandoned match (its people all left for `abandon_after` seconds; a `table_abandoned`
record in its seats stream) is served the same way to spectators (`watch`), while `resume`
and moves get the typed error `table_abandoned`: the match stopped unfinished.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from archive.tables import TableConfig, read_table
from games.interface import RuleViolation, Seat
from games.registry import GAMES
from games.registry import Registry as Games
from protocol import ProtocolError
from protocol.frames import belief_frame
from server.feeds.bus import Envelope, Handler, Unsubscribe
from server.feeds.fanout import backlog
from server.table_game import TableGame
from server.tables.seats import ABANDONED, abandoned_error, token_matches
from storage import EventStore


class ArchivedTable:
    """The handle a Session uses for a retired finished match (see the module docstring)."""

    finished = True
    spectators = 0

    def __init__(self, config: TableConfig, claims: dict[Seat, str], log: list[Any],
                 game: TableGame, *, abandoned: bool = False) -> None:
        self.config = config
        self.abandoned = abandoned
        self.finished = not abandoned
        """The match ended (`resumed`/`watching.finished`); an abandoned one never did."""
        self.game = game
        self.table_id = config.table_id
        self.claims = claims
        """Seat -> sha256 of its token (the latest claim of each seat, as Table.restore)."""
        self.log = log
        self.state: Any = None
        for event in log:
            self.state = self.game.game.evolve(self.state, event)
        self._beliefs: dict[str, Envelope] = {}
        self._lock = threading.Lock()

    @classmethod
    def load(cls, store: EventStore, table_id: str, games: Games = GAMES
             ) -> ArchivedTable | None:
        """The table if its match is stored and ended (or abandoned), else None (blocking:
        use a thread)."""
        stored = read_table(store, table_id)
        if stored is None:
            return None
        head = store.last_seq(table_id)
        abandoned = any(r.get("type") == ABANDONED for r in stored.records)
        if head == 0 or (store.read(table_id, head - 1)[0].type != "match_ended"
                         and not abandoned):
            return None  # never started, or still in play (and hosted somewhere)
        claims = {seat: r["token_sha256"] for seat, r in stored.latest_claims().items()}
        game = TableGame.of_config(stored.config, games)
        log = [game.game.parse_event(e.payload) for e in store.read(table_id)]
        return cls(stored.config, claims, log, game, abandoned=abandoned)

    @property
    def last_seq(self) -> int:
        return len(self.log)

    def final_belief(self, audience: str) -> Envelope:
        """The audience's belief after the last event, as the live worker published it.

        Folding a whole match takes a while: call it off the event loop (open_feed does)."""
        with self._lock:
            found = self._beliefs.get(audience)
            if found is None:
                belief = self.game.game.belief(audience, self.config.variant)
                for event in self.log:
                    belief.apply(self.game.game.view(event, audience))
                snapshot = belief.snapshot_dict()
                frame = belief_frame(self.table_id, snapshot)
                found = Envelope(self.table_id, audience, "belief", snapshot["seq"], frame)
                self._beliefs[audience] = found
            return found

    # -- the Session's handle interface --------------------------------------------------

    async def open_feed(self, audience: str, deliver: Handler, after_seq: int,
                        reply: Callable[[int, int], None]) -> Unsubscribe:
        """reply(after, last), then the events after `after`, then the final belief."""
        belief = await asyncio.to_thread(self.final_belief, audience)
        after = min(after_seq, self.last_seq)
        reply(after, self.last_seq)
        for envelope in backlog(self.table_id, self.log, audience, after, self.game):
            deliver(envelope)
        deliver(belief)
        return _nothing

    async def find_seat(self, token: str) -> Seat | None:
        for seat, digest in self.claims.items():
            if token_matches(token, digest):
                return seat
        return None

    async def join_seat(self, seat: Seat, name: str) -> tuple[str, int]:
        raise ProtocolError("seat_taken", f"seat {seat} is taken: this match is over")

    async def move(self, seat: Seat, move: dict[str, Any], command_id: str | int | None) -> int:
        if self.abandoned:
            raise abandoned_error(self.last_seq)
        raise RuleViolation("wrong_phase", "the match is over")

    def presence(self, seat: Seat, delta: int) -> None:
        """Nobody plays here any more: presence changes nothing."""

    async def table_config(self) -> TableConfig:
        return self.config

    async def referee_log(self) -> list[Any]:
        return list(self.log)


def _nothing() -> None:
    pass
