"""A bounded store of computed answers beside the events: `name` -> bytes, kept across
restarts and shared by every process on the same database.

For answers that are a pure function of their name (e.g. an advisor's figures for a position,
named by a hash of that position) and cost seconds of CPU to recompute: a server that
restarts, or another server on the same database, reads them instead. Not events: never in a
stream's chain, not sealed, and the oldest go first beyond `max_entries` (a lost row costs a
recomputation). Values are zlib-compressed (JSON with repeated labels shrinks ~30x) and one
above `max_value_bytes` once compressed is not kept. The first value put under a name stays.

A store with a key (storage/keys.py) seals each row: HMAC-SHA256(key, name NUL value), so a
person who can write the database but has not the key cannot put words in the advisor's
mouth. A row that fails its seal, or does not unpack, reads as absent and is replaced by the
next put (the answer is computed again).
"""

from __future__ import annotations

import hmac
import zlib
from datetime import UTC, datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from storage.engine import write_transaction
from storage.schema import STREAM_MAX
from storage.schema import kept as kept_table
from storage.store import EventStore

MAX_ENTRIES = 10_000
SEALED, OPEN = b"M", b"-"
"""A row's first byte: sealed with the store's key (the MAC follows), or kept without one."""
MAC_BYTES = 32
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
        self._keyed = store.mac(b"") is not None

    def _seal(self, name: str, packed: bytes) -> bytes:
        """SEALED + the row's HMAC + `packed` under a key; OPEN + `packed` without one."""
        mac = self.store.mac(name.encode() + b"\0" + packed)
        return OPEN + packed if mac is None else SEALED + mac + packed

    def _unseal(self, name: str, stored: bytes) -> bytes | None:
        """The packed value of a row that passes its seal (None: it does not)."""
        if stored[:1] == SEALED:
            mac, packed = stored[1:1 + MAC_BYTES], stored[1 + MAC_BYTES:]
            expected = self.store.mac(name.encode() + b"\0" + packed)
            return packed if expected is None or hmac.compare_digest(mac, expected) else None
        if stored[:1] == OPEN and not self._keyed:  # no key, nothing to check
            return stored[1:]
        return None  # unsealed in a keyed store, or not a row this module wrote

    def get(self, name: str) -> bytes | None:
        """The value kept under `name` (None: none, or one that fails its seal or does not
        unpack: it is replaced by the next put)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(kept_table.c.value)
                               .where(kept_table.c.name == name)).first()
        return None if row is None else self._value(name, bytes(row[0]))

    def _value(self, name: str, stored: bytes) -> bytes | None:
        packed = self._unseal(name, stored)
        try:
            return None if packed is None else zlib.decompress(packed)
        except zlib.error:
            return None

    def put(self, name: str, value: bytes) -> bool:
        """Keep `value` under `name` unless a good one is kept already or it is too large;
        whether it was written. The oldest beyond `max_entries` are dropped in the same
        transaction."""
        if not name or len(name) > STREAM_MAX:
            raise ValueError(f"a kept value's name is 1 to {STREAM_MAX} characters")
        packed = zlib.compress(value, 6)
        if len(packed) > self.max_value_bytes:
            return False
        engine = self.store.engine
        try:
            with write_transaction(engine) as conn:
                row = conn.execute(select(kept_table.c.value)
                                   .where(kept_table.c.name == name)).first()
                if row is not None:
                    if self._value(name, bytes(row[0])) is not None:
                        return False  # a good one is kept: the first stays
                    # a damaged or forged one: ours takes its place
                    conn.execute(delete(kept_table).where(kept_table.c.name == name))
                conn.execute(insert(kept_table).values(name=name, value=self._seal(name, packed),
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
