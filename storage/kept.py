"""A bounded store of computed answers beside the events: `name` -> bytes, kept across
restarts and shared by every process on the same database.

For answers that are a pure function of their name (e.g. an advisor's figures for a position,
named by a hash of that position) and cost seconds of CPU to recompute: a server that
restarts, or another server on the same database, reads them instead. Not events: never in a
stream's chain, not sealed, and the oldest go first beyond `max_entries` (a lost row costs a
recomputation). Values are zlib-compressed (JSON with repeated labels shrinks ~30x) and one
above `max_value_bytes` once compressed is not kept. The first value put under a name stays.
"""

from __future__ import annotations

import zlib
from datetime import UTC, datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from storage.engine import write_transaction
from storage.schema import STREAM_MAX
from storage.schema import kept as kept_table
from storage.store import EventStore

MAX_ENTRIES = 10_000
MAX_VALUE_BYTES = 64 * 1024
"""At most MAX_ENTRIES x MAX_VALUE_BYTES (640 MB) in all; Texas 42's oracle answers are 4-6 kB
compressed (a full table of them: about 60 MB)."""


class KeptValues:
    """Thread-safe (each call takes its own connection); blocking: call it off an event loop."""

    def __init__(self, store: EventStore, max_entries: int = MAX_ENTRIES,
                 max_value_bytes: int = MAX_VALUE_BYTES) -> None:
        self.store = store
        self.max_entries = max_entries
        self.max_value_bytes = max_value_bytes

    def get(self, name: str) -> bytes | None:
        """The value kept under `name` (None: none)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(kept_table.c.value)
                               .where(kept_table.c.name == name)).first()
        return None if row is None else zlib.decompress(row[0])

    def put(self, name: str, value: bytes) -> bool:
        """Keep `value` under `name` unless one is kept already or it is too large; whether
        it was written. The oldest beyond `max_entries` are dropped in the same transaction."""
        if not name or len(name) > STREAM_MAX:
            raise ValueError(f"a kept value's name is 1 to {STREAM_MAX} characters")
        packed = zlib.compress(value, 6)
        if len(packed) > self.max_value_bytes:
            return False
        engine = self.store.engine
        try:
            with write_transaction(engine) as conn:
                conn.execute(insert(kept_table).values(name=name, value=packed,
                                                       kept_at=datetime.now(UTC)))
                count = conn.execute(select(func.count()).select_from(kept_table)).scalar_one()
                if count > self.max_entries:
                    oldest = (select(kept_table.c.name)
                              .order_by(kept_table.c.kept_at, kept_table.c.name)
                              .limit(count - self.max_entries))
                    conn.execute(delete(kept_table).where(kept_table.c.name.in_(oldest)))
        except IntegrityError:  # another process kept it first: the same answer
            return False
        return True

    def __len__(self) -> int:
        with self.store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(kept_table)).scalar_one())
