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
from storage.records import StoredEvent, stored_event

UnitResult = list[list[StoredEvent]] | ConcurrencyConflict
"""A unit's outcome: every append's events (in order), or the conflict that refused them all."""

EventRow = tuple[str, int, str, str, object, str, str]
"""An events row in the table's column order: (stream, seq, type, payload text, the commit's
time as the writer binds it, prev_hash, hash)."""


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
               now: datetime, stamp: object = None) -> Plan:
    """Check every unit against the (locked) heads and chain its events.

    A unit that conflicts is undone before the next one is looked at: its rows are dropped
    and its heads restored, so nothing of it reaches the database. `heads` is updated.
    `stamp` is `now` as the writer binds it, put in each row (the raw writer's text).
    """
    plan = Plan()
    rows = plan.rows
    results = plan.results
    for unit in units:
        if len(unit) == 1:  # most units: one append, which fails before it changes anything
            append = unit[0]
            head = heads.get(append.stream)
            if head is None:
                head = Head(0, GENESIS_HASH, 0, exists=False)
            if head.last_seq != append.expected_seq:
                results.append(ConcurrencyConflict(append.stream, append.expected_seq,
                                                   head.last_seq))
                continue
            stored = _chain(append, head, now, stamp, rows)
            heads[append.stream] = head
            results.append([stored])
            continue
        # what to restore if the unit fails part-way
        before = {a.stream: (h if (h := heads.get(a.stream)) is None else replace(h))
                  for a in unit}
        mark = len(rows)
        written: list[list[StoredEvent]] = []
        conflict: ConcurrencyConflict | None = None
        for append in unit:
            head = heads.get(append.stream) or Head(0, GENESIS_HASH, 0, exists=False)
            if head.last_seq != append.expected_seq:
                conflict = ConcurrencyConflict(append.stream, append.expected_seq, head.last_seq)
                break
            written.append(_chain(append, head, now, stamp, rows))
            heads[append.stream] = head
        if conflict is None:
            results.append(written)
            continue
        del rows[mark:]
        for stream, head_before in before.items():
            if head_before is None:
                heads.pop(stream, None)
            else:
                heads[stream] = head_before
        results.append(conflict)
    for stream, head in heads.items():
        if head.last_seq != head.db_seq:
            (plan.moved if head.exists else plan.new).append((stream, head))
    return plan


def seal(key: bytes | None, stream: str, head: Head) -> str | None:
    """The head's HMAC under the store's key (None in a store without one)."""
    return None if key is None else head_mac(key, stream, head.last_seq, head.last_hash)


def _chain(append: PreparedAppend, head: Head, now: datetime, stamp: object,
           rows: list[EventRow]) -> list[StoredEvent]:
    """Hash-link the append's events after the head, add their rows to `rows`, and move the
    head to the last of them."""
    stored = []
    stream = append.stream
    prev_hash = head.last_hash
    for event in append.events:
        digest = link_hash(prev_hash, event.text)
        stored.append(stored_event(stream, event.seq, event.type, event.payload, now, digest,
                                   prev_hash))
        rows.append((stream, event.seq, event.type, event.text, stamp, prev_hash, digest))
        prev_hash = digest
    head.last_seq, head.last_hash = append.events[-1].seq, prev_hash
    return stored
