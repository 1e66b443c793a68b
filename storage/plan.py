"""The pure part of a commit: check units against the stream heads, hash-link their events,
and say which rows and heads to write. No database here, so the SQLAlchemy writer
(PostgreSQL) and the raw sqlite3 writer (storage/raw_sqlite.py) share one set of rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from storage.chain import GENESIS_HASH, link_hash
from storage.errors import ConcurrencyConflict
from storage.keys import head_mac
from storage.prepare import PreparedAppend
from storage.records import StoredEvent

UnitResult = list[list[StoredEvent]] | ConcurrencyConflict
"""A unit's outcome: every append's events (in order), or the conflict that refused them all."""

EventRow = tuple[str, int, str, str, str, str]
"""An events row without its time: (stream, seq, type, payload text, prev_hash, hash)."""


@dataclass(slots=True)
class Head:
    last_seq: int
    last_hash: str
    db_seq: int  # last_seq as the database has it at the start of the transaction
    exists: bool  # whether the streams row exists in the database


@dataclass(slots=True)
class Plan:
    """What one transaction writes, and every unit's answer."""

    results: list[UnitResult] = field(default_factory=list)
    rows: list[EventRow] = field(default_factory=list)
    new: list[tuple[str, Head]] = field(default_factory=list)
    """Streams created: (name, head) — an INSERT into `streams`."""
    moved: list[tuple[str, Head]] = field(default_factory=list)
    """Streams advanced: (name, head; head.db_seq is the seq it must still have)."""


def plan_units(units: Sequence[Sequence[PreparedAppend]], heads: dict[str, Head],
               now: datetime) -> Plan:
    """Check every unit against the (locked) heads and chain its events.

    A unit that conflicts is undone before the next one is looked at: its rows are dropped
    and its heads restored, so nothing of it reaches the database. `heads` is updated.
    """
    plan = Plan()
    rows = plan.rows
    for unit in units:
        # what to restore if the unit fails part-way (a lone append fails before any change)
        before = {} if len(unit) == 1 else {
            a.stream: (h if (h := heads.get(a.stream)) is None else replace(h)) for a in unit
        }
        mark = len(rows)
        written: list[list[StoredEvent]] = []
        conflict: ConcurrencyConflict | None = None
        for append in unit:
            head = heads.get(append.stream) or Head(0, GENESIS_HASH, 0, exists=False)
            if head.last_seq != append.expected_seq:
                conflict = ConcurrencyConflict(append.stream, append.expected_seq, head.last_seq)
                break
            stored = _chain(append, head.last_hash, now, rows)
            head.last_seq, head.last_hash = stored[-1].seq, stored[-1].hash
            heads[append.stream] = head
            written.append(stored)
        if conflict is None:
            plan.results.append(written)
            continue
        del rows[mark:]
        for stream, head_before in before.items():
            if head_before is None:
                heads.pop(stream, None)
            else:
                heads[stream] = head_before
        plan.results.append(conflict)
    for stream, head in heads.items():
        if head.last_seq != head.db_seq:
            (plan.moved if head.exists else plan.new).append((stream, head))
    return plan


def seal(key: bytes | None, stream: str, head: Head) -> str | None:
    """The head's HMAC under the store's key (None in a store without one)."""
    return None if key is None else head_mac(key, stream, head.last_seq, head.last_hash)


def _chain(append: PreparedAppend, prev_hash: str, now: datetime,
           rows: list[EventRow]) -> list[StoredEvent]:
    """Hash-link the append's events after `prev_hash`; add their rows to `rows`."""
    stored = []
    stream = append.stream
    for event in append.events:
        digest = link_hash(prev_hash, event.text)
        stored.append(StoredEvent(stream, event.seq, event.type, event.payload, now, digest,
                                  prev_hash))
        rows.append((stream, event.seq, event.type, event.text, prev_hash, digest))
        prev_hash = digest
    return stored
