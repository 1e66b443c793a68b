"""Table ownership between server processes: one lease row per table in PostgreSQL.

`table_leases(table_id, owner, expires_at, epoch, finished)`: the owner renews all its rows
every few seconds; a row whose `expires_at` has passed may be taken by any server with one
conditional UPDATE (so exactly one wins). Times are the database's `now()`, so the servers'
clocks do not matter. A dead owner stops renewing and its tables are taken over within one
lease; a stopping owner expires its rows at once so the others take over immediately.

The lease coordinates; the event store fences: appends carry the expected seq, so an owner
that lost its lease without noticing cannot overwrite anything — its next append conflicts,
and so would the new owner's if the old one slipped a commit in, in which case the new
owner folds the stream again (see Registry.reload).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, create_engine, text

from storage import store_url

SCHEMA = """
CREATE TABLE IF NOT EXISTS table_leases (
    table_id   TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    epoch      INTEGER NOT NULL DEFAULT 1,
    finished   BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS table_leases_open ON table_leases (expires_at) WHERE NOT finished;
"""


@dataclass(frozen=True)
class Lease:
    table_id: str
    owner: str
    expired: bool
    finished: bool


class Leases:
    """Blocking calls (run them in a thread); one small connection pool per server."""

    def __init__(self, db: str, node: str, ttl: float) -> None:
        url = store_url(db)
        if not url.startswith("postgresql"):
            raise ValueError("table leases need PostgreSQL (--db postgresql://...)")
        self.node = node
        self.ttl = ttl
        self.engine: Engine = create_engine(url, pool_size=2, max_overflow=2,
                                            pool_pre_ping=True)
        with self.engine.begin() as conn:  # concurrent start-ups: one creates, others wait
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('table_leases'))"))
            for statement in filter(str.strip, SCHEMA.split(";")):
                conn.execute(text(statement))

    def _interval(self) -> str:
        return f"{self.ttl} seconds"

    def claim_new(self, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO table_leases (table_id, owner, expires_at) "
                "VALUES (:t, :me, now() + CAST(:ttl AS interval))"),
                {"t": table_id, "me": self.node, "ttl": self._interval()})

    def renew(self) -> set[str]:
        """Extend every open lease of ours; returns the tables we still own."""
        with self.engine.begin() as conn:
            rows = conn.execute(text(
                "UPDATE table_leases SET expires_at = now() + CAST(:ttl AS interval) "
                "WHERE owner = :me AND NOT finished AND expires_at > now() RETURNING table_id"),
                {"me": self.node, "ttl": self._interval()})
            return {row[0] for row in rows}

    def expired(self, limit: int = 100) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT table_id FROM table_leases WHERE NOT finished AND expires_at <= now() "
                "ORDER BY expires_at LIMIT :n"), {"n": limit})
            return [row[0] for row in rows]

    def mine(self) -> list[str]:
        """Open tables leased to this node name (a restart takes them back at once)."""
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT table_id FROM table_leases WHERE owner = :me AND NOT finished"),
                {"me": self.node})
            return [row[0] for row in rows]

    def take(self, table_id: str) -> int | None:
        """Become the owner if the lease has run out (or is ours); returns the new epoch."""
        with self.engine.begin() as conn:
            row = conn.execute(text(
                "UPDATE table_leases SET owner = :me, "
                "expires_at = now() + CAST(:ttl AS interval), epoch = epoch + 1 "
                "WHERE table_id = :t AND NOT finished AND (expires_at <= now() OR owner = :me) "
                "RETURNING epoch"), {"t": table_id, "me": self.node, "ttl": self._interval()}
            ).first()
            return None if row is None else int(row[0])

    def finish(self, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(text("UPDATE table_leases SET finished = TRUE WHERE table_id = :t"),
                         {"t": table_id})

    def release_all(self) -> None:
        """Stopping: let the others take our tables over now rather than after the lease."""
        with self.engine.begin() as conn:
            conn.execute(text("UPDATE table_leases SET expires_at = now() "
                              "WHERE owner = :me AND NOT finished"), {"me": self.node})

    def lookup(self, table_id: str) -> Lease | None:
        with self.engine.connect() as conn:
            row = conn.execute(text(
                "SELECT owner, expires_at <= now(), finished FROM table_leases "
                "WHERE table_id = :t"), {"t": table_id}).first()
            return None if row is None else Lease(table_id, row[0], bool(row[1]), bool(row[2]))

    def open_tables(self, limit: int = 200) -> list[Lease]:
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT table_id, owner, expires_at <= now(), finished FROM table_leases "
                "WHERE NOT finished ORDER BY table_id LIMIT :n"), {"n": limit})
            return [Lease(r[0], r[1], bool(r[2]), bool(r[3])) for r in rows]

    def close(self) -> None:
        self.engine.dispose()
