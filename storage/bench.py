"""Event store throughput: durable events/s, one event per commit versus group commit.

Every figure is for committed, fsynced events (SQLite WAL with synchronous=FULL; PostgreSQL
with its own settings, normally fsync on commit). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from storage import bench_raw
from storage.aio import AsyncEventStore
from storage.store import EventStore

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass(frozen=True)
class Row:
    backend: str
    mode: str
    events: int = 0
    commits: int = 0
    seconds: float = 0.0
    note: str = ""

    @property
    def rate(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--events", type=int, default=20_000, help="events per grouped run (default 20000)"
    )
    parser.add_argument(
        "--single",
        type=int,
        default=None,
        help="events for the one-event-per-commit runs (default: min(events, 2000))",
    )
    parser.add_argument(
        "--db-dir", default=None, help="directory for the SQLite files (default: system temp)"
    )
    parser.add_argument(
        "--pg",
        default=DEFAULT_PG,
        help=f"PostgreSQL URL (default {DEFAULT_PG}); an empty string skips PostgreSQL",
    )
    parser.add_argument(
        "--concurrency", type=int, default=500, help="concurrent streams in the async run"
    )
    parser.add_argument(
        "--rounds", type=int, default=3,
        help="rounds of the store against raw sqlite3/psycopg, alternated (0: skip them)"
    )
    parser.add_argument(
        "--compare-only", action="store_true",
        help="only the store against the raw driver (not the table of modes)"
    )


def run(args: argparse.Namespace) -> int:
    total = max(1, args.events)
    single = args.single or min(total, 2000)
    rows: list[Row] = []
    pairs: list[bench_raw.Pair] = []
    with tempfile.TemporaryDirectory(prefix="store-bench-", dir=args.db_dir) as tmp:
        counter = iter(range(1_000_000))

        @contextmanager
        def sqlite() -> Iterator[str]:
            yield str(Path(tmp) / f"bench-{next(counter)}.db")

        workloads = [bench_raw.single(single), bench_raw.grouped(total)]
        if not args.compare_only:
            rows += _suite("SQLite", sqlite, total, single, args.concurrency)
        if args.rounds > 0:
            pairs += bench_raw.compare("SQLite", sqlite, workloads, args.rounds)
    if args.pg:
        problem = _pg_problem(args.pg)
        if problem is None:
            if not args.compare_only:
                rows += _suite(
                    "PostgreSQL", lambda: _pg_schema(args.pg), total, single, args.concurrency
                )
            if args.rounds > 0:
                pairs += bench_raw.compare("PostgreSQL", lambda: _pg_schema(args.pg),
                                           workloads, args.rounds)
        else:
            rows += [Row("PostgreSQL", mode, note=f"unavailable ({problem})") for mode in _MODES]
    if rows:
        _print(rows)
    if pairs:
        print()
        print(f"The store against the raw driver, the same rows (sealed heads), "
              f"{args.rounds} rounds alternated:")
        bench_raw.print_pairs(pairs)
    return 0


_MODES = [
    "1 event per commit",
    "100 appends x 1 event per commit (100 streams)",
    "500 appends x 1 event per commit (500 streams)",
    "1 append x 500 events per commit",
    "AsyncEventStore group commit",
]


def _suite(
    backend: str, place: Callable[[], AbstractContextManager[str]], total: int, single: int,
    concurrency: int
) -> list[Row]:
    runs = [
        lambda url: _single(url, single),
        lambda url: _batched(url, total, streams=100),
        lambda url: _batched(url, total, streams=500),
        lambda url: _bulk(url, total, per_commit=500),
        lambda url: asyncio.run(_async(url, total, concurrency)),
    ]
    rows = []
    for mode, bench in zip(_MODES, runs, strict=True):
        with place() as url:
            events, commits, seconds, note = bench(url)
        rows.append(Row(backend, mode, events, commits, seconds, note))
    return rows


def _event(i: int) -> dict[str, object]:
    return {"type": "tile_played", "seat": "SWNE"[i % 4], "tile": f"{i % 7}-{i % 5}", "end": "L"}


Result = tuple[int, int, float, str]


def _single(url: str, n: int) -> Result:
    with EventStore(url) as store:
        start = time.perf_counter()
        for seq in range(n):
            store.append("single", seq, [_event(seq)])
        return n, n, time.perf_counter() - start, ""


def _batched(url: str, total: int, streams: int) -> Result:
    rounds = max(1, total // streams)
    with EventStore(url) as store:
        start = time.perf_counter()
        for seq in range(rounds):
            results = store.append_batch([(f"t:{s}", seq, [_event(seq)]) for s in range(streams)])
            assert all(isinstance(r, list) for r in results)
        return rounds * streams, rounds, time.perf_counter() - start, ""


def _bulk(url: str, total: int, per_commit: int) -> Result:
    rounds = max(1, total // per_commit)
    with EventStore(url) as store:
        start = time.perf_counter()
        for r in range(rounds):
            store.append("bulk", r * per_commit, [_event(i) for i in range(per_commit)])
        return rounds * per_commit, rounds, time.perf_counter() - start, ""


async def _async(url: str, total: int, concurrency: int) -> Result:
    per_stream = max(1, total // concurrency)
    async with AsyncEventStore.open(url) as store:

        async def table(name: str) -> None:
            for seq in range(per_stream):
                await store.append(name, seq, [_event(seq)])

        start = time.perf_counter()
        await asyncio.gather(*(table(f"a:{i}") for i in range(concurrency)))
        seconds = time.perf_counter() - start
        note = f"{concurrency} concurrent streams, {store.appends / store.commits:.0f}/commit"
        return per_stream * concurrency, store.commits, seconds, note


def _pg_problem(url: str) -> str | None:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return None
    except psycopg.Error as error:
        return str(error).strip().splitlines()[0][:60]


@contextmanager
def _pg_schema(url: str) -> Iterator[str]:
    import psycopg

    schema = f"store_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        separator = "&" if "?" in url else "?"
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _print(rows: list[Row]) -> None:
    header = ("backend", "mode", "events", "commits", "seconds", "events/s", "x single", "note")
    singles = {r.backend: r.rate for r in rows if r.mode == _MODES[0] and r.rate}
    table = [header]
    for r in rows:
        if not r.seconds:
            table.append((r.backend, r.mode, "-", "-", "-", "-", "-", r.note))
            continue
        base = singles.get(r.backend)
        ratio = f"{r.rate / base:.1f}" if base else "-"
        table.append(
            (
                r.backend,
                r.mode,
                str(r.events),
                str(r.commits),
                f"{r.seconds:.2f}",
                f"{r.rate:,.0f}",
                ratio,
                r.note,
            )
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    right = {2, 3, 4, 5, 6}
    for n, line in enumerate(table):
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
