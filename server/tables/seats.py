"""Seat tokens: random bearer secrets of which only a sha256 is ever stored; and the record of
a move a stand-in bot made for a person (kept beside the claims, in the seats stream).

A token proves a connection may act (or resume) as one seat of one table. Storing its hash
in the table's side stream lets tokens survive a restart without the store holding secrets.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from protocol import ProtocolError

TOKEN_BYTES = 24
"""192 bits of randomness (the protocol promises at least 128)."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, digest: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored digest."""
    return digest is not None and hmac.compare_digest(token_digest(token), digest)


STOOD_IN = "stand_in_moved"
"""The seats-stream record of a move a stand-in bot made for a person."""


@dataclass(frozen=True)
class StandIn:
    """A move a stand-in bot made for a person: why, and the event that records it.

    `clock`: the table's turn clock ran out on a connected person (one move); `away`: the
    person was disconnected past the grace period (the stand-in plays until they return)."""

    seq: int
    seat: str
    reason: Literal["clock", "away"]

    def record(self) -> dict[str, Any]:
        # `event_seq`, not `seq`: the store stamps each record's own `seq` in its stream
        return {"type": STOOD_IN, "event_seq": self.seq, "seat": self.seat,
                "reason": self.reason}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> StandIn:
        return cls(int(data["event_seq"]), str(data["seat"]), data["reason"])


ABANDONED = "table_abandoned"
"""The seats-stream record of a table whose people all left for `abandon_after` seconds: its
match stopped unfinished at `event_seq` (the match's own log is left as it was); at
`event_seq` 0, a table closed while it waited for players (`close_empty_after`)."""


def abandoned_error(last_seq: int) -> ProtocolError:
    """The answer to a move, a resume or a join at an abandoned table."""
    if last_seq == 0:
        return ProtocolError("table_abandoned",
                             "this table was closed: it waited for players with nobody "
                             "at it too long; create a new one")
    return ProtocolError("table_abandoned",
                         f"this table was abandoned: every player was away too long, so "
                         f"the match stopped unfinished after event {last_seq}; its replay "
                         f"can still be watched")
