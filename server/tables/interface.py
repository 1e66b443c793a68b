"""The one declared interface of a table, whoever hosts it: what a connection and the advice
desk may ask of a table handle.

Three kinds satisfy it: the local actor (server/tables/local.py), a handle on a table another
server owns (server/tables/remote.py), and a retired finished match read from the store
(server/tables/archived.py). Callers use these methods only, never the kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from archive.tables import TableConfig
from games.interface import Seat
from server.feeds.bus import Handler, Unsubscribe

Reply = Callable[[int, int], None]
"""Sends the attach reply, given (after_seq, last_seq), before the first event."""


class TableHandle(Protocol):
    """A table as a connection sees it (local, remote or archived)."""

    table_id: str
    spectators: int
    """Spectator connections attached (counted where the table is hosted)."""

    @property
    def finished(self) -> bool:
        """The match ended: nothing more will come (said in `resumed` and `watching`)."""
        ...

    async def open_feed(self, audience: str, deliver: Handler, after_seq: int,
                        reply: Reply) -> Unsubscribe:
        """reply(after, last), then the audience's events after `after`, then live ones."""
        ...

    async def find_seat(self, token: str) -> Seat | None:
        """The seat `token` was given at this table, if any."""
        ...

    async def join_seat(self, seat: Seat, name: str) -> tuple[str, int]:
        """Claim `seat`: its token and the seq its feed starts from."""
        ...

    async def move(self, seat: Seat, move: dict[str, Any], command_id: str | int | None) -> int:
        """Apply a seat's move (the game's wire payload); the seq of the event recording it."""
        ...

    def presence(self, seat: Seat, delta: int) -> None:
        """A connection of `seat` attached (+1) or went away (-1)."""
        ...

    async def table_config(self) -> TableConfig | None:
        """What the table was created with (None: its record is missing)."""
        ...

    async def referee_log(self) -> list[Any]:
        """The whole referee's log now (every hand open: for the advisor, never sent)."""
        ...
