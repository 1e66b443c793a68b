"""Re-check a stream's hash chain and its head, in one snapshot.

The chain catches an edited or removed event anywhere before the head; the `streams` row
(last seq and hash, written in the same transaction as the events) catches a cut-off tail
or events slipped in behind the store's back.
"""

from __future__ import annotations

import hmac
import json

from sqlalchemy import Connection, Engine, func, select

from storage.chain import GENESIS_HASH, link_hash
from storage.keys import head_mac
from storage.records import ChainProblem, ChainReport
from storage.schema import events, streams

_PAGE = 2000


def verify_stream(engine: Engine, stream: str, key: bytes | None = None, *,
                  sealed: bool = False) -> ChainReport:
    """The chain and head of `stream`; in a sealed store also the head's HMAC under `key`
    (reason "seal": missing, wrong, or no key to check it with)."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        with conn.begin():
            return _verify(conn, stream, key, sealed)


def _verify(conn: Connection, stream: str, key: bytes | None = None,
            sealed: bool = False) -> ChainReport:
    head = conn.execute(
        select(streams.c.last_seq, streams.c.last_hash, streams.c.head_mac)
        .where(streams.c.stream == stream)
    ).first()
    head_seq, head_hash = (head.last_seq, head.last_hash) if head else (0, GENESIS_HASH)
    checked = 0

    def bad(seq: int, reason: ChainProblem, detail: str) -> ChainReport:
        return ChainReport(stream, False, checked, head_seq, seq, reason, detail)

    expected_seq, prev_hash = 1, GENESIS_HASH
    while True:
        page = conn.execute(
            select(events.c.seq, events.c.type, events.c.payload, events.c.prev_hash, events.c.hash)
            .where(events.c.stream == stream, events.c.seq >= expected_seq)
            .order_by(events.c.seq)
            .limit(_PAGE)
        ).all()
        for seq, kind, text, row_prev, row_hash in page:
            if seq != expected_seq:
                return bad(expected_seq, "gap", f"seq {expected_seq} missing (next is {seq})")
            if row_prev != prev_hash:
                return bad(seq, "prev_hash", "prev_hash does not match the previous event's hash")
            if link_hash(prev_hash, text) != row_hash:
                return bad(seq, "hash", "payload does not match its hash")
            problem = _payload_problem(text, seq, kind)
            if problem:
                return bad(seq, "payload", problem)
            checked += 1
            expected_seq, prev_hash = seq + 1, row_hash
        if len(page) < _PAGE:
            break

    last = expected_seq - 1
    if last < head_seq:
        return bad(last + 1, "head", f"events end at seq {last}, streams table says {head_seq}")
    if last > head_seq:
        return bad(head_seq + 1, "head", f"events go to seq {last}, streams table says {head_seq}")
    if prev_hash != head_hash:
        return bad(last, "head", "last event's hash differs from the streams table's")
    stray = conn.execute(
        select(func.min(events.c.seq)).where(events.c.stream == stream, events.c.seq < 1)
    ).scalar()
    if stray is not None:  # the chain starts at 1; a row below it was slipped in
        return bad(stray, "gap", f"row with seq {stray} before the chain's start")
    if sealed and head is not None:
        if key is None:
            return bad(head_seq, "seal", "the store is sealed with a key: give it to check")
        if head.head_mac is None or not hmac.compare_digest(
                head.head_mac, head_mac(key, stream, head_seq, head_hash)):
            return bad(head_seq, "seal", "the head's seal does not match: the stream was "
                                         "written without the store's key")
    return ChainReport(stream, True, checked, head_seq)


def _payload_problem(text: str, seq: int, kind: str) -> str | None:
    try:
        payload = json.loads(text)
    except ValueError:
        return "payload is not JSON"
    if not isinstance(payload, dict):
        return "payload is not a JSON object"
    if payload.get("seq") != seq:
        return f"payload seq {payload.get('seq')!r} differs from row seq {seq}"
    if payload.get("type") != kind:
        return f"payload type {payload.get('type')!r} differs from row type {kind!r}"
    return None
