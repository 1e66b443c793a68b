"""The store against the database driver alone: the same rows, the same durability.

`bench store` asks what the store adds to a commit. The raw arm writes exactly the rows the
store writes (the store's own schema, its triggers and foreign key; the same payload text,
hashes and head seals; a `streams` row inserted or advanced per stream, the advance checked
against the seq it must still have) with plain sqlite3 (WAL, synchronous=FULL, BEGIN
IMMEDIATE, as the store) or plain psycopg, every value computed before the clock starts.
What computing those values costs (canonical JSON, the sha256 chain, the HMAC seals) is
timed on its own as the *chain*: the raw arm plus the chain is the least a store with these
guarantees could cost. The arms alternate (store first in even rounds, raw first in odd
ones), each round in fresh databases, so that a noisy machine hits both alike.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from storage.chain import GENESIS_HASH, canonical_json, link_hash
from storage.engine import SQLITE_BUSY_TIMEOUT_MS
from storage.keys import head_mac
from storage.store import EventStore, sqlite_path

KEY = bytes(range(32))
"""The bench seals heads, as a server does (the raw arm writes the same seals)."""
STAMP = "2026-11-28 12:00:00.000000"
"""The raw arm's recorded_at: the text the store writes for a time (naive UTC, µs)."""

Event = dict[str, object]
Append = tuple[str, int, list[Event]]
Commit = list[Append]

_INSERT_STREAM = ("INSERT INTO streams (stream, last_seq, last_hash, created_at, updated_at, "
                  "head_mac) VALUES ({0}, {0}, {0}, {0}, {0}, {0})")
_ADVANCE_HEAD = ("UPDATE streams SET last_seq = {0}, last_hash = {0}, updated_at = {0}, "
                 "head_mac = {0} WHERE stream = {0} AND last_seq = {0}")
_INSERT_EVENTS = ("INSERT INTO events (stream, seq, type, payload, recorded_at, prev_hash, "
                  "hash) VALUES ({0}, {0}, {0}, {0}, {0}, {0}, {0})")


@dataclass
class RawCommit:
    """One commit's rows, ready to bind."""

    new: list[tuple[Any, ...]] = field(default_factory=list)
    moved: list[tuple[Any, ...]] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)


@dataclass(frozen=True)
class Workload:
    name: str
    commits: list[Commit]

    @property
    def events(self) -> int:
        return sum(len(evts) for commit in self.commits for _s, _q, evts in commit)


def event(i: int) -> Event:
    return {"type": "tile_played", "seat": "SWNE"[i % 4], "tile": f"{i % 7}-{i % 5}",
            "end": "L"}


def single(n: int) -> Workload:
    """One event per commit, on one stream."""
    return Workload("1 event per commit", [[("single", seq, [event(seq)])] for seq in range(n)])


def grouped(total: int, streams: int = 500) -> Workload:
    """`streams` appends of one event each per commit (a busy server's group commit)."""
    rounds = max(1, total // streams)
    return Workload(f"{streams} streams x 1 event per commit",
                    [[(f"t:{s}", seq, [event(seq * streams + s)]) for s in range(streams)]
                     for seq in range(rounds)])


def chain(workload: Workload, stamp: str = STAMP, key: bytes = KEY) -> list[RawCommit]:
    """The rows the store would write for `workload`: canonical text, chain, seals."""
    heads: dict[str, str] = {}
    out = []
    for commit in workload.commits:
        raw = RawCommit()
        for stream, expected, evts in commit:
            prev = heads.get(stream, GENESIS_HASH)
            seq = expected
            for evt in evts:
                seq += 1
                text = canonical_json({**evt, "seq": seq})
                digest = link_hash(prev, text)
                raw.rows.append((stream, seq, evt["type"], text, stamp, prev, digest))
                prev = digest
            mac = head_mac(key, stream, seq, prev)
            if stream in heads:
                raw.moved.append((seq, prev, stamp, mac, stream, expected))
            else:
                raw.new.append((stream, seq, prev, stamp, stamp, mac))
            heads[stream] = prev
        out.append(raw)
    return out


Timing = tuple[float, float]
"""(wall seconds, CPU seconds of this process)."""


def _clock() -> Timing:
    return time.perf_counter(), time.process_time()


def _since(start: Timing) -> Timing:
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def time_chain(workload: Workload) -> tuple[list[RawCommit], Timing]:
    start = _clock()
    commits = chain(workload)
    return commits, _since(start)


def store_arm(url: str, workload: Workload) -> Timing:
    """Seconds for the store to commit the workload (one commit per entry)."""
    with EventStore(url, key=KEY, seal_unkeyed=True) as store:
        start = _clock()
        for commit in workload.commits:
            if len(commit) == 1:
                store.append(*commit[0])
            else:
                results = store.append_batch(commit)
                assert all(isinstance(r, list) for r in results)
        return _since(start)


def raw_sqlite_arm(url: str, commits: list[RawCommit]) -> Timing:
    """Seconds for plain sqlite3 to commit the same rows in the store's schema."""
    with EventStore(url, key=KEY, seal_unkeyed=True):
        pass  # the schema, exactly the store's
    path = sqlite_path(url)
    assert path is not None
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in (f"busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}", "journal_mode = WAL",
                       "synchronous = FULL", "foreign_keys = ON"):
            db.execute(f"PRAGMA {pragma}")
        insert_stream, advance, insert_events = (
            s.format("?") for s in (_INSERT_STREAM, _ADVANCE_HEAD, _INSERT_EVENTS))
        start = _clock()
        for commit in commits:
            db.execute("BEGIN IMMEDIATE")
            if commit.new:
                db.executemany(insert_stream, commit.new)
            if commit.moved:
                done = db.executemany(advance, commit.moved).rowcount
                assert done == len(commit.moved)
            db.executemany(insert_events, commit.rows)
            db.execute("COMMIT")
        return _since(start)
    finally:
        db.close()


def raw_pg_arm(url: str, commits: list[RawCommit]) -> Timing:
    """Seconds for plain psycopg to commit the same rows in the store's schema (the stamp
    goes in as text, read in the session's time zone: the same bytes either way)."""
    import psycopg

    with EventStore(url, key=KEY, seal_unkeyed=True):
        pass
    conninfo = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(conninfo) as db:
        insert_stream, advance, insert_events = (
            s.format("%s") for s in (_INSERT_STREAM, _ADVANCE_HEAD, _INSERT_EVENTS))
        start = _clock()
        with db.cursor() as cur:
            for commit in commits:
                if commit.new:
                    cur.executemany(insert_stream, commit.new)
                if commit.moved:
                    cur.executemany(advance, commit.moved)
                cur.executemany(insert_events, commit.rows)
                db.commit()
        return _since(start)


@dataclass
class Pair:
    """Both arms' totals over the rounds, and each round's ratio."""

    backend: str
    workload: str
    events: int = 0
    store_seconds: float = 0.0
    raw_seconds: float = 0.0
    chain_seconds: float = 0.0
    store_cpu: float = 0.0
    raw_cpu: float = 0.0
    chain_cpu: float = 0.0
    ratios: list[float] = field(default_factory=list)
    """Per round: store events/s over raw events/s."""

    def add(self, events: int, store: Timing, raw: Timing, chain: Timing) -> None:
        self.events += events
        self.store_seconds += store[0]
        self.raw_seconds += raw[0]
        self.chain_seconds += chain[0]
        self.store_cpu += store[1]
        self.raw_cpu += raw[1]
        self.chain_cpu += chain[1]
        self.ratios.append(raw[0] / store[0])

    @property
    def store_rate(self) -> float:
        return self.events / self.store_seconds

    @property
    def raw_rate(self) -> float:
        return self.events / self.raw_seconds

    @property
    def floor_rate(self) -> float:
        """Raw plus the chain: what the store's guarantees cost at the least."""
        return self.events / (self.raw_seconds + self.chain_seconds)


def compare(backend: str, place: Callable[[], AbstractContextManager[str]],
            workloads: list[Workload], rounds: int) -> list[Pair]:
    """Store and raw arms, alternated, `rounds` times per workload."""
    raw_arm = raw_sqlite_arm if backend == "SQLite" else raw_pg_arm
    pairs = []
    for workload in workloads:
        pair = Pair(backend, workload.name)
        for r in range(rounds):
            commits, chain_time = time_chain(workload)
            times: dict[str, Timing] = {}
            for arm in ("store", "raw") if r % 2 == 0 else ("raw", "store"):
                with place() as url:
                    times[arm] = (store_arm(url, workload) if arm == "store"
                                  else raw_arm(url, commits))
            store_time, raw_time = times["store"], times["raw"]
            pair.add(workload.events, store_time, raw_time, chain_time)
        pairs.append(pair)
    return pairs


def print_pairs(pairs: list[Pair]) -> None:
    """Rates are wall-clock; the CPU columns are this process's CPU per event (the store
    and both drivers work in the calling thread), steadier than wall time on a busy host."""
    header = ("backend", "workload", "events", "store ev/s", "raw ev/s", "store/raw",
              "per round", "store/(raw+chain)", "CPU µs/ev store", "raw", "chain",
              "CPU store/raw")
    table: list[tuple[str, ...]] = [header]
    for p in pairs:
        us = 1e6 / p.events
        table.append((p.backend, p.workload, str(p.events), f"{p.store_rate:,.0f}",
                      f"{p.raw_rate:,.0f}", f"{p.store_rate / p.raw_rate:.2f}",
                      " ".join(f"{r:.2f}" for r in p.ratios),
                      f"{p.store_rate / p.floor_rate:.2f}",
                      f"{p.store_cpu * us:.1f}", f"{p.raw_cpu * us:.1f}",
                      f"{p.chain_cpu * us:.1f}", f"{p.raw_cpu / p.store_cpu:.2f}"))
    for line in _aligned(table, right=set(range(2, len(header))) - {6}):
        print(line)


def _aligned(table: list[tuple[str, ...]], right: set[int]) -> Iterator[str]:
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    for n, line in enumerate(table):
        yield "  ".join(c.rjust(w) if i in right else c.ljust(w)
                        for i, (c, w) in enumerate(zip(line, widths, strict=True))).rstrip()
        if n == 0:
            yield "  ".join("-" * w for w in widths)
