"""Inference partitions: which worker folds which tables, held by lease in PostgreSQL.

Every table belongs to one of P partitions (`partition_of` in server/feeds/topics.py: a
stable hash of its id, the same in every process and every run). Each partition is folded
by one worker at a time, so a worker keeps its tables' beliefs in memory, folds each event
once, and never re-reads what it folded; adding a worker adds capacity, not duplicate folds.

Who should own what (`assign`) is a pure function of the live workers' names: rendezvous
(highest random weight) hashing, balanced so every worker gets P // N or P // N + 1
partitions. Every worker computes it alike, so no coordinator is needed; a joining or
leaving worker moves few partitions: its share, plus what balancing costs (64 partitions,
2 -> 3 workers: 21 moved, the newcomer's 21; 3 -> 2: 25 for the leaver's 22; over 300
random pools of 1-7 workers at most 1.9x the minimum; tests/deploy/test_partitions_assign.py).

The leases (`PartitionLeases`, two tables, made as `table_leases` is):
    inference_workers(name, expires_at, partitions)     one heartbeat row per live worker
    partition_leases(partition, owner, expires_at, epoch)
Each round a worker heartbeats, reads the live workers, renews the partitions `assign`
gives it and takes those whose lease ran out (or that were handed to it), and hands the
ones it should no longer hold straight to their new owner. In the steady state (the same
live workers as last round, holding exactly its plan) a round is one statement, one round
trip: an idle worker's fixed cost was its lease rounds (issue 15: 1.5 of its 2.0 ms of CPU
per second, four statements each third of a lease), paid again by every worker added.
A dead worker stops renewing: after one lease its heartbeat and its leases have
expired and the others take its partitions over. Times are the database's `now()`, so
the workers' clocks do not matter. The lease coordinates; correctness does not depend on
it: beliefs are computed from the store and every reader's seq gate drops anything older
than what it has.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError

from server.feeds.topics import DEFAULT_PARTITIONS, partition_of
from storage import store_url

__all__ = ["DEFAULT_PARTITIONS", "PartitionLeases", "Round", "assign", "partition_of"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS inference_workers (
    name       TEXT PRIMARY KEY,
    expires_at TIMESTAMPTZ NOT NULL,
    partitions INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS partition_leases (
    partition  INTEGER PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    epoch      INTEGER NOT NULL DEFAULT 1
)
"""


def _hash64(text_: str) -> int:
    return int.from_bytes(hashlib.blake2b(text_.encode(), digest_size=8).digest(), "big")


def _score(partition: int, worker: str) -> int:
    return _hash64(f"{partition}/{worker}")


def assign(partitions: int, workers: list[str] | set[str]) -> dict[str, list[int]]:
    """Each live worker's partitions (see `_assign`; the same pool gives the same plan, so
    it is computed once per pool, not every lease round)."""
    return {w: list(ps) for w, ps in _assign(partitions, tuple(sorted(set(workers))))}


@lru_cache(maxsize=16)
def _assign(partitions: int, names: tuple[str, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each live worker's partitions: rendezvous hashing with balanced quotas.

    Pairs (partition, worker) are taken in order of their hash score, best first; a pair is
    kept when the partition is still free and the worker below its quota. Quotas are P // N,
    plus one for the P % N workers that pure rendezvous favours most, so counts differ by at
    most one. A worker joining takes the pairs it scores best on; the others mostly keep
    theirs.
    """
    if not names:
        return ()
    base, extra = divmod(partitions, len(names))
    scores = {(p, w): _score(p, w) for p in range(partitions) for w in names}

    def favourite_of(p: int) -> str:
        return max(names, key=lambda w: scores[(p, w)])

    favourite = Counter(favourite_of(p) for p in range(partitions))
    ranked = sorted(names, key=lambda w: (-favourite[w], w))
    quota = {w: base + (1 if i < extra else 0) for i, w in enumerate(ranked)}
    owner: dict[int, str] = {}
    load: Counter[str] = Counter()
    for (partition, worker), _ in sorted(scores.items(), key=lambda item: -item[1]):
        if partition not in owner and load[worker] < quota[worker]:
            owner[partition] = worker
            load[worker] += 1
    result: dict[str, list[int]] = {w: [] for w in names}
    for partition in range(partitions):
        result[owner[partition]].append(partition)
    return tuple((w, tuple(ps)) for w, ps in result.items())


STEADY_ROUND = text("""
WITH beat AS (
    INSERT INTO inference_workers (name, expires_at, partitions)
    VALUES (:me, now() + CAST(:ttl AS interval), :p)
    ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at
    RETURNING name),
renewed AS (
    UPDATE partition_leases SET expires_at = now() + CAST(:ttl AS interval)
    WHERE owner = :me AND partition = ANY(:keep) RETURNING partition)
SELECT name, NULL::integer FROM inference_workers
    WHERE expires_at > now() AND partitions = :p AND name <> :me
UNION ALL SELECT NULL, partition FROM renewed
UNION ALL SELECT name, NULL FROM beat
""")
"""Heartbeat, renew everything held and read the other live workers, in one statement (the
CTEs run whether or not the select reads them; it sees the table as the statement began,
so our own heartbeat comes from `beat`)."""


@dataclass(frozen=True)
class Round:
    """What one lease round left this worker holding."""

    held: frozenset[int]
    live_workers: tuple[str, ...]


class PartitionLeases:
    """Blocking calls (run them in a thread); one small connection pool per worker."""

    def __init__(self, db: str, worker: str, ttl: float,
                 partitions: int = DEFAULT_PARTITIONS) -> None:
        url = store_url(db)
        if not url.startswith("postgresql"):
            raise ValueError("partition leases need PostgreSQL (--db postgresql://...)")
        if partitions < 1:
            raise ValueError("partitions must be at least 1")
        self.worker = worker
        self.ttl = ttl
        self.partitions = partitions
        self.engine: Engine = create_engine(url, pool_size=1, max_overflow=2)
        # (no pre-ping: a round trip per checkout; a dropped connection fails one round,
        # which is retried at once on a fresh connection, see `round`)
        self._steady: Round | None = None
        """The last round, when it left us holding exactly our plan (the steady state)."""
        with self.engine.begin() as conn:  # concurrent start-ups: one creates, others wait
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('partition_leases'))"))
            for statement in filter(str.strip, SCHEMA.split(";")):
                conn.execute(text(statement))
            other = conn.execute(text(
                "SELECT name, partitions FROM inference_workers "
                "WHERE expires_at > now() AND partitions <> :p LIMIT 1"),
                {"p": partitions}).first()
        if other is not None:
            raise ValueError(f"live worker {other[0]} uses {other[1]} partitions, "
                             f"not {partitions}: every worker and server must agree")

    def _ttl(self) -> str:
        return f"{self.ttl} seconds"

    def round(self) -> Round:
        """Heartbeat, then hold exactly what `assign` gives us among the live workers.

        Steady state first (one statement); if the pool changed, or a lease we held was
        lost, the full round. A connection found dead is replaced and the round run again.
        """
        try:
            return self._round()
        except DBAPIError as error:
            if not error.connection_invalidated:
                raise
            return self._round()

    def _round(self) -> Round:
        steady = self._steady
        if steady is not None:
            found = self._steady_round(steady)
            if found is not None:
                return found
        found = self._full_round()
        plan = assign(self.partitions, list(found.live_workers))
        self._steady = found if set(plan.get(self.worker, [])) == found.held else None
        return found

    def _steady_round(self, last: Round) -> Round | None:
        """The steady round: the same live workers and every held lease renewed, or None."""
        params = {"me": self.worker, "ttl": self._ttl(), "p": self.partitions,
                  "keep": sorted(last.held)}
        with self.engine.connect() as conn:  # one statement: no BEGIN/COMMIT round trips
            conn.execution_options(isolation_level="AUTOCOMMIT")
            rows = conn.execute(STEADY_ROUND, params).all()
        live = tuple(sorted({name for name, partition in rows if partition is None}))
        renewed = frozenset(partition for _, partition in rows if partition is not None)
        if live != last.live_workers or renewed != last.held:
            return None
        return last

    def _full_round(self) -> Round:
        """One transaction: partitions we hold but should not are handed to their new owner
        (who picks them up on its next round, no lease wait); partitions we should hold are
        renewed, or taken if their lease ran out or was handed to us.
        """
        params = {"me": self.worker, "ttl": self._ttl(), "p": self.partitions}
        with self.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO inference_workers (name, expires_at, partitions) "
                "VALUES (:me, now() + CAST(:ttl AS interval), :p) "
                "ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at"), params)
            live = [row[0] for row in conn.execute(text(
                "SELECT name FROM inference_workers WHERE expires_at > now() "
                "AND partitions = :p"), params)]
            plan = assign(self.partitions, live)
            wanted = set(plan.get(self.worker, []))
            owner_of = {p: w for w, ps in plan.items() for p in ps}
            leases = {row[0]: (row[1], bool(row[2])) for row in conn.execute(text(
                "SELECT partition, owner, expires_at > now() FROM partition_leases"))}
            mine = {p for p, (owner, live_) in leases.items() if owner == self.worker and live_}
            for partition in sorted(mine - wanted):  # hand over: its new owner takes it now
                conn.execute(text(
                    "UPDATE partition_leases SET owner = :to, epoch = epoch + 1, "
                    "expires_at = now() + CAST(:ttl AS interval) "
                    "WHERE partition = :n AND owner = :me"),
                    {**params, "n": partition, "to": owner_of.get(partition, self.worker)})
            held: set[int] = set()
            keep = sorted(wanted & {p for p, (owner, _) in leases.items()
                                    if owner == self.worker})
            if keep:  # one statement renews everything we keep (the steady state)
                held.update(row[0] for row in conn.execute(text(
                    "UPDATE partition_leases SET expires_at = now() + CAST(:ttl AS interval) "
                    "WHERE owner = :me AND partition = ANY(:keep) RETURNING partition"),
                    {**params, "keep": keep}))
            for partition in sorted(wanted - held):  # free, expired, or someone else's
                row = conn.execute(text(
                    "INSERT INTO partition_leases (partition, owner, expires_at) "
                    "VALUES (:n, :me, now() + CAST(:ttl AS interval)) "
                    "ON CONFLICT (partition) DO UPDATE SET owner = :me, "
                    "expires_at = EXCLUDED.expires_at, epoch = partition_leases.epoch + 1 "
                    "WHERE partition_leases.expires_at <= now() RETURNING partition"),
                    {**params, "n": partition}).first()
                if row is not None:
                    held.add(partition)
        return Round(frozenset(held), tuple(sorted(live)))

    def open_tables(self, partitions: frozenset[int] | set[int]) -> list[str]:
        """Tables a live server holds (table_leases) that fall in `partitions`: what a new
        owner rebuilds from the store at once, rather than waiting to be asked."""
        with self.engine.connect() as conn:
            if conn.execute(text("SELECT to_regclass('table_leases')")).scalar() is None:
                return []  # no server has started on this store yet
            rows = conn.execute(text(
                "SELECT table_id FROM table_leases WHERE NOT finished AND expires_at > now()"))
            return [row[0] for row in rows
                    if partition_of(row[0], self.partitions) in partitions]

    def owners(self) -> dict[int, str]:
        """Every partition's current (unexpired) owner: for health figures and tests."""
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT partition, owner FROM partition_leases WHERE expires_at > now()"))
            return {int(row[0]): row[1] for row in rows}

    def resign(self) -> None:
        """Stopping: leave the live set and expire our leases, so others take over now."""
        with self.engine.begin() as conn:
            conn.execute(text("DELETE FROM inference_workers WHERE name = :me"),
                         {"me": self.worker})
            conn.execute(text("UPDATE partition_leases SET expires_at = now() "
                              "WHERE owner = :me"), {"me": self.worker})

    def close(self) -> None:
        self.engine.dispose()
