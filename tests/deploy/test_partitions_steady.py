"""Partition leases in the steady state: one statement per round, and still correct when the
pool changes or a lease is lost (real PostgreSQL; issue 15: an idle worker's fixed cost was
its lease rounds, four statements and a pre-ping each third of a lease)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, text

from server.cluster.partitions import PartitionLeases, assign

pytestmark = pytest.mark.postgres
TTL = 30.0  # nothing expires while a test runs unless it says so


@contextmanager
def counting(leases: PartitionLeases) -> Iterator[list[str]]:
    """The SQL statements `leases` sends while the block runs."""
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(statement)

    event.listen(leases.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(leases.engine, "before_cursor_execute", record)


def settle(pool: list[PartitionLeases]) -> None:
    """Rounds until every worker holds its plan (a few suffice: hand-overs are immediate)."""
    for _ in range(4):
        for leases in pool:
            leases.round()


def owners(leases: PartitionLeases) -> dict[int, str]:
    with leases.engine.connect() as conn:
        rows = conn.execute(text("SELECT partition, owner FROM partition_leases"))
        return {int(p): o for p, o in rows}


def expiries(leases: PartitionLeases, worker: str) -> dict[int, object]:
    with leases.engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT partition, expires_at FROM partition_leases WHERE owner = :w"), {"w": worker})
        return {int(p): e for p, e in rows}


def test_a_steady_round_is_one_statement_that_renews_everything_held(pg_url: str) -> None:
    pool = [PartitionLeases(pg_url, name, TTL) for name in ("w1", "w2")]
    try:
        settle(pool)
        w1 = pool[0]
        held = w1.round().held
        assert held == frozenset(assign(64, ["w1", "w2"])["w1"])
        before = expiries(w1, "w1")
        with counting(w1) as statements:
            again = w1.round()
        assert len(statements) == 1, statements  # four, plus a pre-ping, before
        assert again.held == held and again.live_workers == ("w1", "w2")
        after = expiries(w1, "w1")
        assert set(after) == set(held)
        assert all(after[p] > before[p] for p in held)  # every lease renewed
    finally:
        for leases in pool:
            leases.close()


def test_a_steady_worker_still_sees_a_newcomer_and_a_lost_lease(pg_url: str) -> None:
    pool = [PartitionLeases(pg_url, name, TTL) for name in ("w1", "w2")]
    try:
        settle(pool)
        pool.append(PartitionLeases(pg_url, "w3", TTL))
        settle(pool)
        plan = assign(64, ["w1", "w2", "w3"])
        assert owners(pool[0]) == {p: w for w, ps in plan.items() for p in ps}
        assert sorted(Counter(owners(pool[0]).values()).values()) == [21, 21, 22]
        w1 = pool[0]
        lost = min(plan["w1"])
        with w1.engine.begin() as conn:  # someone else took it (its lease is live)
            conn.execute(text("UPDATE partition_leases SET owner = 'intruder' "
                              "WHERE partition = :p"), {"p": lost})
        assert lost not in w1.round().held
        with w1.engine.begin() as conn:  # the intruder's lease runs out: w1 takes it back
            conn.execute(text("UPDATE partition_leases SET expires_at = now() "
                              "WHERE partition = :p"), {"p": lost})
        assert w1.round().held == frozenset(plan["w1"])
        with counting(w1) as statements:
            assert w1.round().held == frozenset(plan["w1"])
        assert len(statements) == 1
    finally:
        for leases in pool:
            leases.close()
